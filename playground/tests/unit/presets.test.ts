import { describe, expect, it } from 'vitest';
import { Decoder, parseRequest, parseResponse, type RequestHead } from '@httpspan/wasm';
import { LENIENCY_FLAGS } from '../../src/lib/types.ts';
import { latin1Bytes } from '../../src/lib/bytes.ts';
import { PRESETS, PRESET_GROUPS, presetById, type Preset } from '../../src/lib/presets.ts';

// The project has no @types/node: a specifier that is not a literal keeps TypeScript from
// resolving the module, and the one function used is typed here.
const fs = (await import('node:fs' as string)) as { readFileSync(path: URL): Uint8Array };

/** What the strict Decoder makes of a preset's whole input, in PresetExpect's terms. */
function run(p: Preset) {
  // A request Decoder throws on a requestMethods option, even an empty one.
  const decoder =
    p.options.mode === 'response'
      ? new Decoder('response', { requestMethods: [p.options.requestMethod] })
      : new Decoder('request');
  try {
    const events = [...decoder.push(p.bytes), ...decoder.finish()];
    const error = events.find((e) => e.type === 'error');
    const messages = events.filter((e) => e.type === 'head').length;
    const body: number[] = [];
    for (const e of events) if (e.type === 'body') body.push(...e.data);
    if (error && error.type === 'error') {
      const { code, offset, status } = error.error;
      return { status: 'error', errorCode: code, errorOffset: offset, httpStatus: status, messages, body, events };
    }
    const status = events.some((e) => e.type === 'incomplete') ? 'partial' : 'complete';
    return { status, messages, body, events, httpStatus: undefined, errorCode: undefined, errorOffset: undefined };
  } finally {
    decoder.free();
  }
}

describe('presets', () => {
  it('have unique kebab-case ids, known groups and strict options', () => {
    const ids = new Set<string>();
    for (const p of PRESETS) {
      expect(p.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(ids.has(p.id)).toBe(false);
      ids.add(p.id);
      expect(PRESET_GROUPS).toContain(p.group);
      expect(p.options.lenient).toEqual([]);
      expect(['request', 'response']).toContain(p.options.mode);
      expect(p.title.length).toBeGreaterThan(0);
      // One line.
      expect(p.explanation).not.toMatch(/\n/);
      expect(presetById(p.id)).toBe(p);
    }
    expect(LENIENCY_FLAGS.length).toBe(8);
    expect(presetById('no-such-preset')).toBeUndefined();
  });

  it('cover every group, the six benchmark inputs and the smuggling gallery', () => {
    for (const g of PRESET_GROUPS) expect(PRESETS.some((p) => p.group === g)).toBe(true);
    const bench = PRESETS.filter((p) => p.group === 'Benchmark inputs').map((p) => p.id);
    expect(bench).toEqual([
      'request-small',
      'request-medium',
      'request-large',
      'response-small',
      'response-medium',
      'response-large',
    ]);
    const smuggling = PRESETS.filter((p) => p.group === 'Smuggling attempts');
    for (const p of smuggling) expect(p.expect.status).toBe('error');
    expect(smuggling.length).toBeGreaterThanOrEqual(10);
  });

  it('benchmark inputs are the testdata files byte for byte (CR LF intact)', () => {
    for (const id of ['request-small', 'request-medium', 'request-large', 'response-small', 'response-medium', 'response-large']) {
      const file = fs.readFileSync(new URL(`../../../core/testdata/${id}.http`, import.meta.url));
      const p = presetById(id)!;
      expect(p.bytes.length, id).toBe(file.length);
      expect(Array.from(p.bytes), id).toEqual(Array.from(file));
    }
    expect(presetById('request-small')!.bytes.length).toBe(35);
    expect(presetById('request-medium')!.bytes.length).toBe(368);
    expect(presetById('request-large')!.bytes.length).toBe(733);
  });

  for (const p of PRESETS) {
    it(`${p.id}: the strict decoder gives what expect says`, () => {
      const got = run(p);
      expect(got.status).toBe(p.expect.status);
      if (p.expect.messages !== undefined) expect(got.messages).toBe(p.expect.messages);
      if (p.expect.status === 'error') {
        expect(p.expect.errorCode).toBeDefined();
        expect(p.expect.errorOffset).toBeDefined();
        expect(got.errorCode).toBe(p.expect.errorCode);
        expect(got.errorOffset).toBe(p.expect.errorOffset);
      } else {
        expect(p.expect.errorCode).toBeUndefined();
        expect(p.expect.errorOffset).toBeUndefined();
      }
    });

    it(`${p.id}: the one-shot head parser agrees on the first head`, () => {
      const result =
        p.options.mode === 'request'
          ? parseRequest(p.bytes)
          : parseResponse(p.bytes, { requestMethod: p.options.requestMethod });
      if (p.expect.status === 'error' && p.expect.messages === 0) {
        expect(result.state).toBe('error');
        if (result.state === 'error') {
          expect(result.error.code).toBe(p.expect.errorCode);
          expect(result.error.offset).toBe(p.expect.errorOffset);
        }
      } else {
        expect(result.state).toBe('complete');
      }
    });
  }

  it('error offsets point at the offending byte', () => {
    const at = (id: string) => {
      const p = presetById(id)!;
      return String.fromCharCode(p.bytes[p.expect.errorOffset!]);
    };
    const rest = (id: string, n: number) => {
      const p = presetById(id)!;
      return String.fromCharCode(...p.bytes.subarray(p.expect.errorOffset!, p.expect.errorOffset! + n));
    };
    expect(rest('cl-te', 18)).toBe('Transfer-Encoding:');
    expect(rest('duplicate-content-length', 15)).toBe('Content-Length:');
    expect(rest('te-space-before-colon', 2)).toBe(' :');
    expect(rest('te-xchunked', 27)).toBe('Transfer-Encoding: xchunked');
    expect(rest('te-chunked-identity', 18)).toBe('Transfer-Encoding:');
    expect(rest('obs-fold-transfer-encoding', 19)).toBe(' Transfer-Encoding:');
    expect(at('bare-lf-field-line')).toBe('\n');
    expect(rest('chunk-size-overflow', 3)).toBe('5\r\n');
    expect(rest('te-in-http10', 18)).toBe('Transfer-Encoding:');
    expect(at('nul-in-header')).toBe('\0');
  });

  it('explanations name the numbers they state', () => {
    // The Content-Length values quoted in explanations are those in the bytes.
    for (const p of PRESETS) {
      const text = String.fromCharCode(...p.bytes);
      for (const m of p.explanation.matchAll(/Content-Length:? \(?(\d+)\)?/g)) {
        expect(text, p.id).toContain(`Content-Length: ${m[1]}`);
      }
    }
    // And the 17 digits of the overflow preset are 17.
    const overflow = String.fromCharCode(...presetById('chunk-size-overflow')!.bytes);
    expect(/\r\n\r\n([0-9a-f]+)\r\n/.exec(overflow)![1].length).toBe(17);
  });

  it('explanations that quote a status give that status', () => {
    for (const p of PRESETS) {
      const m = /\((\d{3})\)/.exec(p.explanation);
      if (m) expect(run(p).httpStatus, p.id).toBe(Number(m[1]));
    }
  });

  it('the benchmark explanations count what is there', () => {
    const large = parseRequest(presetById('request-large')!.bytes);
    expect(large.state === 'complete' && large.fields.length).toBe(20);
    expect(presetById('request-large')!.explanation).toContain('20 field lines');
  });

  it('the chunked preset decodes to "Hello, world!" with a Content-Digest trailer', () => {
    const got = run(presetById('chunked-extensions-trailers')!);
    expect(String.fromCharCode(...got.body)).toBe('Hello, world!');
    const trailers = got.events.find((e) => e.type === 'trailers');
    expect(trailers?.type === 'trailers' && trailers.fields.map((f) => f.name)).toEqual(['Content-Digest']);
  });

  it('the pipelined preset has a body in its second message only', () => {
    const got = run(presetById('pipelined-requests')!);
    expect(String.fromCharCode(...got.body)).toBe('post=1234');
    const heads = got.events.filter((e) => e.type === 'head');
    expect(heads.map((e) => (e.type === 'head' ? (e.head as RequestHead).method : ''))).toEqual(['GET', 'POST', 'GET']);
  });

  it('the 101 preset leaves the frame after the head unread', () => {
    const p = presetById('websocket-101-response')!;
    const decoder = new Decoder('response');
    const events = [...decoder.push(p.bytes), ...decoder.finish()];
    decoder.free();
    const closed = events.find((e) => e.type === 'closed');
    expect(closed && closed.type === 'closed' ? closed.offset : -1).toBe(p.bytes.length - 7);
    expect(Array.from(p.bytes.subarray(p.bytes.length - 7, p.bytes.length - 5))).toEqual([0x81, 0x05]);
  });

  it('the HEAD preset needs its request method', () => {
    const p = presetById('head-response-content-length')!;
    expect(run({ ...p, options: { ...p.options, requestMethod: 'GET' } }).status).toBe('partial');
  });

  it('latin1Bytes takes one byte per character and refuses others', () => {
    expect(Array.from(latin1Bytes('a\r\n\xff'))).toEqual([0x61, 0x0d, 0x0a, 0xff]);
    expect(() => latin1Bytes('\u0100')).toThrow(/U\+100/);
  });
});

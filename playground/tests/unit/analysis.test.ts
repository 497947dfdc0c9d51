import { describe, expect, test } from 'vitest';
import { analyze, type Analysis } from '../../src/lib/analysis.ts';
import { LENIENCY_FLAGS, type ByteClass, type ParseOptions } from '../../src/lib/types.ts';

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const REQ: ParseOptions = { mode: 'request', requestMethod: 'GET', lenient: [] };
const RES: ParseOptions = { mode: 'response', requestMethod: 'GET', lenient: [] };

/** The bytes of a class, as text, run by run. */
function runs(a: Analysis, cls: ByteClass): string[] {
  const out: string[] = [];
  let cur = '';
  a.classes.forEach((c, i) => {
    if (c === cls) cur += String.fromCharCode(a.bytes[i]);
    else if (cur) {
      out.push(cur);
      cur = '';
    }
  });
  if (cur) out.push(cur);
  return out;
}

describe('a request', () => {
  const input = bytes('GET /a?b=1 HTTP/1.1\r\nHost: example.com\r\nX-Pad:  v  \r\n\r\n');
  const a = analyze(input, REQ);

  test('is complete, with its fields and spans', () => {
    expect(a.status).toBe('complete');
    expect(a.messages).toHaveLength(1);
    expect(a.fields.map((f) => [f.name, f.value, f.nameSpan, f.valueSpan, f.known, f.indexed])).toEqual([
      ['Host', 'example.com', { offset: 21, length: 4 }, { offset: 27, length: 11 }, 'host', true],
      ['X-Pad', 'v', { offset: 40, length: 5 }, { offset: 48, length: 1 }, null, false],
    ]);
    expect(a.fields[0].slot).toBeTypeOf('number');
    expect(a.fields[1].slot).toBeNull();
  });

  test('labels every byte', () => {
    expect(runs(a, 'method')).toEqual(['GET']);
    expect(runs(a, 'target')).toEqual(['/a?b=1']);
    expect(runs(a, 'version')).toEqual(['HTTP/1.1']);
    expect(runs(a, 'name')).toEqual(['Host', 'X-Pad']);
    expect(runs(a, 'value')).toEqual(['example.com', 'v']);
    expect(runs(a, 'colon')).toEqual([':', ':']);
    expect(runs(a, 'eol')).toEqual(['\r\n', '\r\n', '\r\n\r\n']);
    expect(runs(a, 'ws')).toEqual([' ', ' ', ' ', '  ', '  ']);
    expect(a.classes.filter((c) => c === 'pending' || c === 'unread')).toEqual([]);
    expect([...a.owners].every((o) => o >= 0)).toBe(true);
  });

  test('names the part each byte belongs to', () => {
    const partAt = (i: number) => a.parts[a.owners[i]];
    expect(partAt(0).label).toBe('method GET');
    expect(partAt(4).kind).toBe('target');
    expect(partAt(19).kind).toBe('start-line'); // the CR of the request-line
    expect(partAt(26).label).toBe('field line 1: Host'); // the space after the colon
    expect(partAt(26).field).toBe(0);
    expect(partAt(input.length - 1).kind).toBe('empty-line');
  });
});

test('a response: version, status and reason', () => {
  const a = analyze(bytes('HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nabc'), RES);
  expect(a.status).toBe('complete');
  expect(runs(a, 'version')).toEqual(['HTTP/1.1']);
  expect(runs(a, 'status')).toEqual(['404']);
  expect(runs(a, 'reason')).toEqual(['Not Found']);
  expect(runs(a, 'body')).toEqual(['abc']);
  expect(a.messages[0].end).toBe(a.bytes.length);
  expect(new TextDecoder().decode(a.messages[0].body)).toBe('abc');
});

test('a response to HEAD has no body to read', () => {
  const input = bytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n');
  expect(analyze(input, { ...RES, requestMethod: 'HEAD' }).status).toBe('complete');
  expect(analyze(input, RES).status).toBe('partial');
});

test('every response answers the request method, pipelined ones too (as in the compare view)', () => {
  const one = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n';
  const a = analyze(bytes(one + one), { ...RES, requestMethod: 'HEAD' });
  expect(a.status).toBe('complete');
  expect(a.messages.map((m) => [m.start, m.end, m.body.length])).toEqual([
    [0, one.length, 0],
    [one.length, 2 * one.length, 0],
  ]);
});

test('chunked: sizes, extensions, data, trailers', () => {
  const input = bytes(
    'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '4;name=val\r\nWiki\r\n5\r\npedia\r\n0\r\nExpires: never\r\n\r\n',
  );
  const a = analyze(input, REQ);
  expect(a.status).toBe('complete');
  expect(runs(a, 'chunk-size')).toEqual(['4', '5', '0']);
  expect(runs(a, 'chunk-ext')).toEqual([';name=val']);
  expect(runs(a, 'body')).toEqual(['Wiki', 'pedia']);
  expect(runs(a, 'trailer')).toEqual(['Expires', 'never']);
  expect(new TextDecoder().decode(a.messages[0].body)).toBe('Wikipedia');
  expect(a.messages[0].end).toBe(input.length);
  expect(a.fields.filter((f) => f.section === 'trailers').map((f) => f.name)).toEqual(['Expires']);
  const chunkLabels = a.parts.filter((p) => p.kind === 'chunk').map((p) => p.label);
  expect(chunkLabels).toEqual(['chunk 1: size 0x4 = 4 bytes', 'chunk 2: size 0x5 = 5 bytes', 'last chunk (size 0)']);
  expect([...a.owners].every((o) => o >= 0)).toBe(true);
});

test('chunk framing comes from the decoder: bare LF, whitespace before an extension, an empty trailer section', () => {
  const head = 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n';
  const input = bytes(head + '3 ;x="a b"\nabc\n0\n\n');
  const a = analyze(input, { ...REQ, lenient: ['bareLf'] });
  expect(a.status).toBe('complete');
  expect(runs(a, 'chunk-size')).toEqual(['3', '0']);
  // The grammar's BWS before ";" is part of the chunk-ext.
  expect(runs(a, 'chunk-ext')).toEqual([' ;x="a b"']);
  expect(runs(a, 'body')).toEqual(['abc']);
  const h = head.length;
  // The line end after the data is chunk 1's; the last chunk owns its line and the empty trailer section.
  const labels = (from: number, to: number) => [...a.owners.slice(from, to)].map((o) => a.parts[o].label);
  expect(labels(h + 14, h + 15)).toEqual(['chunk 1: size 0x3 = 3 bytes']);
  expect(labels(h + 15, h + 18)).toEqual(Array(3).fill('last chunk (size 0)'));
  expect(a.classes.slice(h + 14)).toEqual(['eol', 'chunk-size', 'eol', 'eol']);
  expect(a.messages[0].end).toBe(input.length);
});

test('a chunk line cut short is pending; an error in one is in the framing part', () => {
  const head = 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n';
  const h = head.length;
  const input = bytes(head + '2\r\nab\r\n5;a\r\nhello\r\n0\r\n\r\n');
  const cut = analyze(input, REQ, { fed: h + 11, piece: 1, finish: false });
  expect(cut.status).toBe('partial');
  // After chunk 1 ("2\r\nab"), its line end and "5;a" are the framing being read.
  const pending = cut.parts[cut.owners[h + 5]];
  expect([pending.label, pending.start, pending.end]).toEqual(['chunk framing being read: parsed when its line end arrives', h + 5, h + 11]);
  expect(cut.classes.slice(h + 5, h + 11).every((c) => c === 'pending')).toBe(true);
  const whole = analyze(input, REQ);
  expect(whole.classes.slice(h + 5, h + 11)).toEqual(['eol', 'eol', 'chunk-size', 'chunk-ext', 'chunk-ext', 'eol']);

  const bad = analyze(bytes(head + '2\r\nab\r\n5;=\r\nhello\r\n0\r\n\r\n'), REQ);
  expect(bad.error?.code).toBe('invalid_chunk_extension');
  expect(bad.error?.offset).toBe(h + 9);
  const failed = bad.parts[bad.owners[h + 9]];
  expect([failed.label, failed.start, failed.end]).toEqual(['the chunk framing the error is in', h + 5, h + 10]);
  expect(bad.classes.slice(h + 10).every((c) => c === 'unread')).toBe(true);
});

test('pipelined messages each have their extent', () => {
  const one = 'GET /1 HTTP/1.1\r\nHost: a\r\n\r\n';
  const two = 'POST /2 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n';
  const three = 'GET /3 HTTP/1.1\r\nHost: a\r\n\r\n';
  const a = analyze(bytes(one + two + three), REQ);
  expect(a.status).toBe('complete');
  expect(a.messages.map((m) => [m.start, m.end])).toEqual([
    [0, one.length],
    [one.length, one.length + two.length],
    [one.length + two.length, one.length + two.length + three.length],
  ]);
  expect(runs(a, 'target')).toEqual(['/1', '/2', '/3']);
});

test('an error: its byte, its code, and nothing read after it', () => {
  const input = bytes('GET / HTTP/1.1\r\nHost: a\r\nBa(d: x\r\n\r\n');
  const a = analyze(input, REQ);
  expect(a.status).toBe('error');
  expect(a.error?.code).toBe('invalid_field_name');
  expect(a.error?.offset).toBe(27);
  expect(a.error?.line).toBe(3);
  expect(a.error?.column).toBe(3);
  expect(a.error?.rfcUrl).toMatch(/^https:\/\/www\.rfc-editor\.org\/rfc\/rfc9\d\d\d#section-/);
  // The first two lines were accepted; the third is the one the error is in.
  expect(a.classes.slice(0, 25).every((c) => c === 'accepted')).toBe(true);
  expect(a.classes.slice(25, 28).every((c) => c === 'pending')).toBe(true);
  expect(a.classes.slice(28).every((c) => c === 'unread')).toBe(true);
  expect(a.messages).toHaveLength(0);
});

test('a partial head: accepted lines, then the line being read', () => {
  const input = bytes('GET / HTTP/1.1\r\nHost: a\r\nAcc');
  const a = analyze(input, REQ);
  expect(a.status).toBe('partial');
  expect(a.resumeOffset).toBe(25);
  const kinds = a.parts.map((p) => [p.label, p.start, p.end]);
  expect(kinds).toEqual([
    ['lines accepted, head not complete', 0, 25],
    ['the line being read: parsed when its line end arrives', 25, 28],
  ]);
});

test('step mode: Complete exactly when the last byte of the message arrives', () => {
  const input = bytes('PUT / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok');
  for (let fed = 0; fed <= input.length; fed++) {
    const a = analyze(input, REQ, { fed, piece: 1, finish: false });
    expect(a.status, `after ${fed} bytes`).toBe(fed === input.length ? 'complete' : 'partial');
    expect(a.fed).toBe(fed);
  }
  const head = input.length - 2;
  const atHead = analyze(input, REQ, { fed: head, piece: 1, finish: false });
  expect(atHead.events.map((e) => [e.type, e.at])).toEqual([['head', head]]);
  const done = analyze(input, REQ, { fed: input.length, piece: 1, finish: false });
  // The body's two bytes came in two pushes: one entry of the log.
  expect(done.events.map((e) => [e.type, e.at, e.text])).toEqual([
    ['head', head, 'head: PUT /, 2 fields, body of 2 bytes (Content-Length)'],
    ['body', head + 2, `2 body bytes at ${head}–${head + 1}`],
    ['end', head + 2, 'message 1 complete'],
  ]);
  // In the head, the decoder resumes at the line in progress.
  expect(analyze(input, REQ, { fed: 20, piece: 1, finish: false }).resumeOffset).toBe(16);
});

test('after a protocol switch the bytes are not HTTP/1.1', () => {
  const input = bytes('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x05hello');
  const a = analyze(input, RES);
  expect(a.status).toBe('complete');
  const head = input.length - 7;
  expect(a.classes.slice(head).every((c) => c === 'unread')).toBe(true);
  expect(a.parts[a.owners[head]].label).toMatch(/switched protocols/);
});

test('pieces of any size give the same labels', () => {
  const input = bytes(
    'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;x\r\nabc\r\n0\r\nT: 1\r\n\r\nGET / HTTP/1.1\r\nHost: b\r\n\r\n',
  );
  const whole = analyze(input, REQ);
  for (const piece of [1, 2, 3, 7, 64]) {
    const split = analyze(input, REQ, { piece });
    expect(split.classes).toEqual(whole.classes);
    expect([...split.owners]).toEqual([...whole.owners]);
    expect(split.status).toBe(whole.status);
  }
});

test('leniency options change the outcome', () => {
  const input = bytes('GET / HTTP/1.1\nHost: a\n\n');
  expect(analyze(input, REQ).error?.code).toBe('bare_lf');
  const lenient = analyze(input, { ...REQ, lenient: ['bareLf'] });
  expect(lenient.status).toBe('complete');
  expect(runs(lenient, 'eol')).toEqual(['\n', '\n\n']);
});

describe('any input', () => {
  // Mutations of every preset (bytes replaced, inserted, deleted, cut), under random options:
  // the labelling never throws, labels every byte, keeps parts inside the input, and gives the
  // same labels whatever the pieces the bytes arrive in.
  const ALPHABET = [...bytes('\r\n :;\t0aAzZ\x00\x7f\xff,"/?#%-')];
  const FLAGS = LENIENCY_FLAGS;

  test('is labelled completely and consistently', async () => {
    const { PRESETS } = await import('../../src/lib/presets.ts');
    const { rng } = await import('./random.ts');
    const next = rng(0x5eed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
    let cases = 0;
    for (let round = 0; round < 40; round++) {
      for (const preset of PRESETS) {
        const b = [...preset.bytes];
        for (let m = 0, n = 1 + Math.floor(next() * 4); m < n; m++) {
          const at = Math.floor(next() * (b.length + 1));
          const op = next();
          if (op < 0.4) b[at] = pick(ALPHABET);
          else if (op < 0.7) b.splice(at, 0, pick(ALPHABET));
          else if (op < 0.9) b.splice(at, 1);
          else b.length = at;
        }
        const input = Uint8Array.from(b.filter((x) => x !== undefined));
        const options = {
          ...preset.options,
          lenient: FLAGS.filter(() => next() < 0.25),
        };
        const whole = analyze(input, options);
        expect(whole.classes).toHaveLength(input.length);
        expect(whole.classes.every((c) => typeof c === 'string')).toBe(true);
        for (const o of whole.owners) expect(o >= -1 && o < whole.parts.length).toBe(true);
        for (const p of whole.parts) expect(0 <= p.start && p.start <= p.end && p.end <= input.length).toBe(true);
        expect(whole.status === 'error').toBe(whole.error !== null);
        if (whole.error) expect(whole.error.offset).toBeLessThanOrEqual(input.length);
        const piece = 1 + Math.floor(next() * 9);
        const split = analyze(input, options, { piece });
        expect(split.status).toBe(whole.status);
        expect(split.classes).toEqual(whole.classes);
        expect(split.error?.offset).toBe(whole.error?.offset);
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(800);
  }, 30_000); // Thousands of random messages: seconds on a loaded machine.
});

describe('step mode keeps its decoder between forward steps', () => {
  // The same stream state whether the decoder was pushed further (the step session) or fed the
  // prefix from byte 0 (a copy of the input is a new session).
  const summary = (a: Analysis) => ({
    status: a.status,
    events: a.events,
    classes: a.classes.join(','),
    resume: a.resumeOffset,
    bodies: a.messages.map((m) => Array.from(m.body).join(',')),
  });
  const inputs: [string, ParseOptions][] = [
    ['POST /u HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n3\r\nabc\r\n0\r\nT: 1\r\n\r\nGET / HTTP/1.1\r\nHost: b\r\n\r\n', { mode: 'request', requestMethod: 'GET', lenient: [] }],
    ['PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 40\r\n\r\n' + 'x'.repeat(40) + 'GET / HTTP/1.1\r\nHost\r\n\r\n', { mode: 'request', requestMethod: 'GET', lenient: [] }],
    ['HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcHTTP/1.1 200 OK\r\n\r\nuntil close', { mode: 'response', requestMethod: 'GET', lenient: [] }],
  ];
  for (const [text, options] of inputs) {
    test(`${text.slice(0, 20)}…, pieces of 1, 2 and 7 bytes`, () => {
      const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
      for (const piece of [1, 2, 7]) {
        const steps = Array.from({ length: Math.floor(bytes.length / 3) + 1 }, (_, k) => k * 3);
        // From byte 0 each time (each copy of the input starts its own session), then one
        // session pushed further step by step.
        const fresh = steps.map((fed) => summary(analyze(bytes.slice(), options, { fed, piece, finish: false })));
        steps.forEach((fed, k) => {
          expect(summary(analyze(bytes, options, { fed, piece, finish: false })), `piece ${piece}, fed ${fed}`).toEqual(fresh[k]);
        });
      }
    });
  }
});

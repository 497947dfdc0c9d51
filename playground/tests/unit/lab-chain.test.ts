// The lab's pair simulator on the real parsers (httpspan's wasm package, undici's llhttp, and
// httparse, picohttpparser and Go from parsers/dist/): its framing must be each parser's own
// compare-view reading, and the desyncs it names are those observed.

import { beforeAll, describe, expect, it } from 'vitest';
import { compare, type Comparison, type PeerResult } from '../../src/lib/compare.ts';
import { pairVerdict, runChain, runResponses, reserialize, startLineOf, VICTIM_REQUEST, type ChainResult, type Forwarding } from '../../src/lib/lab/chain.ts';
import { labConfigs, type LabConfig } from '../../src/lib/lab/configs.ts';
import { desyncCountText, desyncGrid } from '../../src/lib/lab/grid.ts';
import { loadLlhttp, type Llhttp } from '../../src/lib/llhttp.ts';
import type { ExternalParser } from '../../src/lib/parsers/common.ts';
import { PRESETS } from '../../src/lib/presets.ts';
import type { RequestMethods } from '../../src/lib/types.ts';
import { readLlhttpWasm } from '../../vite-plugins/llhttp.ts';
import { loadBuiltParsers } from '../../cli/node-parsers.ts';

const bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const text = (b: Uint8Array): string => String.fromCharCode(...b);

let llhttp: Llhttp;
let external: ExternalParser[];
let configs: LabConfig[];
const config = (id: string): LabConfig => {
  const found = configs.find((c) => c.id === id);
  if (!found) throw new Error(`no configuration ${id}`);
  return found;
};
const chain = (input: string, front: string, back: string, forwarding: Forwarding = 'raw'): ChainResult =>
  runChain(bytes(input), config(front), config(back), forwarding);

beforeAll(async () => {
  const { httparse, pico, go } = await loadBuiltParsers();
  llhttp = await loadLlhttp(readLlhttpWasm());
  external = [httparse, pico, go];
  configs = labConfigs({ llhttp, external });
});

const SMUGGLED = 'GET /admin HTTP/1.1\r\nHost: h\r\n\r\n';
/** The inputs the playground's other tests use (tests/unit/parsers.test.ts, compare.test.ts), and the lab's own. */
const VECTORS: Record<string, string> = {
  clTe: 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' + SMUGGLED,
  spaceInName: 'GET / HTTP/1.1\r\nHost: h\r\nBad Name: x\r\n\r\n',
  bareLf: 'POST / HTTP/1.1\r\nHost: h\nContent-Length: 3\r\n\r\nabc',
  chunkedTrailer: 'POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nT: 1\r\n\r\n' + SMUGGLED,
  badChunk: 'POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  pipelined: 'POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET /y HTTP/1.1\r\nHost: a\r\n\r\n',
  http10Te: 'POST / HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' + SMUGGLED,
  http10TeCl: `POST / HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\nContent-Length: ${5 + SMUGGLED.length}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n` + SMUGGLED,
  spaceBeforeColonTe: 'POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n' + SMUGGLED,
  spaceBeforeColonCl: 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length : 32\r\n\r\n' + SMUGGLED,
};

/** The compare view's column of a configuration (llhttp insecure and Go's server have none). */
const COLUMN: Record<string, string> = { httpspan: 'strict', 'httpspan-all': 'all-lenient', llhttp: 'llhttp', httparse: 'httparse', picohttpparser: 'picohttpparser', go: 'go' };
const columnOf = (id: string): string | undefined => COLUMN[id] ?? (id.startsWith('httpspan+') ? `lenient:${id.slice(9)}` : undefined);

/** A reading's complete requests: first byte, start line, body length. */
function requestsOf(r: PeerResult): string[] {
  return r.messages.filter((m) => m.complete).map((m) => `${m.offset}:${m.method} ${m.target} ${m.version}:${m.bodyLength}`);
}

describe('the simulator frames as each parser’s compare-view column', () => {
  const inputs = (): [string, Uint8Array][] => [
    ...PRESETS.filter((p) => p.options.mode === 'request').map((p): [string, Uint8Array] => [p.id, p.bytes]),
    ...Object.entries(VECTORS).map(([id, t]): [string, Uint8Array] => [id, bytes(t)]),
  ];
  it('on every request preset and every vector, front and back', () => {
    let checked = 0;
    for (const [id, input] of inputs()) {
      const comparison: Comparison = compare(input, 'request', 'GET', llhttp, { external });
      for (const c of configs) {
        const columnId = columnOf(c.id);
        if (columnId === undefined) continue;
        const column = comparison.columns.find((col) => col.id === columnId)!;
        const expected = requestsOf(column.result);
        // As the front end: the requests it forwards are the column's complete ones, with their bytes.
        const run = runChain(input, c, c, 'raw');
        expect(run.frontRequests.map((f) => `${f.client.start}:${f.startLine}:${f.message.bodyLength}`), `${c.id} on ${id}`).toEqual(expected);
        // As the back end reading raw-forwarded bytes: the same parser reads exactly what it forwarded.
        expect(run.verdict, `${c.id} behind itself on ${id}`).not.toBe('desync');
        expect(run.backRequests.filter((r) => r.complete).map((r) => r.startLine)).toEqual(run.frontRequests.map((f) => f.startLine));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200);
  });
  it('keeps each request’s bytes: raw forwarding is the client’s bytes of each framed request', () => {
    const run = chain(VECTORS.pipelined, 'go', 'httpspan');
    expect(run.frontRequests.map((f) => [f.client.start, f.client.end])).toEqual([[0, 51], [51, 79]]);
    expect(text(run.upstream)).toBe(VECTORS.pipelined);
    expect(run.verdict).toBe('agree');
  });
  it('Go’s server refuses what ReadRequest takes: a space before the colon', () => {
    const go = config('go').parse(bytes(VECTORS.spaceBeforeColonCl));
    const server = config('go-server').parse(bytes(VECTORS.spaceBeforeColonCl));
    expect(go.status).toBe('complete');
    expect(server.status).toBe('error');
    expect(server.error?.reason).toContain('invalid header name');
    expect(server.error?.offset).toBe(0);
  });
  it('httparse lenient skips a field line the default refuses', () => {
    expect(config('httparse').parse(bytes(VECTORS.spaceInName)).status).toBe('error');
    const lenient = config('httparse-lenient').parse(bytes(VECTORS.spaceInName));
    expect(lenient.status).toBe('complete');
    expect(lenient.messages[0].headers).toEqual([['Host', 'h']]);
  });
  it('llhttp insecure turns on the lenient setters the module has', () => {
    expect(llhttp.lenientSetters.length).toBeGreaterThan(3);
    expect(llhttp.lenientSetters).toContain('llhttp_set_lenient_headers');
    expect(llhttp.lenientSetters).toContain('llhttp_set_lenient_chunked_length');
  });
});

describe('desyncs, as observed', () => {
  it('CL.TE desyncs no pair raw: the 2019 attack needs a parser that lets Content-Length win', () => {
    const grid = desyncGrid(bytes(VECTORS.clTe), configs, 'raw');
    expect(grid.cells.filter((c) => c.verdict === 'desync').map((c) => `${c.front.id}>${c.back.id}`)).toEqual([]);
    expect(configs.length).toBe(17);
    expect(grid.cells.length).toBe(17 * 17);
  });
  it('HTTP/1.0 with Transfer-Encoding and Content-Length: Go frames by Content-Length, llhttp insecure by chunked', () => {
    const run = chain(VECTORS.http10TeCl, 'go-server', 'llhttp-insecure');
    expect(run.verdict).toBe('desync');
    expect(run.frontRequests.map((f) => f.startLine)).toEqual(['POST / HTTP/1.0']);
    expect(run.desync?.hidden.map((h) => h.startLine)).toEqual(['GET /admin HTTP/1.1']);
    expect(text(run.upstream.subarray(run.desync!.smuggled!.start, run.desync!.smuggled!.end))).toBe(SMUGGLED);
    // Default llhttp refuses Content-Length beside Transfer-Encoding.
    expect(chain(VECTORS.http10TeCl, 'go-server', 'llhttp').verdict).toBe('back-rejects');
  });
  it('HTTP/1.0 with Transfer-Encoding alone: Go forwards the head, llhttp waits for chunks and takes the victim’s request for one', () => {
    const run = chain(VECTORS.http10Te, 'go', 'llhttp');
    expect(run.verdict).toBe('desync');
    expect(run.frontRequests.map((f) => f.startLine)).toEqual(['POST / HTTP/1.0']);
    expect(run.front.status).toBe('error');
    expect(run.back.status).toBe('partial');
    expect(run.desync?.victim.outcome).toBe('rejected');
    // The other way round, Go reads the chunk lines as a request and refuses them: no desync.
    expect(chain(VECTORS.http10Te, 'llhttp', 'go').verdict).toBe('back-rejects');
  });
  it('a back end that closes the connection after a request smuggles nothing it left unread', () => {
    // HTTP/1.0 without keep-alive: Go reads the head and closes; the chunks llhttp forwarded are never read.
    const preset = PRESETS.find((p) => p.id === 'te-in-http10')!;
    const run = runChain(preset.bytes, config('llhttp'), config('go'), 'raw');
    expect(run.back.status).toBe('complete');
    expect(run.back.consumed).toBeLessThan(run.upstream.length);
    expect(run.verdict).toBe('back-closes');
    // The other way round Go forwards the head alone and llhttp waits for chunks: the next request on the connection is read as one.
    expect(runChain(preset.bytes, config('go'), config('llhttp'), 'raw').verdict).toBe('desync');
  });
  it('a space before the colon of Transfer-Encoding: Go ReadRequest in front of llhttp insecure', () => {
    const preset = PRESETS.find((p) => p.id === 'te-space-before-colon')!;
    const run = runChain(preset.bytes, config('go'), config('llhttp-insecure'), 'raw');
    expect(run.verdict).toBe('desync');
    expect(run.desync?.hidden.map((h) => h.startLine)).toEqual(['GET /admin HTTP/1.1']);
    // Go's own server refuses the request instead.
    expect(runChain(preset.bytes, config('go-server'), config('llhttp-insecure'), 'raw').verdict).toBe('front-rejects');
    expect(runChain(preset.bytes, config('llhttp-insecure'), config('go-server'), 'raw').verdict).toBe('back-rejects');
  });
  it('Content-Length with a space before the colon: httpspan spaceBeforeColon in front of Go hides a request', () => {
    const run = chain(VECTORS.spaceBeforeColonCl, 'httpspan+spaceBeforeColon', 'go');
    expect(run.verdict).toBe('desync');
    expect(run.frontRequests.map((f) => f.startLine)).toEqual(['POST / HTTP/1.1']);
    expect(run.desync?.hidden.map((r) => r.startLine)).toEqual(['GET /admin HTTP/1.1']);
    expect(run.desync?.smuggledInClient).toEqual({ start: VECTORS.spaceBeforeColonCl.length - SMUGGLED.length, end: VECTORS.spaceBeforeColonCl.length });
    expect(run.desync?.victim.outcome).toBe('intact');
    // Strict httpspan in front refuses it: nothing is forwarded.
    expect(chain(VECTORS.spaceBeforeColonCl, 'httpspan', 'go').verdict).toBe('front-rejects');
  });
  it('a prefix left unfinished poisons the victim’s request', () => {
    const input = 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length : 23\r\n\r\nGET /admin HTTP/1.1\r\nX:';
    const run = chain(input, 'httpspan+spaceBeforeColon', 'go');
    expect(run.verdict).toBe('desync');
    expect(run.desync?.victim.outcome).toBe('poisoned');
    expect(run.desync?.victim.startLine).toBe('GET /admin HTTP/1.1');
  });
});

describe('hyper’s rules for Transfer-Encoding (httparse’s and picohttpparser’s framing)', () => {
  // hyper takes the last coding after the last comma of the last Transfer-Encoding line, and any
  // such line makes the request one with Transfer-Encoding: an empty value or a trailing comma is
  // not chunked, so hyper answers 400. Reading `chunked,` as chunked, or an empty value as no
  // Transfer-Encoding at all, made httparse pairs with llhttp insecure desync where hyper refuses.
  const body = '0\r\n\r\n' + SMUGGLED;
  const withTe = (value: string) => `POST / HTTP/1.1\r\nHost: h\r\nContent-Length: ${body.length}\r\nTransfer-Encoding:${value}\r\n\r\n` + body;
  for (const [what, value] of [
    ['a trailing comma', ' chunked, '],
    ['an empty value', ' '],
    ['no value at all', ''],
  ] as const) {
    it(`${what}: httparse and picohttpparser refuse it, and no pair desyncs`, () => {
      const input = bytes(withTe(value));
      for (const id of ['httparse', 'httparse-lenient', 'picohttpparser']) {
        const r = config(id).parse(input);
        expect(r.status, `${id} on ${JSON.stringify(value)}`).toBe('error');
        expect(r.error?.reason).toContain('Transfer-Encoding without chunked last');
      }
      for (const forwarding of ['raw', 'reserialize'] as const) {
        const grid = desyncGrid(input, configs, forwarding);
        expect(grid.cells.filter((c) => c.verdict === 'desync').map((c) => `${c.front.id}>${c.back.id}`), forwarding).toEqual([]);
      }
      expect(chain(withTe(value), 'httparse-lenient', 'llhttp-insecure').verdict).toBe('front-rejects');
    });
  }
  it('a lone LF in a chunk extension: hyper’s decoder refuses it, so no httparse pair desyncs on it', () => {
    // httparse::parse_chunk_size skips it as part of the extension; hyper reads chunked bodies with
    // its own decoder, which refuses it. Taking httparse's word made eight raw pairs desync on the
    // first input: llhttp insecure, picohttpparser and httpspan with bareLf in front of httparse.
    const te = 'POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n';
    for (const body of ['5;note\nhello\r\n0\r\n\r\n', '2;\nxx\r\n22\r\n0\r\n\r\n' + SMUGGLED]) {
      const input = bytes(te + body);
      for (const id of ['httparse', 'httparse-lenient']) {
        const r = config(id).parse(input);
        expect(r.status, id).toBe('error');
        expect(r.error).toMatchObject({ code: 'ChunkExtension', offset: te.length + body.indexOf('\n') });
      }
      const desyncs = desyncGrid(input, configs, 'raw').cells.filter((c) => c.verdict === 'desync');
      expect(desyncs.filter((c) => c.front.id.startsWith('httparse') || c.back.id.startsWith('httparse')).map((c) => `${c.front.id}>${c.back.id}`)).toEqual([]);
    }
    // An extension ended by CRLF is skipped as before.
    expect(config('httparse').parse(bytes(te + '5;note\r\nhello\r\n0\r\n\r\n')).messages[0].bodyLength).toBe(5);
  });
  it('a plain chunked last coding still wins over Content-Length', () => {
    const r = config('httparse').parse(bytes(withTe(' gzip, chunked')));
    expect(r.status).toBe('complete');
    expect(r.messages.map((m) => m.framing)).toEqual(['chunked', 'none']);
  });
});

describe('the verdict in words', () => {
  /** The count a sentence gives ('reads 2 requests', 'reads no whole request'), or null where it says none. */
  const countIn = (sentence: string): number | null => {
    const m = /reads (\d+|no whole|no) request/.exec(sentence);
    if (!m) return null;
    return /^\d+$/.test(m[1]) ? Number(m[1]) : 0;
  };
  it('counts, on every vector through every pair, the requests each side read to their end', () => {
    let checked = 0;
    for (const [id, input] of Object.entries(VECTORS)) {
      for (const front of configs) {
        for (const back of configs) {
          const run = runChain(bytes(input), front, back, 'raw');
          const [, frontLine, backLine] = run.summary;
          const pair = `${front.id}>${back.id} on ${id}`;
          expect(countIn(frontLine), `${pair}: ${frontLine}`).toBe(run.frontRequests.length);
          expect(countIn(backLine), `${pair}: ${backLine}`).toBe(run.backRequests.filter((r) => r.complete).length);
          // A count of one is singular, any other plural.
          expect(frontLine + backLine, pair).not.toMatch(/reads 1 requests|reads (0|[2-9]|\d\d+) request[^s]/);
          if (run.desync?.smuggled) {
            const length = run.desync.smuggled.end - run.desync.smuggled.start;
            expect(run.summary[0], pair).toContain(`The smuggled prefix is ${length} byte${length === 1 ? '' : 's'}: "`);
          }
          checked++;
        }
      }
    }
    expect(checked).toBe(Object.keys(VECTORS).length * 17 * 17);
  });
  it('does not count a request the back end rejected, or still waits for, as read', () => {
    // llhttp reads a 17-digit chunk size, Go refuses it inside the request: Go read no request.
    const chunk17 = 'POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000005\r\nhello\r\n0\r\n\r\n';
    const refused = chain(chunk17, 'llhttp', 'go');
    expect(refused.verdict).toBe('back-rejects');
    expect(refused.summary.slice(1)).toEqual([
      'The front end (llhttp) reads 1 request: "POST / HTTP/1.1".',
      'The back end (Go ReadRequest) reads no whole request: it rejects the upstream stream at byte 75 (error) inside "POST / HTTP/1.1".',
    ]);
    // Go forwards the HTTP/1.0 head alone; llhttp waits for the chunks.
    const waiting = chain(VECTORS.http10Te, 'go', 'llhttp');
    expect(waiting.summary[2]).toBe('The back end (llhttp) reads no whole request: it waits for the rest of "POST / HTTP/1.0".');
    // The poisoning prefix: Go reads the POST, then waits for the rest of the request the prefix began.
    const poisoned = chain('POST / HTTP/1.1\r\nHost: h\r\nContent-Length : 23\r\n\r\nGET /admin HTTP/1.1\r\nX:', 'httpspan+spaceBeforeColon', 'go');
    expect(poisoned.summary[2]).toBe('The back end (Go ReadRequest) reads 1 request: "POST / HTTP/1.1", then waits for the rest of a request it has begun.');
    expect(poisoned.summary[0]).toContain('The smuggled prefix is 23 bytes: "GET /admin HTTP/1.1\\r\\nX:".');
    expect(poisoned.desync?.victim.text).toContain('behind 23 bytes the attacker left');
    // A front end that refuses the input says it forwards nothing.
    expect(chain(VECTORS.spaceBeforeColonCl, 'httpspan', 'go').summary[0]).toBe('No desync: the front end rejects the input at byte 40 and forwards nothing.');
  });
  it('ends a request the back end refused at its error, short of the victim’s bytes', () => {
    // picohttpparser takes 0x5 as a last chunk and forwards the request; llhttp refuses the x at byte 74.
    const input = 'POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n';
    const run = chain(input, 'picohttpparser', 'llhttp');
    expect(run.verdict).toBe('back-rejects');
    const refusedAt = run.victimBack.error!.offset;
    expect(refusedAt).toBe(input.indexOf('0x5') + 1);
    expect(run.victimRequests.map((r) => [r.upstream.start, r.upstream.end, r.complete])).toEqual([[0, refusedAt, false]]);
    expect(run.victimRequests.some((r) => r.upstream.start <= run.upstream.length && run.upstream.length < r.upstream.end)).toBe(false);
    // While it waits instead, an unfinished request still runs to the end of what it was given.
    const waiting = chain(VECTORS.http10Te, 'go', 'llhttp');
    expect(waiting.victimBack.status).toBe('error');
    expect(waiting.backRequests.map((r) => [r.upstream.end, r.complete])).toEqual([[waiting.upstream.length, false]]);
  });
  it('cuts a long smuggled prefix with an ellipsis, and counts all of it', () => {
    const long = 'GET /admin HTTP/1.1\r\nHost: h\r\nX-Pad: ' + 'a'.repeat(100) + '\r\n\r\n';
    const run = chain(`POST / HTTP/1.1\r\nHost: h\r\nContent-Length : ${long.length}\r\n\r\n` + long, 'httpspan+spaceBeforeColon', 'go');
    expect(run.verdict).toBe('desync');
    expect(run.summary[0]).toMatch(new RegExp(`The smuggled prefix is ${long.length} bytes: "GET /admin[^"]*…"\\.$`));
  });
  it('says how many pairs desync with the verb agreeing', () => {
    const pairOf = (ids: string[]) => ids.map(config);
    // HTTP/1.0 with Transfer-Encoding alone desyncs Go in front of llhttp, not the other way round.
    expect(desyncCountText(desyncGrid(bytes(VECTORS.http10Te), pairOf(['go', 'llhttp']), 'raw'))).toBe('1 of 4 pairs desyncs.');
    // With Content-Length beside it, Go's server and llhttp insecure desync both ways.
    expect(desyncCountText(desyncGrid(bytes(VECTORS.http10TeCl), pairOf(['go-server', 'llhttp-insecure', 'httpspan']), 'raw'))).toBe('2 of 9 pairs desync.');
    expect(desyncCountText(desyncGrid(bytes(VECTORS.http10TeCl), pairOf(['httpspan']), 'raw'))).toBe('No pair desyncs on this input.');
  });
});

describe('re-serialization', () => {
  it('rebuilds a request from what the front end understood', () => {
    const r = config('httpspan').parse(bytes('POST /p HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, X-Drop\r\nX-Drop: 1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'));
    expect(text(reserialize(r.messages[0]))).toBe('POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc');
  });
  it('ends every desync of raw forwarding that framing alone made, for these inputs', () => {
    for (const input of [VECTORS.http10Te, VECTORS.http10TeCl, VECTORS.spaceBeforeColonTe, VECTORS.spaceBeforeColonCl]) {
      const grid = desyncGrid(bytes(input), configs, 'reserialize');
      expect(grid.cells.filter((c) => c.verdict === 'desync').map((c) => `${c.front.id}>${c.back.id}`)).toEqual([]);
    }
  });
  it('appends the victim after the forwarded stream', () => {
    const run = chain(VECTORS.spaceBeforeColonCl, 'httpspan+spaceBeforeColon', 'go');
    expect(run.desync?.victim.text).toContain('GET /account HTTP/1.1');
    expect(VICTIM_REQUEST.startsWith('GET /account')).toBe(true);
  });
});

/** Responses the other tests and the lab use, each with the methods of the requests they answer. */
const PWNED = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\npwned';
const OK5 = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n';
const RESPONSE_VECTORS: Record<string, [string, RequestMethods]> = {
  headThenGet: [OK5 + OK5 + 'hello', ['HEAD', 'GET']],
  interimThenHead: ['HTTP/1.1 100 Continue\r\n\r\n' + OK5 + OK5 + 'hello', ['HEAD', 'GET']],
  getThenHead: [OK5 + 'hello' + OK5 + PWNED, ['GET', 'HEAD', 'GET']],
  noBodyStatuses: ['HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n' + PWNED, 'GET'],
  chunked: ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n' + PWNED, 'GET'],
  clTe: ['HTTP/1.1 200 OK\r\nContent-Length: 48\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' + PWNED, 'GET'],
  teSpace: ['HTTP/1.1 200 OK\r\nContent-Length: 48\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n' + PWNED, 'GET'],
  untilClose: ['HTTP/1.1 200 OK\r\n\r\n' + PWNED, 'GET'],
};

/** A reading's complete responses: first byte, status line, body length. */
function responsesOf(r: PeerResult): string[] {
  return r.messages.filter((m) => m.complete).map((m) => `${m.offset}:${startLineOf(m)}:${m.bodyLength}`);
}

describe('the simulator frames responses as each parser’s compare-view column', () => {
  const inputs = (): [string, Uint8Array, RequestMethods][] => [
    ...PRESETS.filter((p) => p.options.mode === 'response').map((p): [string, Uint8Array, RequestMethods] => [p.id, p.bytes, p.options.requestMethod]),
    ...Object.entries(RESPONSE_VECTORS).map(([id, [t, methods]]): [string, Uint8Array, RequestMethods] => [id, bytes(t), methods]),
  ];
  it('on every response preset and vector, as the back end (which reads them first) and as the front end', () => {
    let checked = 0;
    for (const [id, input, methods] of inputs()) {
      const comparison = compare(input, 'response', methods, llhttp, { external });
      for (const c of configs) {
        const columnId = columnOf(c.id);
        if (columnId === undefined || !c.parseResponses) continue;
        const column = comparison.columns.find((col) => col.id === columnId)!;
        const run = runResponses(input, c, c, 'raw', null, methods);
        // The back end reads the origin's bytes: the responses it forwards are the column's complete ones.
        expect(run.frontRequests.map((f) => `${f.client.start}:${f.startLine}:${f.message.bodyLength}`), `${c.id} on ${id}`).toEqual(responsesOf(column.result));
        // The front end reading what it forwarded raw frames it alike.
        expect(pairVerdict(run.verdict, run.roles), `${c.id} behind itself on ${id}`).not.toBe('desync');
        expect(run.backRequests.filter((r) => r.complete).map((r) => r.startLine)).toEqual(run.frontRequests.map((f) => f.startLine));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });
});

describe('a response to HEAD, an interim 1xx, 204 and 304 have no body (RFC 9112 6.3)', () => {
  const readers = (): LabConfig[] => configs.filter((c) => c.parseResponses);
  const bodies = (r: PeerResult) => r.messages.filter((m) => m.complete).map((m) => `${m.status}:${m.bodyLength}`);
  it('every reader frames the k-th final response by the k-th request’s method', () => {
    expect(readers().length).toBe(16);
    for (const c of readers()) {
      const [headThenGet, methods] = RESPONSE_VECTORS.headThenGet;
      expect(bodies(c.parseResponses!(bytes(headThenGet), methods)), c.id).toEqual(['200:0', '200:5']);
      // Answering GET twice, the first response takes the second's head as its body: the methods matter.
      expect(bodies(c.parseResponses!(bytes(headThenGet), 'GET')), c.id).not.toEqual(['200:0', '200:5']);
      const [getThenHead, later] = RESPONSE_VECTORS.getThenHead;
      expect(bodies(c.parseResponses!(bytes(getThenHead), later)), c.id).toEqual(['200:5', '200:0', '200:5']);
    }
  });
  it('an interim 1xx answers no request: the final response after it answers the HEAD', () => {
    for (const c of readers()) {
      const [input, methods] = RESPONSE_VECTORS.interimThenHead;
      expect(bodies(c.parseResponses!(bytes(input), methods)), c.id).toEqual(['100:0', '200:0', '200:5']);
    }
  });
  it('204 and 304 have no body whatever Content-Length says, whatever the method', () => {
    const [input] = RESPONSE_VECTORS.noBodyStatuses;
    for (const c of readers()) {
      const r = c.parseResponses!(bytes(input), 'GET');
      expect(r.status, c.id).toBe('complete');
      expect(bodies(r), c.id).toEqual(['204:0', '304:0', '200:5']);
    }
  });
  it('on the pair page each side matches the origin’s responses to the requests it read', () => {
    const requests = 'HEAD /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n';
    const [responses] = RESPONSE_VECTORS.headThenGet;
    for (const front of readers()) {
      for (const back of readers()) {
        const requestRun = runChain(bytes(requests), front, back, 'raw');
        const run = runResponses(bytes(responses), front, back, 'raw', requestRun);
        const pair = `${front.id}>${back.id}`;
        if (requestRun.verdict !== 'agree') continue;
        expect(run.frontRequests.map((f) => f.message.bodyLength), pair).toEqual([0, 5]);
        expect(pairVerdict(run.verdict, run.roles), pair).toBe('agree');
      }
    }
    // Without the requests every response answers a GET: the HEAD's answer swallows the next head.
    const blind = runResponses(bytes(responses), config('go'), config('llhttp'), 'raw');
    expect(blind.frontRequests.map((f) => f.message.bodyLength)).not.toEqual([0, 5]);
  });
  it('a HEAD smuggled past the front end: the back end answers it without a body, the front end takes its Content-Length for the next client', () => {
    const hidden = 'HEAD /static HTTP/1.1\r\nHost: h\r\n\r\n';
    const requests = `POST / HTTP/1.1\r\nHost: h\r\nContent-Length : ${hidden.length}\r\n\r\n` + hidden;
    const redirect = 'HTTP/1.1 302 Found\r\nLocation: https://evil.example/\r\nContent-Length: 0\r\n\r\n';
    const responses = 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n' + `HTTP/1.1 200 OK\r\nContent-Length: ${redirect.length}\r\n\r\n` + redirect;
    const front = config('httpspan+spaceBeforeColon');
    const back = config('go');
    const requestRun = runChain(bytes(requests), front, back, 'raw');
    expect(requestRun.verdict).toBe('desync');
    expect(requestRun.backRequests.map((r) => r.startLine)).toEqual(['POST / HTTP/1.1', 'HEAD /static HTTP/1.1']);
    const run = runResponses(bytes(responses), front, back, 'raw', requestRun);
    // Go answers POST and HEAD: the HEAD's response has no body, and the redirect is a third response.
    expect(run.frontRequests.map((f) => [f.startLine, f.message.bodyLength])).toEqual([
      ['HTTP/1.1 200', 0],
      ['HTTP/1.1 200', 0],
      ['HTTP/1.1 302', 0],
    ]);
    // httpspan forwarded one POST, so it takes the second response for the next client's GET and reads the redirect as its body.
    expect(run.victimRequests.map((r) => [r.startLine, r.message.bodyLength])).toEqual([
      ['HTTP/1.1 200', 0],
      ['HTTP/1.1 200', redirect.length],
      ['HTTP/1.1 200', 18],
    ]);
    expect(pairVerdict(run.verdict, run.roles)).toBe('desync');
    expect(run.desync?.victim.outcome).toBe('poisoned');
    expect(run.desync?.victim.text).toContain("answered with the front end's response 2");
    expect(run.summary.at(-1)).toBe(
      "Matched in order: the back end takes the responses as answers to the requests it read (POST, HEAD), the front end to the ones it forwarded (POST) and then the next client's GET; any response past those answers a GET.",
    );
    // The same responses taken as answers to GETs, or to the methods both read, desync nothing.
    expect(runResponses(bytes(responses), front, back, 'raw').verdict).toBe('agree');
    expect(runResponses(bytes(responses), front, back, 'raw', null, ['POST', 'HEAD', 'GET']).verdict).toBe('agree');
    // Re-serialized, the POST reaches Go with its body: both read one request, and the responses agree.
    const rebuilt = runChain(bytes(requests), front, back, 'reserialize');
    expect(rebuilt.verdict).toBe('agree');
    expect(runResponses(bytes(responses), front, back, 'reserialize', rebuilt).verdict).toBe('agree');
  });
});

describe('the response presets through every pair, as observed', () => {
  const desyncs = (id: string, forwarding: Forwarding): string[] => {
    const p = PRESETS.find((x) => x.id === id)!;
    expect(p.options.mode).toBe('response');
    const grid = desyncGrid(p.bytes, configs, forwarding, 'response', p.options.requestMethod);
    expect(grid.configs.map((c) => c.id)).not.toContain('go-server');
    expect(grid.cells.length).toBe(16 * 16);
    return grid.cells.filter((c) => c.verdict === 'desync').map((c) => `${c.front.id}>${c.back.id}`);
  };
  it('raw: a space before the colon and HTTP/1.0 with Transfer-Encoding desync Go with llhttp; the rest nothing', () => {
    expect(desyncs('response-te-space-before-colon', 'raw')).toEqual(['llhttp-insecure>go', 'httparse-lenient>go', 'go>llhttp-insecure', 'go>httparse-lenient']);
    expect(desyncs('response-te-in-http10', 'raw')).toEqual(['llhttp>go', 'llhttp-insecure>go', 'go>llhttp', 'go>llhttp-insecure']);
    for (const id of ['response-cl-te', 'response-duplicate-content-length', 'response-head-content-length']) expect(desyncs(id, 'raw'), id).toEqual([]);
  });
  it('re-serialized: none', () => {
    for (const p of PRESETS.filter((x) => x.group === 'Response smuggling')) expect(desyncs(p.id, 'reserialize'), p.id).toEqual([]);
  });
  it('Go in the back reads the space-before-colon response as one, llhttp insecure in front as two: the next client gets "pwned"', () => {
    const p = PRESETS.find((x) => x.id === 'response-te-space-before-colon')!;
    const run = runResponses(p.bytes, config('llhttp-insecure'), config('go'), 'raw');
    expect(run.frontRequests.map((f) => f.message.bodyLength)).toEqual([48]);
    expect(run.backRequests.map((r) => r.message.bodyLength)).toEqual([0, 5]);
    expect(run.desync?.victim.outcome).toBe('poisoned');
    expect(new TextDecoder().decode(run.desync!.hidden[0].message.body)).toBe('pwned');
  });
});

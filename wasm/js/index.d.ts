// Types of @httpspan/wasm. Every offset and length counts bytes of the input `Uint8Array` (not
// UTF-16 code units of a string); strings are decoded one character per byte (Latin-1), so a
// decoded string is exactly as long as its span.
//
// No library is required beyond ES2022, and the types add nothing to the global scope: the few
// platform types the API names (Headers, Request, Response, URL, ReadableStream,
// WebAssembly.Module) are read from the global `fetch` and `WebAssembly` when the project's
// libraries (DOM, @cloudflare/workers-types, @types/node) declare them (a library's
// `declare class` is not a property of `globalThis`, its functions are); without them, what the
// API returns of these types is `unknown` and what it takes of them is `never`.

/** The platform's `Response`: what its `fetch` resolves to, or unknown when no library declares `fetch`. */
export type FetchResponse = typeof globalThis extends { fetch: (...args: any) => Promise<infer R> } ? R : unknown;

/** What the platform's `fetch` takes as its first argument (`Request | string | URL`), or never. */
type FetchInput = typeof globalThis extends { fetch: (input: infer I, ...rest: any) => any } ? I : never;

/** The platform's `Request` (DOM, Workers, Node), or unknown when no library declares one. */
export type FetchRequest = [Extract<FetchInput, { method: string }>] extends [never] ? unknown : Extract<FetchInput, { method: string }>;

/** What the platform's `Response` constructor takes as a body (its `BodyInit`, or null). */
export type FetchBody = typeof globalThis extends { Response: { new (body?: infer B, init?: any): unknown } } ? B : unknown;

/** The platform's `Headers`, or unknown when no library declares one. */
export type FetchHeaders = FetchResponse extends { headers: infer H } ? H : unknown;

/** The platform's `ReadableStream<Uint8Array>` (a `Response`'s body), or unknown when no library declares one. */
export type ByteStream = FetchResponse extends { body: infer B } ? NonNullable<B> : unknown;

/** The platform's `URL`, which `init` and `base` accept when a library declares it. */
export type PlatformURL = Extract<FetchInput, { searchParams: unknown }>;

/** The instance type of a global class a library declares with `var` (the DOM's way), else unknown. */
type GlobalPrototype<Name extends string> = typeof globalThis extends { [K in Name]: { prototype: infer T } } ? T : unknown;

/** `T` where a library declares it, never where it is unknown: a parameter takes no such value then. */
type Declared<T> = unknown extends T ? never : T;

/** A compiled `WebAssembly.Module`, when a library declares the `WebAssembly` namespace. */
export type CompiledModule = typeof globalThis extends { WebAssembly: { Module: { prototype: infer M } } } ? M : never;

/** A part of the input: `bytes.subarray(offset, offset + length)`. */
export interface Span {
  /** Byte offset of the first byte. */
  offset: number;
  /** Number of bytes. */
  length: number;
}

/** The known header names, lowercase, in bitmap order (`KNOWN_HEADERS`). */
export type KnownHeaderName =
  | 'host' | 'content-length' | 'transfer-encoding' | 'connection' | 'content-type' | 'user-agent'
  | 'accept' | 'accept-encoding' | 'accept-language' | 'cookie' | 'authorization' | 'referer'
  | 'origin' | 'cache-control' | 'pragma' | 'if-modified-since' | 'if-none-match' | 'if-match'
  | 'range' | 'upgrade' | 'expect' | 'te' | 'trailer' | 'x-forwarded-for' | 'x-forwarded-proto'
  | 'x-forwarded-host' | 'x-request-id' | 'forwarded' | 'via' | 'dnt' | 'sec-fetch-mode'
  | 'sec-fetch-site' | 'sec-fetch-dest' | 'upgrade-insecure-requests' | 'traceparent'
  | 'keep-alive' | 'proxy-authorization' | 'sec-websocket-key' | 'sec-websocket-version'
  | 'sec-websocket-accept' | 'date' | 'server' | 'location' | 'set-cookie' | 'content-encoding'
  | 'etag' | 'last-modified' | 'expires' | 'vary' | 'age' | 'accept-ranges' | 'content-range'
  | 'access-control-allow-origin' | 'strict-transport-security' | 'x-content-type-options'
  | 'www-authenticate';
/**
 * One field line of a head or trailer section. The properties are getters: the strings and
 * spans are made when read; `toJSON()` gives a plain copy.
 */
export interface Field {
  /** The name, as sent. */
  readonly name: string;
  /** The value, without leading and trailing SP and HTAB. */
  readonly value: string;
  readonly nameSpan: Span;
  readonly valueSpan: Span;
  /** The canonical lowercase name when the name is a known header, else null. */
  readonly known: KnownHeaderName | null;
  /** The field as plain data. */
  toJSON(): PlainField;
}

/** A `Field` as plain data, from `toJSON()` or a head's `toObject()`. */
export interface PlainField {
  name: string;
  value: string;
  nameSpan: Span;
  valueSpan: Span;
  known: KnownHeaderName | null;
}

/** How the body is delimited (RFC 9112 6.3). */
export type Framing = 'none' | 'length' | 'chunked' | 'until-close';

/** What every view and head has, whatever its state. */
interface ViewBase {
  /** The span words (see the layout in the README). In the module's memory for a fast-path view without `out`. */
  readonly spans: Uint32Array;
  /** The bytes that were parsed, which the spans index. */
  readonly bytes: Uint8Array;
}

/** A fast-path view of a parse that found the head incomplete: read more and parse again. */
export interface PartialView extends ViewBase {
  readonly state: 'partial';
  readonly headLen: 0;
  readonly error: null;
  /** `{ state: 'partial' }`, as parseRequest returns it. */
  toResult(): PartialResult;
}

/** A fast-path view of a parse that found the input invalid. */
export interface FailedView extends ViewBase {
  readonly state: 'error';
  readonly headLen: 0;
  readonly error: ParseError;
  /** `{ state: 'error', error }`, as parseRequest returns it. */
  toResult(): FailedResult;
}

/** The accessors of a complete head, view or owned head alike. */
interface CompleteAccessors extends ViewBase {
  readonly state: 'complete';
  /** Bytes of the head, including empty lines skipped before a request-line and the final CRLF; the body starts here. */
  readonly headLen: number;
  readonly error: null;
  readonly version: 'HTTP/1.0' | 'HTTP/1.1';
  /** The number of field lines. */
  readonly fieldCount: number;
  /** The name of field i, as sent. */
  fieldName(i: number): string;
  /** The value of field i, trimmed. */
  fieldValue(i: number): string;
  /** The span of field i's name (part 0) or value (part 1). */
  fieldSpan(i: number, part: 0 | 1): Span;
  /** The span word of field i's name (part 0) or value (part 1): offset | length << 16. */
  fieldWord(i: number, part: 0 | 1): number;
  /** The canonical lowercase name of field i when it is a known header, else null. */
  fieldKnown(i: number): KnownHeaderName | null;
  /** Index of the first field named `name` (any case), or -1. O(1) for known headers. */
  indexOf(name: string): number;
  /** The value of the first field named `name` (any case), or undefined. */
  get(name: string): string | undefined;
  /** The values of every field named `name` (any case), in order; empty when there is none. */
  getAll(name: string): string[];
  /** The values of every Set-Cookie line, in order, never joined. */
  getSetCookie(): string[];
  /** The value span of the first field named `name`, or undefined. */
  getSpan(name: string): Span | undefined;
  /** Bit k is set when `KNOWN_HEADERS[k]` is present. */
  readonly knownBitmap: bigint;
  /** The declared Content-Length (exact up to 2^63 - 1), or null. */
  readonly contentLength: bigint | null;
  /** Whether the body is chunked. */
  readonly chunked: boolean;
  /** Whether the connection stays open after this message (RFC 9112 9.3). */
  readonly keepAlive: boolean;
  readonly framing: Framing;
  /** The text of a span word (offset | length << 16). */
  text(word: number): string;
  /** The span words. */
  words(): Uint32Array;
}

/** A complete request head read through the fast path's accessors. */
export interface CompleteRequestView extends CompleteAccessors {
  /** The method, case-sensitive, as sent. */
  readonly method: string;
  readonly methodSpan: Span;
  /** The request-target, as sent (no decoding). */
  readonly target: string;
  readonly targetSpan: Span;
  /** The object parseRequest returns, with its own copy of the words (and of the bytes, when parsed in place). */
  toResult(): RequestHead;
}

/** A complete response head read through the fast path's accessors. */
export interface CompleteResponseView extends CompleteAccessors {
  /** The status code, 100 to 599. */
  readonly status: number;
  /** The reason phrase, as sent; may be empty. */
  readonly reason: string;
  readonly reasonSpan: Span;
  /** An interim 1xx response other than 101: the final response follows. */
  readonly interim: boolean;
  /** A 101, or a 2xx answer to CONNECT: the connection no longer carries HTTP/1.1. */
  readonly switchesProtocols: boolean;
  /** The object parseResponse returns, with its own copy of the words (and of the bytes, when parsed in place). */
  toResult(): ResponseHead;
}

/**
 * What a request parser's `parse` returns: a view whose `state` tells which members it has.
 * A view without `out` reads the span words in place: it is valid until the next parse on its
 * parser, after which every accessor throws a `StaleViewError` (never another parse's data).
 */
export type RequestView = CompleteRequestView | PartialView | FailedView;
/** What a response parser's `parse` returns (see RequestView). */
export type ResponseView = CompleteResponseView | PartialView | FailedView;

/** The class of every request view and head, for `instanceof`; only the parsers make them. */
export declare const RequestSpans: abstract new () => RequestView;
export type RequestSpans = RequestView;
/** The class of every response view and head, for `instanceof`; only the parsers make them. */
export declare const ResponseSpans: abstract new () => ResponseView;
export type ResponseSpans = ResponseView;

/** Every property of a complete request head as plain data, from `toObject()`. */
export interface PlainRequestHead {
  state: 'complete';
  headLen: number;
  version: 'HTTP/1.0' | 'HTTP/1.1';
  fields: PlainField[];
  knownBitmap: bigint;
  knownIndex: Partial<Record<KnownHeaderName, number>>;
  contentLength: bigint | null;
  chunked: boolean;
  keepAlive: boolean;
  framing: Framing;
  method: string;
  methodSpan: Span;
  target: string;
  targetSpan: Span;
}

/** Every property of a complete response head as plain data, from `toObject()`. */
export interface PlainResponseHead extends Omit<PlainRequestHead, 'method' | 'methodSpan' | 'target' | 'targetSpan'> {
  status: number;
  reason: string;
  reasonSpan: Span;
  interim: boolean;
  switchesProtocols: boolean;
}

/** `toObject()` with the bigints as decimal strings, as `toJSON()` gives it (JSON has no bigint). */
export type HeadJSON<P> = Omit<P, 'knownBitmap' | 'contentLength'> & { knownBitmap: string; contentLength: string | null };

/**
 * A complete request head of the object API. Its properties are getters over its own copy of
 * the span words: strings are decoded from the input bytes when first read (so do not change
 * those bytes before reading them). Spreading a head (`{ ...head }`) or cloning it
 * (`structuredClone`, `postMessage`) copies none of its properties, although TypeScript types
 * a spread as if it did: use `toObject()`, which is plain, cloneable data.
 */
export interface RequestHead extends CompleteRequestView {
  /** The field lines, in order. */
  readonly fields: Field[];
  /** For each known header present: the index in `fields` of its first line. */
  readonly knownIndex: Partial<Record<KnownHeaderName, number>>;
  /** Every property decoded, as a plain object with own data properties. */
  toObject(): PlainRequestHead;
  toJSON(): HeadJSON<PlainRequestHead>;
}

/** A complete response head of the object API (getters, as RequestHead). */
export interface ResponseHead extends CompleteResponseView {
  readonly fields: Field[];
  readonly knownIndex: Partial<Record<KnownHeaderName, number>>;
  toObject(): PlainResponseHead;
  toJSON(): HeadJSON<PlainResponseHead>;
}

/** The input ends before the head does: read more and parse again. */
export interface PartialResult {
  state: 'partial';
}

/** The input is invalid. */
export interface FailedResult {
  state: 'error';
  error: ParseError;
}

export type RequestResult = RequestHead | PartialResult | FailedResult;
export type ResponseResult = ResponseHead | PartialResult | FailedResult;

/** The stable error codes (ErrorKind::code in the Rust crate). */
export type ErrorCode =
  | 'bare_lf' | 'bare_cr' | 'nul' | 'too_many_empty_lines' | 'whitespace_before_first_field'
  | 'obs_fold' | 'invalid_method' | 'invalid_request_line' | 'invalid_target'
  | 'invalid_percent_encoding' | 'fragment_in_target' | 'asterisk_form_not_options'
  | 'authority_form_not_connect' | 'connect_not_authority_form' | 'userinfo_in_target'
  | 'invalid_version' | 'unsupported_version' | 'invalid_status_line' | 'invalid_status_code'
  | 'invalid_reason' | 'empty_line_before_status_line' | 'invalid_field_name'
  | 'whitespace_before_colon' | 'missing_colon' | 'invalid_field_value' | 'missing_host'
  | 'duplicate_host' | 'invalid_host' | 'invalid_content_length' | 'duplicate_content_length'
  | 'content_length_too_large' | 'content_length_with_transfer_encoding'
  | 'transfer_encoding_in_http10' | 'invalid_transfer_encoding' | 'chunked_not_last'
  | 'chunked_twice' | 'invalid_connection' | 'target_too_long' | 'head_too_large'
  | 'too_many_fields' | 'invalid_chunk_size' | 'chunk_size_too_long'
  | 'invalid_chunk_extension' | 'chunk_extension_too_long' | 'chunk_extensions_too_large'
  | 'missing_chunk_crlf'
  | 'trailers_too_large' | 'body_too_large';

/** Why and where the input is invalid. */
export class ParseError extends Error {
  name: 'ParseError';
  /** Stable snake_case code. */
  code: ErrorCode;
  /** A short lowercase description. */
  message: string;
  /** Byte offset where the input became invalid: into the bytes given to parse, or from the start of a Decoder's stream. */
  offset: number;
  /** The RFC section whose rule the input broke, such as 'RFC 9112 5.1'. */
  rfc: string;
  /**
   * The status to answer: for a request, what a server answers (400, 413, 414, 431 or 505);
   * for a response, 502 (Bad Gateway), what a proxy answers for an invalid upstream response.
   */
  status: 400 | 413 | 414 | 431 | 505 | 502;
  toJSON(): { code: ErrorCode; message: string; offset: number; rfc: string; status: 400 | 413 | 414 | 431 | 505 | 502 };
}

/** Limits; every one is inclusive and has the conformance policy's default when left out. */
export interface Limits {
  /** Bytes of a head, 1 to 65535. Default 8192. */
  maxHeadBytes?: number;
  /** Field lines in a head or a trailer section, 0 to 255 (the field slots every parser has; more is a RangeError). Default 64. */
  maxFieldLines?: number;
  /** Bytes of one chunk extension. Default 65536. */
  maxChunkExtBytes?: number;
  /** Bytes of chunk extensions over all the chunk lines of one body. Default 262144. */
  maxBodyChunkExtBytes?: number;
  /** Bytes of a trailer section (at most 65536 are honoured). Default 65536. */
  maxTrailerBytes?: number;
  /** Bytes of one body after chunked decoding (Decoder only), or null for no limit (the default). */
  maxBodyBytes?: number | null;
  /**
   * Leniency flags (httpspan::Leniency), each false by default; each relaxes one rule of the
   * strict policy and brings a smuggling risk. An unknown flag throws.
   */
  lenient?: Leniency;
}

/** Leniency flags; each relaxes one rule of the strict policy. */
export interface Leniency {
  /** A bare LF ends a line as CRLF does (RFC 9112 2.2). */
  bareLf?: boolean;
  /** An obs-fold continues a field value; values keep the raw fold bytes (RFC 9112 5.2). */
  obsFold?: boolean;
  /** Whitespace between a field name and its colon (RFC 9112 5.1). */
  spaceBeforeColon?: boolean;
  /** More than one SP between the parts of a request-line or status-line (RFC 9112 3, 4). */
  requestLineSpaces?: boolean;
  /** An HTTP/1.1 request without Host (RFC 9112 3.2). */
  missingHost?: boolean;
  /** Several identical Content-Length values count as one (RFC 9112 6.3). */
  duplicateContentLength?: boolean;
  /** HTTP/1.2 to HTTP/1.9 are read as HTTP/1.1 (RFC 9110 2.5). */
  unknownVersion?: boolean;
  /**
   * A request-target may hold `"`, `<`, `>`, `\`, `^`, backtick, `{`, `|`, `}` and a `%` not
   * followed by two hex digits, which some clients send unescaped (RFC 9112 3.2, RFC 3986 2).
   */
  targetUnsafeBytes?: boolean;
}

export interface RequestOptions extends Limits {}

/** The request a response answers. */
export interface AnswersRequest {
  /** The method of the request this response answers: HEAD and CONNECT change the framing. */
  requestMethod: string;
}

export interface ResponseOptions extends Limits, AnswersRequest {}

export interface DecoderOptions extends Limits {
  /** Response streams: the methods of the requests sent, in order (see `queueRequestMethod`); request streams ignore it. */
  requestMethods?: string[];
  /** Report each line of a chunked body as a 'chunk-line' event (default false). */
  chunkLines?: boolean;
}

/** Parses the request head at the start of `bytes`. Bytes after the head (a body) are ignored. */
export function parseRequest(bytes: Uint8Array, options?: RequestOptions): RequestResult;

/** Parses the response head at the start of `bytes`, answering a `requestMethod` request. */
export function parseResponse(bytes: Uint8Array, options: ResponseOptions): ResponseResult;

/** Words a span array needs (for the `out` argument of the fast path). */
export const SPANS_LENGTH: number;

/** The known header names, lowercase, in bitmap order. */
export const KNOWN_HEADERS: readonly KnownHeaderName[];

/**
 * Thrown instead of a stale answer when a view is used after what it reads changed under it:
 * 'reparsed' (its parser has parsed again; keep a parse with `toResult()`, or use one parser
 * per request when handlers await), 'memory-grew' (the module's memory grew and detached the
 * view) or 'input-moved' (a larger copying parse or push moved the input region).
 */
export class StaleViewError extends Error {
  name: 'StaleViewError';
  reason: 'reparsed' | 'memory-grew' | 'input-moved';
}

/** The fast path for requests: one reusable parser, spans in one Uint32Array. */
export class RequestParser {
  constructor(options?: RequestOptions);
  /** The span words of the last parse that was not given `out`, in place in the module's memory; the next such parse overwrites them, and a grown memory detaches the array (read `spans` again). */
  readonly spans: Uint32Array;
  /**
   * Parses the head at the start of `bytes` (copied into the module) from scratch. Without
   * `out`, the view reads the words in place (valid until the next parse on this parser); with
   * `out` (at least SPANS_LENGTH long), the words are copied there and the view keeps them.
   */
  parse(bytes: Uint8Array, out?: Uint32Array): RequestView;
  /**
   * A writable view of `capacity` bytes (at most 65 544, all a head can use) of the parser's
   * input region in the module's memory: write the input there (a socket can read into it) and
   * call `parseInput(length)`. Valid until the module's memory grows or a larger `parse(bytes)`
   * moves the region; `parseInput` then throws a StaleViewError.
   */
  input(capacity: number): Uint8Array;
  /** Parses the first `length` bytes of the `input()` view where they are, without copying; `bytes` of the result is a view of them, valid until the next parse. */
  parseInput(length: number, out?: Uint32Array): RequestView;
  /** Releases the module memory this parser holds. */
  free(): void;
}

/** The fast path for responses. */
export class ResponseParser {
  constructor(options?: Limits);
  readonly spans: Uint32Array;
  /** Parses the head at the start of `bytes`, answering a `options.requestMethod` request; see RequestParser.parse. */
  parse(bytes: Uint8Array, options: AnswersRequest, out?: Uint32Array): ResponseView;
  /** @deprecated Pass `{ requestMethod }`, as parseResponse takes it. */
  parse(bytes: Uint8Array, requestMethod: string, out?: Uint32Array): ResponseView;
  /** See RequestParser.input. */
  input(capacity: number): Uint8Array;
  /** Parses the first `length` bytes of the `input()` view where they are, answering a `options.requestMethod` request. */
  parseInput(length: number, options: AnswersRequest, out?: Uint32Array): ResponseView;
  /** @deprecated Pass `{ requestMethod }`, as parseResponse takes it. */
  parseInput(length: number, requestMethod: string, out?: Uint32Array): ResponseView;
  free(): void;
}

/** The head bytes are a copy; its spans index `bytes`, and `offset` is where it starts in the stream. */
export interface HeadEvent<H> {
  type: 'head';
  /** Stream offset of the head's first byte. */
  offset: number;
  head: H;
  /** A copy of the head's bytes, which the head's spans index. */
  bytes: Uint8Array;
}

/**
 * Body data after chunked decoding: a range of the chunk given to `push`, not a copy; after
 * `pushInput`, a range of the `input()` view, valid until the next `input()` or `push()`.
 */
export interface BodyEvent {
  type: 'body';
  /** `chunk.subarray(start, end)`. */
  data: Uint8Array;
  start: number;
  end: number;
  /** Stream offset of the first data byte. */
  offset: number;
}

export interface TrailersEvent {
  type: 'trailers';
  /** Stream offset of the trailer section. */
  offset: number;
  fields: Field[];
  knownIndex: Partial<Record<KnownHeaderName, number>>;
  /** A copy of the trailer section's bytes, which the field spans index. */
  bytes: Uint8Array;
}

/**
 * With the `chunkLines` option only: a line of a chunked body, `chunk-size [ chunk-ext ] CRLF`
 * (the last chunk's `0` line too), was consumed. All offsets are stream offsets: the hex digits
 * are `offset` to `sizeEnd`, the chunk-ext (empty without one) `sizeEnd` to `extEnd`, the line
 * end (CRLF, or a bare LF under `lenient.bareLf`) `extEnd` to `end`. The chunk's data starts at
 * `end`; the line end after the data runs from the data's end to the next line's `offset`.
 */
export interface ChunkLineEvent {
  type: 'chunk-line';
  /** Stream offset of the line's first byte (the first hex digit). */
  offset: number;
  /** One past the last hex digit of the chunk-size. */
  sizeEnd: number;
  /** One past the chunk-ext: `sizeEnd` when there is none. */
  extEnd: number;
  /** One past the line's LF. */
  end: number;
  /** The chunk-size: a bigint, since up to 16 hex digits exceed Number.MAX_SAFE_INTEGER; 0n for the last chunk. */
  size: bigint;
}

export type DecoderEvent<H> =
  | HeadEvent<H>
  | BodyEvent
  | TrailersEvent
  | ChunkLineEvent
  /** The message is complete; it ends at stream offset `offset` (one past its last byte). */
  | { type: 'end'; offset: number }
  /** Nothing more is read: the connection closes, switched protocols, or the stream ended cleanly. Bytes from `offset` on are the caller's. */
  | { type: 'closed'; offset: number }
  /** From finish(): the stream ended inside a message. */
  | { type: 'incomplete' }
  /** The stream is invalid at `error.offset` (a stream offset); nothing after it is read. */
  | { type: 'error'; error: ParseError };

/** A connection's stream of requests or responses: pipelined, chunked, in pieces of any size. */
export class Decoder<K extends 'request' | 'response' = 'request' | 'response'> {
  constructor(kind: K, options?: DecoderOptions);
  /** Response streams: the method of a request sent on this connection; final responses are matched to these in order (GET when none is queued). Request streams ignore it. */
  queueRequestMethod(method: string): void;
  /** Bytes of the stream consumed so far. */
  readonly position: number;
  /**
   * Stream offset where decoding resumes: inside a head or a trailer section, the first byte of
   * its first line not yet accepted (bytes after it are held and read once the line is complete);
   * elsewhere `position`.
   */
  readonly resumeOffset: number;
  /** Decodes a piece (copied into the module) and returns the events it completes. */
  push(chunk: Uint8Array): DecoderEvent<K extends 'request' ? RequestHead : ResponseHead>[];
  /**
   * A writable view of `capacity` bytes of the decoder's input region in the module's memory:
   * write the next piece there (a Node socket's `onread.buffer` can return it) and call
   * `pushInput(length)`. Valid until the module's memory grows or a larger `push` moves the
   * region; `pushInput` then throws a StaleViewError.
   */
  input(capacity: number): Uint8Array;
  /** Decodes the first `length` bytes of the `input()` view where they are; body data are views of it. */
  pushInput(length: number): DecoderEvent<K extends 'request' ? RequestHead : ResponseHead>[];
  /**
   * The stream has ended: returns the last events ('end', then 'closed' or 'incomplete', or 'error').
   * After `push` returned 'closed' or 'error', it returns that event again, as every later `push` does.
   */
  finish(): DecoderEvent<K extends 'request' ? RequestHead : ResponseHead>[];
  free(): void;
}

/** One message of `decodeStream`. */
export interface DecodedMessage<H> {
  head: H;
  /** Stream offset of the head's first byte. */
  offset: number;
  /**
   * The decoded body (chunked framing removed), read from the source as it is read: each chunk
   * is a view of a source chunk, not a copy. Null when the head declares no body.
   */
  body: ByteStream | null;
  /** The trailer fields (empty without a trailer section), once the body has been read or skipped. */
  trailers: Promise<Field[]>;
}

/** The messages of a stream, in order. */
export interface MessageStream<H> extends AsyncIterableIterator<DecodedMessage<H>> {
  /** Stops reading and cancels the source. */
  return(): Promise<IteratorReturnResult<undefined>>;
}

/** The messages of a response stream; see Decoder.queueRequestMethod. */
export interface ResponseStream extends MessageStream<ResponseHead> {
  queueRequestMethod(method: string): void;
}

/** What decodeStream reads: a ReadableStream (a Worker's request.body, a socket's readable, Readable.toWeb) or any async iterable of bytes (a Node stream). */
export type ByteSource = Declared<GlobalPrototype<'ReadableStream'>> | Declared<ByteStream> | AsyncIterable<Uint8Array>;

/**
 * A connection's byte stream as its messages, pipelined, chunked or not, with trailers. The
 * source is read only as messages and body chunks are asked for (backpressure). Asking for the
 * next message skips what is left of the previous body (a reader still on it gets an error). An
 * invalid stream rejects the iteration, and errors the body being read, with the ParseError.
 */
export function decodeStream(source: ByteSource, options?: Omit<DecoderOptions, 'chunkLines'> & { kind?: 'request' }): MessageStream<RequestHead>;
export function decodeStream(source: ByteSource, options: Omit<DecoderOptions, 'chunkLines'> & { kind: 'response' }): ResponseStream;

/** The stream ended inside a message (a head, a body or a trailer section). */
export class IncompleteMessageError extends Error {
  name: 'IncompleteMessageError';
}

/** A complete head of either kind: what the conversions take. */
export type CompleteHead = CompleteRequestView | CompleteResponseView;

/** The rules of the Fetch standard a message can break; see toRequest and toResponse. */
export type FetchConversionCode =
  | 'forbidden_method' | 'asterisk_form' | 'authority_form' | 'no_base' | 'invalid_url'
  | 'credentials_in_url' | 'body_not_allowed' | 'interim_status';

/** A parsed message the Fetch standard cannot represent; `code` names the rule. */
export class FetchConversionError extends Error {
  name: 'FetchConversionError';
  code: FetchConversionCode;
}

export interface HopByHopOption {
  /** Leave out the hop-by-hop fields (Connection, Keep-Alive, Proxy-Connection, TE, Transfer-Encoding, Upgrade) and those Connection names. */
  dropHopByHop?: boolean;
}

export interface ToRequestOptions extends HopByHopOption {
  /** The scheme, host and port of an origin-form target's URL (only its origin is used); default `http://` and the Host field. */
  base?: string | PlatformURL;
}

/** The field lines as a `Headers`, in order, repeats appended; hop-by-hop fields kept unless `dropHopByHop`. */
export function toHeaders(head: CompleteHead, options?: HopByHopOption): FetchHeaders;

/** Node's `IncomingMessage.headers`: lowercase names, `set-cookie` an array, `cookie` joined with '; ', repeats of the rest joined with ', ' (the first kept for the fields Node keeps once). No prototype. */
export function toNodeHeaders(head: CompleteHead): { 'set-cookie'?: string[] } & { [name: string]: string | string[] | undefined };

/**
 * A `Request` for a complete request head and its body. Throws a FetchConversionError for
 * CONNECT, TRACE and TRACK ('forbidden_method'), `OPTIONS *` ('asterisk_form'), authority-form
 * targets ('authority_form'), an origin-form target without `base` or Host ('no_base'), a URL
 * that is not valid ('invalid_url') or holds credentials ('credentials_in_url'), and a GET or
 * HEAD with a body ('body_not_allowed'). Hop-by-hop fields are dropped unless
 * `dropHopByHop` is false.
 */
export function toRequest(head: CompleteRequestView, body?: FetchBody, options?: ToRequestOptions): FetchRequest;

/**
 * A `Response` for a complete response head and its body. Throws a FetchConversionError for a
 * 1xx head, interim or 101 ('interim_status'), and a body with 204, 205 or 304
 * ('body_not_allowed'). Hop-by-hop fields are dropped unless `dropHopByHop` is false.
 */
export function toResponse(head: CompleteResponseView, body?: FetchBody, options?: HopByHopOption): FetchResponse;

/** Which module is loaded. */
export interface BuildInfo {
  /** Which build was chosen: 'simd128', 'baseline' (engines without SIMD128), or 'given' (init(source)). */
  build: 'simd128' | 'baseline' | 'given';
  /** The name of the module file loaded (a bundler may have renamed it), or null when init() was given a module or bytes. */
  file: string | null;
  /** Whether the loaded module was compiled with SIMD128. */
  simd128: boolean;
  /** The scanning backend the parser uses in the loaded module: 'simd128', or 'swar' in the baseline module. */
  backend: 'simd128' | 'swar';
}

export function buildInfo(): BuildInfo;

/** Where init() finds the module: a URL, a fetch Response, bytes, or a compiled module. */
export type ModuleSource = PlatformURL | string | Declared<FetchResponse> | ArrayBuffer | ArrayBufferView | CompiledModule;

/**
 * Loads the module. Required once before the first call in browsers and bundlers (the `web`
 * entry); in Node and Workers the module is loaded on import and this resolves at once.
 * `source`: default the file next to the package's JavaScript.
 */
export function init(source?: ModuleSource): Promise<void>;

// Types of @httpspan/wasm. Every offset and length counts bytes of the input `Uint8Array` (not
// UTF-16 code units of a string); strings are decoded one character per byte (Latin-1), so a
// decoded string is exactly as long as its span.

/** A part of the input: `bytes.subarray(offset, offset + length)`. */
export interface Span {
  /** Byte offset of the first byte. */
  offset: number;
  /** Number of bytes. */
  length: number;
}

/**
 * One field line. In the object API's heads and trailer events the properties are getters: the
 * strings and spans are made when read; `toJSON()` gives a plain copy.
 */
export interface Field {
  /** The name, as sent. */
  name: string;
  /** The value, without leading and trailing SP and HTAB. */
  value: string;
  nameSpan: Span;
  valueSpan: Span;
  /** The canonical lowercase name when the name is a known header, else null. */
  known: KnownHeaderName | null;
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

/** A known header name; see `KNOWN_HEADERS` for the full list, in bitmap order. */
export type KnownHeaderName = string;

/** How the body is delimited (RFC 9112 6.3). */
export type Framing = 'none' | 'length' | 'chunked' | 'until-close';

/** What requests and responses have in common. */
interface HeadCommon {
  state: 'complete';
  /** Bytes of the head, including empty lines skipped before a request-line and the final CRLF; the body starts here. */
  headLen: number;
  version: 'HTTP/1.0' | 'HTTP/1.1';
  /** The field lines, in order. */
  fields: Field[];
  /** Bit k is set when `KNOWN_HEADERS[k]` is present. */
  knownBitmap: bigint;
  /** For each known header present: the index in `fields` of its first line. */
  knownIndex: Partial<Record<KnownHeaderName, number>>;
  /** The declared Content-Length (exact up to 2^63 - 1), or null. */
  contentLength: bigint | null;
  /** Whether the body is chunked. */
  chunked: boolean;
  /** Whether the connection stays open after this message (RFC 9112 9.3). */
  keepAlive: boolean;
  framing: Framing;
}

/**
 * A complete request head. Its properties are getters over its own copy of the span words:
 * strings are decoded from the input bytes when first read (so do not change those bytes before
 * reading them), and spreading a head copies none of them: use `toObject()`.
 */
export interface RequestHead extends HeadCommon {
  /** The method, case-sensitive, as sent. */
  method: string;
  methodSpan: Span;
  /** The request-target, as sent (no decoding). */
  target: string;
  targetSpan: Span;
  /** Every property decoded, as a plain object with own data properties. */
  toObject(): Omit<RequestHead, 'fields' | 'toObject' | 'toJSON'> & { fields: PlainField[] };
  /** `toObject()` with `knownBitmap` and `contentLength` as decimal strings (JSON has no bigint). */
  toJSON(): object;
}

/** A complete response head (getters, as RequestHead). */
export interface ResponseHead extends HeadCommon {
  /** The status code, 100 to 599. */
  status: number;
  /** The reason phrase, as sent; may be empty. */
  reason: string;
  reasonSpan: Span;
  /** An interim 1xx response other than 101: the final response follows. */
  interim: boolean;
  /** A 101, or a 2xx answer to CONNECT: the connection no longer carries HTTP/1.1. */
  switchesProtocols: boolean;
  /** Every property decoded, as a plain object with own data properties. */
  toObject(): Omit<ResponseHead, 'fields' | 'toObject' | 'toJSON'> & { fields: PlainField[] };
  /** `toObject()` with `knownBitmap` and `contentLength` as decimal strings (JSON has no bigint). */
  toJSON(): object;
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
  | 'too_many_fields' | 'field_slots_exhausted' | 'invalid_chunk_size' | 'chunk_size_too_long'
  | 'invalid_chunk_extension' | 'chunk_extension_too_long' | 'missing_chunk_crlf'
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
  /** The status a server should answer. */
  status: 400 | 413 | 414 | 431 | 505;
  toJSON(): { code: ErrorCode; message: string; offset: number; rfc: string; status: number };
}

/** Limits; every one is inclusive and has the conformance policy's default when left out. */
export interface Limits {
  /** Bytes of a head, 1 to 65535. Default 8192. */
  maxHeadBytes?: number;
  /** Field lines in a head or a trailer section. Default 64, which is also the most the parser has room for. */
  maxFieldLines?: number;
  /** Bytes of one chunk extension. Default 65536. */
  maxChunkExtBytes?: number;
  /** Bytes of a trailer section (at most 65536 are honoured). Default 65536. */
  maxTrailerBytes?: number;
  /** Bytes of one body after chunked decoding (Decoder only), or null for no limit (the default). */
  maxBodyBytes?: number | null;
  /**
   * Leniency flags (httpspan::Leniency), each false by default; each relaxes one rule of the
   * strict policy and brings the smuggling risk docs/leniency.md names. An unknown flag throws.
   */
  lenient?: Leniency;
}

/** Leniency flags; see docs/leniency.md for the rule each one relaxes. */
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
}

export interface RequestOptions extends Limits {}

export interface ResponseOptions extends Limits {
  /** The method of the request this response answers: HEAD and CONNECT change the framing. */
  requestMethod: string;
}

export interface DecoderOptions extends Limits {
  /** Response streams: the methods of the requests sent, in order (see `queueRequestMethod`); request streams ignore it. */
  requestMethods?: string[];
}

/** Parses the request head at the start of `bytes`. Bytes after the head (a body) are ignored. */
export function parseRequest(bytes: Uint8Array, options?: RequestOptions): RequestResult;

/** Parses the response head at the start of `bytes`, answering a `requestMethod` request. */
export function parseResponse(bytes: Uint8Array, options: ResponseOptions): ResponseResult;

/** Words a span array needs (for the `out` argument of the fast path). */
export const SPANS_LENGTH: number;

/** The known header names, lowercase, in bitmap order. */
export const KNOWN_HEADERS: readonly string[];

/**
 * Thrown when a view of the module's memory is used after the memory grew (a parser or decoder
 * was created, or one needed a larger buffer): a fast-path view whose words are read in place,
 * or an input view given to `parseInput` / `pushInput`.
 */
export class StaleViewError extends Error {
  name: 'StaleViewError';
}

/**
 * Lazy accessors over one parse. Only `state`, `headLen` and `error` can be read when the head is
 * not complete; the rest throw a TypeError.
 *
 * A view returned by `parse(bytes)` or `parseInput(length)` without `out` reads the span words in
 * place, in the module's memory: it is the parser's one view, valid until the next parse on
 * that parser, which rebinds it. If the module's memory grows meanwhile, every accessor throws a
 * `StaleViewError` (never stale data). Pass `out`, or call `toResult()`, to keep a parse.
 */
declare class HeadSpans {
  /** The span words: see docs/wasm.md for the layout. In place in the module's memory unless `out` was given. */
  readonly spans: Uint32Array;
  /** The bytes that were parsed, which the spans index. */
  readonly bytes: Uint8Array;
  readonly state: 'complete' | 'partial' | 'error';
  /** Bytes of the head; 0 unless complete. */
  readonly headLen: number;
  readonly error: ParseError | null;
  readonly version: 'HTTP/1.0' | 'HTTP/1.1';
  readonly fieldCount: number;
  fieldName(i: number): string;
  fieldValue(i: number): string;
  /** The span of field i's name (part 0) or value (part 1). */
  fieldSpan(i: number, part: 0 | 1): Span;
  /** The span word of field i's name (part 0) or value (part 1): offset | length << 16. */
  fieldWord(i: number, part: 0 | 1): number;
  /** The canonical lowercase name of field i when it is a known header, else null. */
  fieldKnown(i: number): KnownHeaderName | null;
  /** Index of the first field named `name` (any case), or -1. O(1) for known headers. */
  indexOf(name: string): number;
  /** The value of the first field named `name`, or undefined. */
  get(name: string): string | undefined;
  getSpan(name: string): Span | undefined;
  readonly knownBitmap: bigint;
  readonly contentLength: bigint | null;
  readonly chunked: boolean;
  readonly keepAlive: boolean;
  readonly framing: Framing;
  /** The text of a span word (offset | length << 16); the head is decoded once, on first use. */
  text(word: number): string;
  /** Throws a TypeError unless the head is complete; returns the span words. */
  words(): Uint32Array;
}

export class RequestSpans extends HeadSpans {
  readonly method: string;
  readonly methodSpan: Span;
  readonly target: string;
  readonly targetSpan: Span;
  /** The object parseRequest returns, with its own copy of the words (and of the bytes, when parsed in place). */
  toResult(): RequestResult;
}

export class ResponseSpans extends HeadSpans {
  readonly status: number;
  readonly reason: string;
  readonly reasonSpan: Span;
  readonly interim: boolean;
  readonly switchesProtocols: boolean;
  /** The object parseResponse returns, with its own copy of the words (and of the bytes, when parsed in place). */
  toResult(): ResponseResult;
}

/** The fast path for requests: one reusable parser, spans in one Uint32Array. */
export class RequestParser {
  constructor(options?: RequestOptions);
  /** The span words of the last parse that was not given `out`, in place in the module's memory; the next such parse overwrites them, and a grown memory detaches the array (read `spans` again). */
  readonly spans: Uint32Array;
  /**
   * Parses the head at the start of `bytes` (copied into the module) from scratch. Without
   * `out`, returns the parser's view of the words in place (valid until the next parse); with
   * `out` (at least SPANS_LENGTH long), the words are copied there and the view keeps them.
   */
  parse(bytes: Uint8Array, out?: Uint32Array): RequestSpans;
  /**
   * A writable view of `capacity` bytes (at most 65 544, all a head can use) of the parser's
   * input region in the module's memory: write the input there (a socket can read into it) and
   * call `parseInput(length)`. Valid until the module's memory grows or a larger `parse(bytes)`
   * moves the region; `parseInput` then throws a StaleViewError.
   */
  input(capacity: number): Uint8Array;
  /** Parses the first `length` bytes of the `input()` view where they are, without copying; `bytes` of the result is a view of them. */
  parseInput(length: number, out?: Uint32Array): RequestSpans;
  /** Releases the module memory this parser holds. */
  free(): void;
}

/** The fast path for responses. */
export class ResponseParser {
  constructor(options?: Limits);
  readonly spans: Uint32Array;
  /** Parses the head at the start of `bytes`, answering a `requestMethod` request (default GET); see RequestParser.parse. */
  parse(bytes: Uint8Array, requestMethod?: string, out?: Uint32Array): ResponseSpans;
  /** See RequestParser.input. */
  input(capacity: number): Uint8Array;
  /** Parses the first `length` bytes of the `input()` view where they are, answering a `requestMethod` request. */
  parseInput(length: number, requestMethod?: string, out?: Uint32Array): ResponseSpans;
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

export type DecoderEvent<H> =
  | HeadEvent<H>
  | BodyEvent
  | TrailersEvent
  /** The message is complete. */
  | { type: 'end' }
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

/** Which module is loaded. */
export interface BuildInfo {
  /** httpspan_wasm_bg.wasm (SIMD128), httpspan_wasm_baseline_bg.wasm (engines without SIMD128), or 'given' (init(source)). */
  file: string;
  /** Whether the loaded module was compiled with SIMD128. */
  simd128: boolean;
  /** The scanning backend the parser uses in the loaded module: 'simd128', or 'swar' in the baseline module. */
  backend: string;
}

export function buildInfo(): BuildInfo;

/**
 * Loads the module. Required once before the first call in browsers and bundlers (the `web`
 * entry); in Node and Workers the module is loaded on import and this resolves at once.
 * `source`: a URL, a fetch Response, bytes or a WebAssembly.Module (default: the file next to the package's JS).
 */
export function init(source?: URL | string | Response | BufferSource | WebAssembly.Module): Promise<void>;

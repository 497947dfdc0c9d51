// The shapes the playground's modules share. Offsets and lengths always count bytes of the
// input (never UTF-16 code units), as in the wasm package.

import type { ErrorCode, Span } from '@httpspan/wasm';

export type { ErrorCode, Span };

/** What the input holds: requests (as a server reads them) or responses (as a client does). */
export type Mode = 'request' | 'response';

/** The leniency options of the wasm package (`lenient: { bareLf, ... }`), in docs/leniency.md's order. */
export type LeniencyFlag =
  | 'bareLf'
  | 'obsFold'
  | 'spaceBeforeColon'
  | 'requestLineSpaces'
  | 'missingHost'
  | 'duplicateContentLength'
  | 'unknownVersion'
  | 'targetUnsafeBytes';

export const LENIENCY_FLAGS: readonly LeniencyFlag[] = [
  'bareLf',
  'obsFold',
  'spaceBeforeColon',
  'requestLineSpaces',
  'missingHost',
  'duplicateContentLength',
  'unknownVersion',
  'targetUnsafeBytes',
];

/**
 * The methods of the requests a stream of responses answers: one method for every response, or
 * one per response in order (responses are matched to requests by their order on a connection),
 * the last repeated past the end of the list. Only HEAD and CONNECT change a response's framing.
 */
export type RequestMethods = string | readonly string[];

/**
 * The method of the request the next response answers, after the responses `earlier` of the same
 * stream: interim ones (1xx other than 101) answer no request of their own, the final response
 * after them does, so only final ones move on to the next method.
 */
export function methodOf(methods: RequestMethods, earlier: readonly { status?: number }[]): string {
  if (typeof methods === 'string') return methods;
  const answered = earlier.filter((m) => !isInterim(m.status)).length;
  return methods[Math.min(answered, methods.length - 1)] ?? 'GET';
}

/** A 1xx response other than 101: an interim answer, followed by the request's final one. */
export function isInterim(status: number | undefined): boolean {
  return status !== undefined && status >= 100 && status < 200 && status !== 101;
}

/** How the input is parsed. */
export interface ParseOptions {
  mode: Mode;
  /** Responses: the method of the request they answer (HEAD and CONNECT change framing). */
  requestMethod: string;
  /** The leniency options turned on; none is the strict default. */
  lenient: LeniencyFlag[];
}

/** How the editor shows the bytes. */
export type EditorView = 'raw' | 'escaped';

/** Everything a share link restores. */
export interface ShareState {
  bytes: Uint8Array;
  options: ParseOptions;
  view: EditorView;
  /** Step mode: null when off, else how many bytes are fed and in pieces of how many. */
  step: { fed: number; piece: number } | null;
  /** The selected byte, or null. */
  selected: number | null;
}

/** The error of a parse, with what a reader needs to understand it. */
export interface ErrorInfo {
  code: ErrorCode;
  /** The parser's short description. */
  message: string;
  /** Byte offset of the offending byte (may equal the input's length: the error is at its end). */
  offset: number;
  /** 1-based line and column of that byte (lines end at LF). */
  line: number;
  column: number;
  /** The status a server should answer. */
  status: number;
  /** The rule broken, as 'RFC 9112 5.1'. */
  rfc: string;
  /** A link to that section on rfc-editor.org. */
  rfcUrl: string;
  /** A plain explanation, a sentence or two, for someone learning HTTP/1.1. */
  explanation: string;
}

/** What a byte became. */
export type ByteClass =
  | 'method'
  | 'target'
  | 'version'
  | 'status'
  | 'reason'
  | 'name'
  | 'value'
  | 'ws'
  | 'colon'
  | 'eol'
  | 'body'
  | 'chunk-size'
  | 'chunk-ext'
  | 'trailer'
  /** A line of a head that is not complete yet: checked and accepted, never read again. */
  | 'accepted'
  /** Received, in a head or chunk line the parser has not finished (or that failed). */
  | 'pending'
  /** Not read by the parser: after an error, or after the connection stops carrying HTTP/1.1. */
  | 'unread';

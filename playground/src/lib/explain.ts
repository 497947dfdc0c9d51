// Errors a learner understands: for each error code of the wasm package, what is wrong, why
// HTTP/1.1 forbids it and, where it matters, why accepting it is dangerous (request smuggling);
// a link to the RFC section; and where the offending byte is, as a line and a column.

import { firstWhere } from './search.ts';
import type { ErrorCode, ErrorInfo } from './types.ts';

/**
 * A plain explanation of every error code. Typed as a Record so that a code added to the wasm
 * package's ErrorCode union without an explanation fails type checking (and the unit test,
 * which reads the union from the package's index.d.ts).
 */
export const EXPLANATIONS: Readonly<Record<ErrorCode, string>> = {
  // -- Lines
  bare_lf:
    'A line ends in LF without the CR before it, but every line of an HTTP/1.1 head ends in CR LF. A parser that also accepts a lone LF splits lines where a stricter one does not, so a field hidden behind a bare LF exists for only one of them: a basis of request smuggling.',
  bare_cr:
    'A CR is not followed by LF; in a head a CR may only start a CR LF line ending. Parsers that read a lone CR as a line end, as a space or as part of a value see different fields in the same bytes.',
  nul:
    'The head contains a NUL byte (0x00), which no part of a head may contain. Code that handles strings the C way stops at the NUL and sees a shorter name or value than other parsers do.',
  too_many_empty_lines:
    'More than two empty lines come before the request-line. A server may skip an empty line or two left over from the previous message (RFC 9112 2.2), but more than that is not a request.',
  whitespace_before_first_field:
    'The first field line starts with a space or tab. There is no field before it for it to continue, so some parsers ignore the line and others read it as a field: they see different headers.',
  obs_fold:
    'A field line starts with a space or tab: obsolete line folding, which continues the previous value and is no longer allowed. Parsers that unfold it, drop it or read it as a field of its own see different headers, which can hide a Transfer-Encoding or Content-Length from one of them.',

  // -- Request-line
  invalid_method:
    "The method contains a byte that is not a token character (letters, digits and !#$%&'*+-.^_`|~). A method is a token so that every parser ends it at the same space.",
  invalid_request_line:
    'The request-line is not method, one space, request-target, one space, HTTP-version. With extra or missing spaces, parsers split the line differently, for example taking part of the target for the version.',
  invalid_target:
    'The request-target contains a byte a URI may not have there (a space, a control, a quote, a non-ASCII byte...) or is not one of the four target forms. Such bytes must be percent-encoded: servers that accept them raw disagree on where the target ends and what it means.',
  invalid_percent_encoding:
    'A % in the request-target is not followed by two hex digits, the only form percent-encoding has (RFC 3986). Software decodes a malformed one in different ways, which can slip a path past an access check.',
  fragment_in_target:
    'The request-target contains a # fragment. A fragment belongs to the client and is never sent; servers that strip it and servers that keep it see different paths.',
  asterisk_form_not_options:
    'The target is * but the method is not OPTIONS. The asterisk-form means the server as a whole, and only OPTIONS may ask about that.',
  authority_form_not_connect:
    'The target is host:port (authority-form) but the method is not CONNECT. Only CONNECT, which asks a proxy to open a tunnel, names its destination this way.',
  connect_not_authority_form:
    'A CONNECT request does not have a host:port target. CONNECT opens a tunnel to a host and port, so its target must be exactly that.',
  userinfo_in_target:
    'An http or https target contains user information (user@host), which RFC 9110 forbids there. It is a classic way to disguise the real host, as in http://bank.example@evil.example/.',
  invalid_version:
    'The HTTP-version is not HTTP/ followed by a digit, a dot and a digit (case-sensitive). Anything else is not an HTTP/1.x message.',
  unsupported_version:
    'The version is well-formed but neither HTTP/1.1 nor HTTP/1.0, so its rules are unknown here. A server answers 505 (HTTP Version Not Supported).',

  // -- Status-line
  invalid_status_line:
    'The status-line is not HTTP-version, a space, a three-digit status code, a space and a reason phrase. A client cannot tell what such a response means, or whether it is HTTP at all.',
  invalid_status_code:
    'The status code is not three digits from 100 to 599, the only codes HTTP defines. A client has no way to act on another value.',
  invalid_reason:
    'The reason phrase contains a control character other than tab. The reason is text for people and may hold visible characters, spaces and tabs only, so that it cannot break the line.',
  empty_line_before_status_line:
    'An empty line comes before the status-line. Servers never send one, so the client is out of step with the response stream, and reading on could take body bytes for a response.',

  // -- Fields
  invalid_field_name:
    'A field name is empty or contains a byte that is not a token character (a space, a quote, a non-ASCII byte...). Names are tokens so that every parser agrees on which field a line holds.',
  whitespace_before_colon:
    'There is whitespace between a field name and its colon, which RFC 9112 requires servers to reject. A parser that drops it reads "Transfer-Encoding :" as Transfer-Encoding, one that keeps it sees an unknown field, and they frame the body differently.',
  missing_colon:
    'A field line has no colon, so it has no name and value. A parser that skips the line and one that joins it to another field see different headers.',
  invalid_field_value:
    'A field value contains a control character (a vertical tab, a form feed, DEL...); values may hold visible characters, spaces, tabs and bytes from 0x80 only. Parsers that trim or keep such controls read values like "chunked\\v" differently.',
  missing_host:
    'An HTTP/1.1 request has no Host field, which HTTP/1.1 requires so that the server knows which site is meant. Without it, a proxy and a server may pick different sites.',
  duplicate_host:
    'The request has more than one Host field. One server may route by the first and another by the last, so a request can pass a check for one site and be served by another.',
  invalid_host:
    'The Host value is not a host name or address with an optional port (it has a path, user information or a character no host has). Different software extracts different hosts from it, which confuses routing and access checks.',

  // -- Body framing
  invalid_content_length:
    'Content-Length is not plain decimal digits (it has a sign, a space inside, a comma, letters...). The length of the body must have one reading: "+5", "5 0" or "0x5" are read differently by different parsers, which is how request smuggling starts.',
  duplicate_content_length:
    'Content-Length is given more than once. With different values, a server that uses the first and one that uses the last disagree on where the body ends and the next request starts; the strict policy rejects even equal values.',
  content_length_too_large:
    'Content-Length is larger than 2^63-1. A number this big overflows in many implementations, so parsers would read different, often small, lengths.',
  content_length_with_transfer_encoding:
    'The message has both Content-Length and Transfer-Encoding: two statements of where the body ends. This is the classic request smuggling setup, where a front end that uses one and a back end that uses the other disagree on where the next request starts.',
  transfer_encoding_in_http10:
    'An HTTP/1.0 message has a Transfer-Encoding field, which HTTP/1.0 does not know. An HTTP/1.0 recipient ignores it and frames the body another way, so RFC 9112 says to treat the framing as faulty.',
  invalid_transfer_encoding:
    'Transfer-Encoding is not a comma-separated list of codings (tokens with optional parameters), or chunked has parameters. Some parsers read a malformed list as chunked and others do not, so they disagree on where the body ends.',
  chunked_not_last:
    'The last transfer coding of this request is not chunked (as in "xchunked" or "chunked, identity"). Only a final chunked coding marks where a request body ends; RFC 9112 requires a 400, since servers that guess split the stream differently.',
  chunked_twice:
    'The chunked coding is applied more than once (counting every Transfer-Encoding line), which RFC 9112 forbids. A parser that decodes it once and one that decodes it twice read different bodies.',
  invalid_connection:
    'The Connection value is not a comma-separated list of tokens. Connection decides whether the connection stays open and which fields are for this hop only, so every parser must read it the same way.',

  // -- Limits
  target_too_long:
    'The request-line alone is longer than the head limit. A server answers 414 (URI Too Long) rather than buffer a target without bound.',
  head_too_large:
    'The head is larger than the limit (8 KiB by default). Servers bound the memory one head can take and answer 431 (Request Header Fields Too Large).',
  too_many_fields:
    'The head has more field lines than the limit (64 by default). Bounding the fields bounds the work per message; a server answers 431.',

  // -- Chunked bodies
  invalid_chunk_size:
    'A chunk-size is not hex digits (it is empty, or has a sign, a 0x prefix or a space). The size says where the chunk ends; a parser that skips the junk reads a different size than one that stops at it.',
  chunk_size_too_long:
    'A chunk-size has more than 16 hex digits, more than 64 bits can hold. A parser that overflows keeps the low bits and reads a small chunk where another reads a huge one: a known smuggling trick.',
  invalid_chunk_extension:
    'What follows the chunk-size is not a valid chunk extension (";" name, optionally "=" and a token or quoted string). Parsers usually skip extensions, and a malformed one can hide a line end that one parser honours and another does not.',
  chunk_extension_too_long:
    'A chunk extension is longer than the limit (64 KiB by default). Extensions carry no data, so a huge one only costs the server memory and time.',
  chunk_extensions_too_large:
    'The chunk extensions of one body add up to more than the limit (256 KiB by default). Each line may be short, but a body of many tiny chunks with long extensions would make a server read without end for no data.',
  missing_chunk_crlf:
    'The chunk data is not followed by CR LF. Data must end exactly where the chunk-size says; if it does not, the sizes are wrong and parsers resynchronise in different places.',
  trailers_too_large:
    'The trailer section after the last chunk is larger than the limit (64 KiB by default). Trailers are bounded like a head, and a server answers 431.',
  body_too_large:
    'The body is longer than the limit the parser was given. A server answers 413 (Content Too Large) rather than read on.',
};

/** The plain explanation of an error code (a generic sentence for a code this build does not know). */
export function explainError(code: ErrorCode): string {
  return (
    (EXPLANATIONS as Record<string, string | undefined>)[code] ??
    'The message breaks a rule of HTTP/1.1; the RFC section linked here has the details.'
  );
}

/**
 * The rfc-editor.org link of an RFC reference as the parser writes it: 'RFC 9112 5.1' gives
 * https://www.rfc-editor.org/rfc/rfc9112#section-5.1. core/src/error.rs uses 'RFC <number>
 * <section>' with sections of one to three numbers ('RFC 9112 3', 'RFC 9110 15.6.6', and RFCs
 * 3986 and 6585 too); an appendix ('RFC 9112 A.2') links to #appendix-A.2, a bare 'RFC 9112' to
 * the RFC. Anything else, which the parser does not produce, links to the RFC if a number can be
 * found and else to rfc-editor.org, so that the UI always has a working link.
 */
export function rfcUrl(rfc: string): string {
  const m = /^\s*RFC\s*(\d{1,5})(?:\s+(?:(?:section|§)\s*)?([0-9A-Za-z]+(?:\.[0-9]+)*))?\s*$/i.exec(rfc);
  if (m) {
    const base = `https://www.rfc-editor.org/rfc/rfc${Number(m[1])}`;
    const section = m[2];
    if (section === undefined) return base;
    if (/^\d+(\.\d+)*$/.test(section)) return `${base}#section-${section}`;
    if (/^[A-Z](\.\d+)*$/i.test(section)) return `${base}#appendix-${section.toUpperCase()}`;
    return base;
  }
  const number = /RFC\s*(\d{1,5})/i.exec(rfc);
  return number ? `https://www.rfc-editor.org/rfc/rfc${Number(number[1])}` : 'https://www.rfc-editor.org/';
}

/**
 * 1-based line and column of byte `offset` in `bytes`: lines end at LF (the LF is the last byte
 * of its line), columns count bytes. An offset at or past the end is placed after the last byte.
 */
export function lineAndColumn(bytes: Uint8Array, offset: number): { line: number; column: number } {
  const end = Math.max(0, Math.min(offset, bytes.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < end; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** The offsets of the LFs of `bytes`, for `lineAt`: one pass, then a binary search per lookup. */
export function lineFeeds(bytes: Uint8Array): Int32Array {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) count++;
  const out = new Int32Array(count);
  for (let i = 0, k = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) out[k++] = i;
  return out;
}

/** The line of `offset` as `lineAndColumn` counts it (1-based), from the LFs of the bytes. */
export function lineAt(feeds: Int32Array, length: number, offset: number): number {
  const end = Math.max(0, Math.min(offset, length));
  // LFs before `end`: the first index whose LF is at or after it.
  return firstWhere(0, feeds.length, (i) => feeds[i] >= end) + 1;
}

/**
 * Everything the UI shows about a parse error (a `ParseError` of the wasm package fits
 * `error`): its fields, the line and column of its offset in `bytes` (the whole input, since
 * the offset counts from its start), the RFC link and the explanation.
 */
export function errorInfo(
  bytes: Uint8Array,
  error: { code: ErrorCode; message: string; offset: number; rfc: string; status: number },
): ErrorInfo {
  const { line, column } = lineAndColumn(bytes, error.offset);
  return {
    code: error.code,
    message: error.message,
    offset: error.offset,
    line,
    column,
    status: error.status,
    rfc: error.rfc,
    rfcUrl: rfcUrl(error.rfc),
    explanation: explainError(error.code),
  };
}

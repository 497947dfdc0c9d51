// What the compare view's other parsers (httparse, picohttpparser, Go's net/http) share: how a
// column is described, how a module is loaded, and, for the two parsers that read heads only,
// how their caller frames the body from the head they return.

import type { PeerMessage, PeerResult } from '../llhttp.ts';
import { methodOf, type Mode, type RequestMethods } from '../types.ts';

/** How a message's body is delimited. */
export type Framing = 'content-length' | 'chunked' | 'until-close' | 'none';

/** A parser of the compare view besides httpspan and llhttp. */
export interface ExternalParser {
  /** 'httparse', 'picohttpparser', 'go'. */
  id: string;
  /** 'httparse 1.10.1'. */
  label: string;
  /** How the module was built (the "built from" line). */
  builtFrom: string;
  /**
   * What the column shows that the parser itself does not answer (its caller would), e.g.
   * 'framing and body: RFC 9112 6.3 applied to httparse's head'; empty when nothing is derived.
   */
  derived: string;
  /** `requestMethod` (responses): the method of the requests they answer, or one per response in order. */
  parse(bytes: Uint8Array, mode: Mode, requestMethod: RequestMethods): PeerResult;
}

/** Versions and "built from" lines written by parsers/build.sh. */
export interface BuildInfo {
  version: string;
  builtFrom: string;
}

/** Compiles a module from its bytes or its URL. */
export async function compileModule(source: BufferSource | URL | string): Promise<WebAssembly.Module> {
  if (typeof source !== 'string' && !(source instanceof URL)) return WebAssembly.compile(source);
  const response = await fetch(source);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText} for ${String(source)}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** The value of every field line named `name` (case-insensitive), in order. */
export function fieldValues(headers: readonly [string, string][], name: string): string[] {
  const lower = name.toLowerCase();
  return headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v.trim());
}

/** The framing a caller derives from a head, or why it refuses the message. */
export type DerivedFraming =
  | { framing: Framing; length: number; closes: boolean; upgrade: boolean }
  | { refused: string };

/**
 * RFC 9112 section 6.3 applied to a head a parser returned, as hyper applies it to httparse's:
 * Transfer-Encoding whose last coding is chunked wins over Content-Length; a request's
 * Transfer-Encoding without chunked last or in HTTP/1.0, or Content-Length values that are not one number, are
 * refused (hyper 1.x's server takes each Content-Length line whole, `headers::content_length_parse`,
 * so `5, 5` is refused in a request; its client splits lines at commas and needs every value equal,
 * `content_length_parse_all_values`, so `5, 5` frames a response of 5 bytes); responses to HEAD, 1xx, 204 and 304 have no body; a response without either reads
 * until the connection closes. A Transfer-Encoding line counts even when its value is empty, and
 * the last coding is what follows the last comma of the last line (hyper's `is_chunked_`), so
 * `Transfer-Encoding:` alone or `chunked,` is not chunked: a request with it is refused, never
 * framed by Content-Length or read as chunked.
 */
export function deriveFraming(m: PeerMessage, mode: Mode, requestMethod: string): DerivedFraming {
  const teLines = fieldValues(m.headers, 'transfer-encoding');
  const lastCoding = teLines.length > 0 ? teLines[teLines.length - 1].split(',').pop()!.trim().toLowerCase() : null;
  const clLines = fieldValues(m.headers, 'content-length');
  const cl = (mode === 'response' ? clLines.flatMap((v) => v.split(',')) : clLines).map((v) => v.trim());
  const connection = fieldValues(m.headers, 'connection').flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase());
  const http10 = m.version === 'HTTP/1.0';
  const closes = connection.includes('close') || (http10 && !connection.includes('keep-alive'));
  const status = m.status ?? 0;
  const upgrade = mode === 'response' && (status === 101 || (requestMethod === 'CONNECT' && status >= 200 && status < 300));
  const base = { closes, upgrade };
  if (mode === 'response' && (requestMethod === 'HEAD' || (status >= 100 && status < 200) || status === 204 || status === 304 || upgrade)) {
    return { framing: 'none', length: 0, ...base };
  }
  if (lastCoding !== null) {
    // Requests and responses alike: hyper's server and client decoders both refuse it (proto/h1/role.rs).
    if (http10) return { refused: 'Transfer-Encoding in HTTP/1.0' };
    if (lastCoding === 'chunked') return { framing: 'chunked', length: 0, ...base };
    if (mode === 'request') return { refused: 'Transfer-Encoding without chunked last' };
    return { framing: 'until-close', length: 0, ...base };
  }
  if (cl.length > 0) {
    if (!cl.every((v) => /^[0-9]+$/.test(v))) return { refused: 'invalid Content-Length' };
    if (!cl.every((v) => BigInt(v) === BigInt(cl[0]))) return { refused: 'conflicting Content-Length values' };
    // hyper's from_digits refuses what overflows a u64, and DecodedLength::checked_new the top two values.
    if (BigInt(cl[0]) > 2n ** 64n - 3n) return { refused: 'invalid Content-Length' };
    const length = Number(cl[0]);
    return { framing: length === 0 ? 'none' : 'content-length', length, ...base };
  }
  if (mode === 'response') return { framing: 'until-close', length: 0, ...base };
  return { framing: 'none', length: 0, ...base };
}

/** A message with nothing read yet but its head. */
export function newMessage(fields: Omit<PeerMessage, 'trailers' | 'bodyLength' | 'body' | 'keepAlive' | 'upgrade' | 'complete'>): PeerMessage {
  return { ...fields, trailers: [], bodyLength: 0, body: new Uint8Array(0), keepAlive: true, upgrade: false, complete: false };
}

/**
 * The stream loop of a head-only parser: `head(offset)` parses one head, `body(message, offset,
 * framing)` reads its body; the caller's rules (deriveFraming) choose the framing.
 */
export function readStream(
  bytes: Uint8Array,
  mode: Mode,
  requestMethod: RequestMethods,
  head: (offset: number) => { status: 'complete'; message: PeerMessage; end: number } | { status: 'partial' } | { status: 'error'; code: string; reason: string },
  body: (offset: number, framing: Framing, length: number) => { status: 'complete'; end: number; bodyLength: number; trailers: [string, string][]; body?: Uint8Array } | { status: 'partial'; bodyLength: number } | { status: 'error'; code: string; reason: string; offset: number },
): PeerResult {
  const messages: PeerMessage[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const h = head(offset);
    if (h.status === 'partial') return { status: 'partial', messages, error: null, consumed: offset };
    if (h.status === 'error') {
      // Neither head parser says where the fault is: the offset is the head's first byte.
      return { status: 'error', messages, error: { code: h.code, reason: `${h.reason} (no offset reported; the head starts here)`, offset }, consumed: offset };
    }
    const m = h.message;
    messages.push(m);
    // The k-th final response answers the k-th request.
    const f = deriveFraming(m, mode, methodOf(requestMethod, messages.slice(0, -1)));
    if ('refused' in f) {
      return { status: 'error', messages, error: { code: 'refused', reason: `its caller refuses: ${f.refused}`, offset }, consumed: offset };
    }
    m.framing = f.framing;
    m.keepAlive = !f.closes;
    m.upgrade = f.upgrade;
    const b = body(h.end, f.framing, f.length);
    if (b.status === 'error') {
      return { status: 'error', messages, error: { code: b.code, reason: b.reason, offset: b.offset }, consumed: b.offset };
    }
    m.bodyLength = b.bodyLength;
    if (b.status === 'partial') {
      if (f.framing === 'until-close') {
        m.complete = true;
        m.body = bytes.slice(h.end);
        m.end = bytes.length;
        return { status: 'complete', messages, error: null, consumed: bytes.length };
      }
      return { status: 'partial', messages, error: null, consumed: bytes.length };
    }
    m.trailers = b.trailers;
    // A chunked body comes decoded from the parser; a length-delimited one is the bytes it spans.
    m.body = b.body ?? bytes.slice(h.end, b.end);
    m.complete = true;
    m.end = b.end;
    offset = b.end;
    if (f.closes || f.upgrade) return { status: 'complete', messages, error: null, consumed: offset };
  }
  return { status: 'complete', messages, error: null, consumed: offset };
}

/** A Content-Length body or none: how many of the bytes after `offset` it takes. */
export function lengthBody(bytes: Uint8Array, offset: number, framing: Framing, length: number) {
  if (framing === 'until-close') return { status: 'partial' as const, bodyLength: bytes.length - offset };
  const available = bytes.length - offset;
  if (available < length) return { status: 'partial' as const, bodyLength: available };
  return { status: 'complete' as const, end: offset + length, bodyLength: length, trailers: [] as [string, string][] };
}

// The whole playground state in the URL fragment, so that a link reproduces exactly what its
// author saw. The fragment never reaches a server, so the bytes stay on the reader's machine.
//
// Format, version 1: `v1.` + base64url (no padding) of the raw DEFLATE (level 9, with the
// preset dictionary DICTIONARY below) of:
//
//   u8       flags: bit 0 mode (0 request, 1 response), bit 1 view (0 raw, 1 escaped),
//            bit 2 step mode on, bit 3 a byte selected; bits 4-7 zero
//   varuint  length of requestMethod, then its UTF-8 bytes
//   u8       number of lenient flags, then one u8 each: the flag's index in LENIENCY_FLAGS
//            (a list, not a bit set, so that the order round-trips too)
//   varuint  step.fed, varuint step.piece            (only with bit 2)
//   varuint  selected                                (only with bit 3)
//   varuint  length of the bytes, then the bytes
//
// varuint is LEB128: 7 bits a byte, low group first, high bit set on every byte but the last.
// A binary layout rather than JSON keeps arbitrary bytes exact without escaping them, and keeps
// links short: the input bytes dominate, and DEFLATE with an HTTP dictionary compresses them well.

import { Inflate, deflateSync } from 'fflate';
import { LENIENCY_FLAGS, type EditorView, type LeniencyFlag, type Mode, type ShareState } from './types.ts';

/** The version this module writes. */
export const SHARE_VERSION = 1;
const PREFIX = `v${SHARE_VERSION}.`;

/** The most input bytes a link may carry; larger payloads are refused on decode (and encode). */
export const MAX_SHARE_BYTES = 1 << 20;
/** Bound on the decompressed payload: the bytes plus a little for the other fields. */
const MAX_PAYLOAD = MAX_SHARE_BYTES + 1024;
/** Largest number a varuint may hold here (offsets, counts, lengths). */
const MAX_UINT = 0xffff_ffff;

/**
 * The preset dictionary of format v1: common start lines and field lines, CR LF terminated,
 * which DEFLATE can refer to from the first byte on. Typical heads then cost a few bytes per
 * familiar line instead of its full length: the 733-byte benchmark request becomes a link of
 * about 330 characters instead of 670. Part of the format: changing a single byte breaks every
 * v1 link (a golden test pins it), so a new dictionary needs a new version.
 */
const DICTIONARY_LINES: readonly string[] = [
  'HTTP/1.1 100 Continue',
  'HTTP/1.1 101 Switching Protocols',
  'HTTP/1.1 204 No Content',
  'HTTP/1.1 301 Moved Permanently',
  'HTTP/1.1 302 Found',
  'HTTP/1.1 304 Not Modified',
  'HTTP/1.1 400 Bad Request',
  'HTTP/1.1 401 Unauthorized',
  'HTTP/1.1 403 Forbidden',
  'HTTP/1.1 404 Not Found',
  'HTTP/1.1 500 Internal Server Error',
  'HTTP/1.1 502 Bad Gateway',
  'HTTP/1.1 503 Service Unavailable',
  'PUT DELETE PATCH OPTIONS * CONNECT HEAD HTTP/1.0',
  'Location: https://www.example.com/',
  'Date: Mon, Tue, Wed, Thu, Fri, Sat, Sun, 01 Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec 2025 00:00:00 GMT',
  'Server: nginx',
  'Last-Modified: ',
  'ETag: W/"',
  'If-None-Match: "',
  'If-Modified-Since: ',
  'Age: 0',
  'Via: 1.1 ',
  'Accept-Ranges: bytes',
  'Range: bytes=0-',
  'Content-Range: bytes ',
  'Content-Disposition: attachment; filename="',
  'Content-Security-Policy: default-src \'self\'',
  'Strict-Transport-Security: max-age=63072000; includeSubDomains; preload',
  'X-Content-Type-Options: nosniff',
  'X-Frame-Options: SAMEORIGIN',
  'X-Frame-Options: DENY',
  'Referrer-Policy: strict-origin-when-cross-origin',
  'Access-Control-Allow-Methods: GET, POST, OPTIONS',
  'Access-Control-Allow-Headers: Content-Type, Authorization',
  'Access-Control-Allow-Credentials: true',
  'Access-Control-Allow-Origin: *',
  'Vary: Accept-Encoding, Origin',
  'Set-Cookie: session=; Path=/; HttpOnly; Secure; SameSite=Lax',
  'Cache-Control: public, max-age=31536000, immutable',
  'Cache-Control: private, max-age=0, must-revalidate',
  'Cache-Control: no-cache',
  'Pragma: no-cache',
  'Content-Encoding: gzip',
  'Server-Timing: ',
  'WWW-Authenticate: Basic realm="',
  'Proxy-Authorization: ',
  'Keep-Alive: timeout=5',
  'Trailer: ',
  'Expect: 100-continue',
  'Content-Digest: sha-256=:',
  'Sec-WebSocket-Accept: ',
  'Sec-WebSocket-Key: ',
  'Sec-WebSocket-Version: 13',
  'Upgrade: websocket',
  'Connection: Upgrade',
  'Connection: close',
  'Upgrade-Insecure-Requests: 1',
  'Sec-Fetch-User: ?1',
  'Sec-Fetch-Dest: document',
  'Sec-Fetch-Dest: empty',
  'Sec-Fetch-Site: cross-site',
  'Sec-Fetch-Site: same-origin',
  'Sec-Fetch-Site: same-site',
  'Sec-Fetch-Mode: navigate',
  'Sec-Fetch-Mode: cors',
  'DNT: 1',
  'Traceparent: 00-',
  'X-Forwarded-Host: ',
  'X-Forwarded-Proto: https',
  'X-Forwarded-For: ',
  'X-Request-Id: ',
  'Authorization: Basic ',
  'Authorization: Bearer ',
  'Cookie: session=',
  'Referer: https://',
  'Origin: https://',
  'Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'Accept-Language: en-US,en;q=0.9',
  'Accept-Encoding: gzip, deflate, br, zstd',
  'User-Agent: curl/8.5.0',
  'User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Accept: */*',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Type: text/html; charset=utf-8',
  'Content-Type: application/x-www-form-urlencoded',
  'Content-Type: application/json; charset=utf-8',
  'Transfer-Encoding: chunked',
  'Content-Length: 0',
  'Connection: keep-alive',
  'Host: localhost',
  'Host: api.example.com',
  'Host: www.example.com',
  'POST /api/v1/ HTTP/1.1',
  'GET / HTTP/1.1',
  'HTTP/1.1 200 OK',
  '',
];
const DICTIONARY = new TextEncoder().encode(DICTIONARY_LINES.map((line) => line + '\r\n').join(''));

const FLAG_RESPONSE = 1;
const FLAG_ESCAPED = 2;
const FLAG_STEP = 4;
const FLAG_SELECTED = 8;

/**
 * The fragment (without '#') that {@link decodeShare} turns back into `state`, field for field.
 * Throws if the state is not one the playground can be in (an unknown or repeated lenient flag,
 * a step or selection outside the bytes, more than {@link MAX_SHARE_BYTES} bytes), since such a
 * link could not be opened.
 */
export function encodeShare(state: ShareState): string {
  const problem = validate(state);
  if (problem !== null) throw new Error(`cannot share this state: ${problem}`);

  const w = new Writer(state.bytes.length + 32);
  let flags = 0;
  if (state.options.mode === 'response') flags |= FLAG_RESPONSE;
  if (state.view === 'escaped') flags |= FLAG_ESCAPED;
  if (state.step !== null) flags |= FLAG_STEP;
  if (state.selected !== null) flags |= FLAG_SELECTED;
  w.u8(flags);
  const method = new TextEncoder().encode(state.options.requestMethod);
  w.varuint(method.length);
  w.bytes(method);
  w.u8(state.options.lenient.length);
  for (const flag of state.options.lenient) w.u8(LENIENCY_FLAGS.indexOf(flag));
  if (state.step !== null) {
    w.varuint(state.step.fed);
    w.varuint(state.step.piece);
  }
  if (state.selected !== null) w.varuint(state.selected);
  w.varuint(state.bytes.length);
  w.bytes(state.bytes);

  return PREFIX + toBase64Url(deflateSync(w.finish(), { level: 9, dictionary: DICTIONARY }));
}

/**
 * The state a fragment holds (a leading '#' is allowed). Throws an Error that says what is
 * wrong when the fragment is not a share link, was written by another version, is damaged, or
 * holds a state the playground cannot be in.
 */
export function decodeShare(fragment: string): ShareState {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (text === '') throw new Error('empty share link: there is nothing after the #');
  const version = /^v(\d+)\./.exec(text);
  if (version === null) {
    throw new Error(`not a share link: it should start with "${PREFIX}"`);
  }
  if (version[0] !== PREFIX) {
    throw new Error(
      `share link of version ${version[1]}: this playground reads version ${SHARE_VERSION} only`,
    );
  }
  const packed = fromBase64Url(text.slice(PREFIX.length));
  const payload = inflateBounded(packed);
  const state = read(payload);
  const problem = validate(state);
  if (problem !== null) throw new Error(`share link holds an impossible state: ${problem}`);
  return state;
}

// ---------------------------------------------------------------------------------------------

/** Reads the payload layout (see the top of the file). */
function read(payload: Uint8Array): ShareState {
  const r = new Reader(payload);
  const flags = r.u8('flags');
  if (flags & 0xf0) throw new Error(`damaged share link: unknown flag bits 0x${(flags & 0xf0).toString(16)}`);
  const mode: Mode = flags & FLAG_RESPONSE ? 'response' : 'request';
  const view: EditorView = flags & FLAG_ESCAPED ? 'escaped' : 'raw';

  const methodBytes = r.bytes(r.varuint('request method length'), 'request method');
  let requestMethod: string;
  try {
    requestMethod = new TextDecoder('utf-8', { fatal: true }).decode(methodBytes);
  } catch {
    throw new Error('damaged share link: the request method is not UTF-8');
  }

  const count = r.u8('number of lenient flags');
  const lenient: LeniencyFlag[] = [];
  for (let i = 0; i < count; i++) {
    const index = r.u8('lenient flag');
    const flag = LENIENCY_FLAGS[index];
    if (flag === undefined) {
      throw new Error(`share link holds an impossible state: unknown lenient flag number ${index}`);
    }
    lenient.push(flag);
  }

  let step: ShareState['step'] = null;
  if (flags & FLAG_STEP) step = { fed: r.varuint('step fed'), piece: r.varuint('step piece') };
  const selected = flags & FLAG_SELECTED ? r.varuint('selected byte') : null;
  const length = r.varuint('input length');
  if (length > MAX_SHARE_BYTES) throw new Error(`share link holds ${length} bytes, more than ${MAX_SHARE_BYTES}`);
  const bytes = r.bytes(length, 'input bytes').slice();
  if (!r.done()) throw new Error(`damaged share link: ${r.remaining()} unexpected bytes at the end`);

  return { bytes, options: { mode, requestMethod, lenient }, view, step, selected };
}

/** Why `state` cannot be shared or restored, or null when it is fine. */
function validate(state: ShareState): string | null {
  const { bytes, options, view, step, selected } = state;
  if (!(bytes instanceof Uint8Array)) return 'bytes is not a Uint8Array';
  if (bytes.length > MAX_SHARE_BYTES) return `${bytes.length} bytes is more than ${MAX_SHARE_BYTES}`;
  if (options.mode !== 'request' && options.mode !== 'response') return `unknown mode ${JSON.stringify(options.mode)}`;
  if (view !== 'raw' && view !== 'escaped') return `unknown view ${JSON.stringify(view)}`;
  if (typeof options.requestMethod !== 'string') return 'the request method is not a string';
  if (new TextEncoder().encode(options.requestMethod).length > 1024) return 'the request method is longer than 1024 bytes';
  const seen = new Set<string>();
  for (const flag of options.lenient) {
    if (!LENIENCY_FLAGS.includes(flag)) return `unknown lenient flag ${JSON.stringify(flag)}`;
    if (seen.has(flag)) return `lenient flag ${flag} is given twice`;
    seen.add(flag);
  }
  if (step !== null) {
    if (!isCount(step.fed) || step.fed > bytes.length) {
      return `step mode has fed ${step.fed} bytes of ${bytes.length}`;
    }
    if (!isCount(step.piece) || step.piece < 1) return `step mode has pieces of ${step.piece} bytes (at least 1)`;
  }
  if (selected !== null && (!isCount(selected) || selected >= bytes.length)) {
    return `byte ${selected} is selected, but the input has ${bytes.length} bytes`;
  }
  return null;
}

function isCount(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= MAX_UINT;
}

/**
 * Raw inflate that stops as soon as the output passes MAX_PAYLOAD: a crafted link of a few
 * kilobytes could otherwise expand to gigabytes (DEFLATE reaches about 1000:1).
 */
function inflateBounded(packed: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const inflater = new Inflate({ dictionary: DICTIONARY }, (chunk, final) => {
    total += chunk.length;
    if (total > MAX_PAYLOAD) throw new RangeError('too large');
    parts.push(chunk);
    if (final) ended = true;
  });
  try {
    const STEP = 1024;
    for (let i = 0; i < packed.length; i += STEP) {
      const end = Math.min(i + STEP, packed.length);
      inflater.push(packed.subarray(i, end), end === packed.length);
    }
    if (packed.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (e) {
    if (e instanceof RangeError && e.message === 'too large') {
      throw new Error(`share link expands to more than ${MAX_PAYLOAD} bytes`);
    }
    throw new Error(`damaged share link: the compressed data is invalid (${(e as Error).message})`);
  }
  if (!ended) throw new Error('damaged share link: the compressed data is cut short');
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// base64url without padding (RFC 4648 5). Written out rather than using btoa/atob so that
// decoding is strict: no padding, no whitespace, no characters outside the alphabet.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += ALPHABET[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

function fromBase64Url(text: string): Uint8Array {
  if (text.length % 4 === 1) throw new Error('damaged share link: the data has an impossible length (cut short?)');
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let acc = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? VALUES[c] : -1;
    if (v < 0) {
      throw new Error(
        `damaged share link: ${JSON.stringify(text[i])} at position ${PREFIX.length + i} is not a base64url character`,
      );
    }
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

class Writer {
  private buf: Uint8Array;
  private len = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
  }

  u8(v: number): void {
    this.reserve(1);
    this.buf[this.len++] = v;
  }

  varuint(v: number): void {
    do {
      const low = v % 128;
      v = Math.floor(v / 128);
      this.u8(v > 0 ? low | 0x80 : low);
    } while (v > 0);
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
}

class Reader {
  private at = 0;

  constructor(private readonly buf: Uint8Array) {}

  u8(what: string): number {
    if (this.at >= this.buf.length) throw new Error(`damaged share link: it ends before the ${what}`);
    return this.buf[this.at++];
  }

  varuint(what: string): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      // 5 groups of 7 bits hold 32 bits; a longer encoding is not one this module writes.
      if (i === 5) throw new Error(`damaged share link: the ${what} is not a valid number`);
      const b = this.u8(what);
      value += (b & 0x7f) * scale;
      if (value > MAX_UINT) throw new Error(`share link holds an impossible state: the ${what} is too large`);
      if (!(b & 0x80)) return value;
      scale *= 128;
    }
  }

  bytes(n: number, what: string): Uint8Array {
    if (this.at + n > this.buf.length) throw new Error(`damaged share link: it ends inside the ${what}`);
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  done(): boolean {
    return this.at === this.buf.length;
  }

  remaining(): number {
    return this.buf.length - this.at;
  }
}

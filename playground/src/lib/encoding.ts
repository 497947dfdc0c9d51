// Bytes and text. The playground keeps its input as a Uint8Array and never as a JS string, since
// an HTTP/1.1 message is bytes: a CR, a bare LF, a NUL or an 0xFF are exactly what a parser has
// to be shown. This module turns those bytes into the text of the editor's two views and back
// without losing a single one, and renders them as commands for copying.

import { latin1Bytes, latin1Text } from './bytes.ts';

// ---------------------------------------------------------------------------------------------
// Raw view
// ---------------------------------------------------------------------------------------------

/** Control Pictures block: U+2400 + a C0 control byte is that byte's picture. */
const PICTURES = 0x2400;
/** U+2421 SYMBOL FOR DELETE, the picture of 0x7F. */
const DEL_PICTURE = 0x2421;
const CR = 0x0d;
const LF = 0x0a;

/** What the Enter key inserts in the raw view: a CR LF, then a real newline for the layout. */
export const CRLF_TEXT = '\u240d\u240a\n';
/** A lone CR in the raw view. */
export const CR_TEXT = '\u240d';
/** A lone (bare) LF in the raw view, with the real newline that lays it out. */
export const LF_TEXT = '\u240a\n';

/**
 * The raw view's text of `bytes`: printable ASCII as itself; each C0 control as its Control
 * Picture (CR '␍', TAB '␉', NUL '␀', ...), LF as '␊' followed by a real newline so that lines
 * break where the message's lines do; DEL as '␡'; bytes 0x80–0xFF as the Latin-1 characters of
 * the same value. {@link rawToBytes} reads it back exactly.
 */
export function bytesToRaw(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    if (b === LF) out += LF_TEXT;
    else if (b < 0x20) out += String.fromCharCode(PICTURES + b);
    else if (b === 0x7f) out += String.fromCharCode(DEL_PICTURE);
    else out += String.fromCharCode(b);
  }
  return out;
}

/**
 * The bytes of raw-view text. A Control Picture (U+2400–U+241F, U+2421) is its byte; a real
 * newline right after '␊' is that LF's layout and is dropped; any other real newline (pasted or
 * typed text) is a bare LF byte, a real CR is CR, a real TAB is TAB, and every other character
 * from U+0000 to U+00FF is the byte of that value. Characters above U+00FF (which no byte is
 * shown as) are encoded as UTF-8, so pasted Unicode text becomes the bytes it would be sent as.
 */
export function rawToBytes(text: string): Uint8Array {
  const out = new ByteBuilder(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0xff) {
      out.push(c);
    } else if (c >= PICTURES && c < PICTURES + 0x20) {
      out.push(c - PICTURES);
      if (c === PICTURES + LF && text.charCodeAt(i + 1) === LF) i++;
    } else if (c === DEL_PICTURE) {
      out.push(0x7f);
    } else {
      // One code point (a surrogate pair counts as one; a lone surrogate becomes U+FFFD).
      const cp = text.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      i += ch.length - 1;
      out.pushAll(utf8.encode(ch));
    }
  }
  return out.finish();
}

// ---------------------------------------------------------------------------------------------
// Escaped view
// ---------------------------------------------------------------------------------------------

/**
 * The escaped view's text of `bytes`: printable ASCII as itself except the backslash (`\\`);
 * CR, LF and TAB as `\r`, `\n` and `\t`; every other control, DEL and bytes from 0x80 as
 * `\xNN` (lowercase hex). A real newline follows each `\n` so that lines break where the
 * message's lines do; {@link escapedToBytes} ignores it.
 */
export function bytesToEscaped(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    if (b === LF) out += '\\n\n';
    else if (b === CR) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b === 0x5c) out += '\\\\';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += '\\x' + hex2(b);
  }
  return out;
}

/** The bytes of escaped-view text, or where and why it is malformed. */
export type EscapedResult = { bytes: Uint8Array } | { error: string; index: number };

/**
 * The bytes of escaped-view text. Escapes are `\r`, `\n`, `\t`, `\\` and `\xNN` (two hex
 * digits, either case). Real newlines, and a real CR (the first half of a pasted CR LF), are
 * layout and are ignored: a line break in the message must be written `\r\n`. Any other
 * character stands for itself, as in the raw view: U+0000–U+00FF is the byte of that value
 * (so a real TAB is a TAB), anything above is UTF-8 encoded. A malformed escape is an error at
 * the index (in UTF-16 code units, as a textarea counts) of its backslash.
 */
export function escapedToBytes(text: string): EscapedResult {
  const out = new ByteBuilder(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) {
      const next = text[i + 1];
      switch (next) {
        case 'r':
          out.push(CR);
          break;
        case 'n':
          out.push(LF);
          break;
        case 't':
          out.push(0x09);
          break;
        case '\\':
          out.push(0x5c);
          break;
        case 'x': {
          const digits = text.slice(i + 2, i + 4);
          if (!/^[0-9a-fA-F]{2}$/.test(digits)) {
            return { error: '\\x needs two hex digits, as in \\x00 or \\xff', index: i };
          }
          out.push(parseInt(digits, 16));
          i += 2;
          break;
        }
        case undefined:
          return { error: 'a lone backslash at the end: write \\\\ for a backslash', index: i };
        default:
          return {
            error: `unknown escape \\${next}: the escapes are \\r, \\n, \\t, \\\\ and \\xNN`,
            index: i,
          };
      }
      i++;
    } else if (c === LF || c === CR) {
      // Layout only.
    } else if (c <= 0xff) {
      out.push(c);
    } else {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      i += ch.length - 1;
      out.pushAll(utf8.encode(ch));
    }
  }
  return { bytes: out.finish() };
}

// ---------------------------------------------------------------------------------------------
// Line ends
// ---------------------------------------------------------------------------------------------

/** Whether some LF is not preceded by a CR (a bare LF, which the strict parser rejects). */
export function hasBareLf(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === LF && (i === 0 || bytes[i - 1] !== CR)) return true;
  }
  return false;
}

/**
 * `bytes` with every bare LF (one not preceded by CR) turned into CR LF; CR LF pairs and lone
 * CRs are kept. Meant for text pasted from a source that ends lines in LF only.
 */
export function lfToCrlf(bytes: Uint8Array): Uint8Array {
  const out = new ByteBuilder(bytes.length + 16);
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === LF && (i === 0 || bytes[i - 1] !== CR)) out.push(CR);
    out.push(bytes[i]);
  }
  return out.finish();
}

// ---------------------------------------------------------------------------------------------
// Copy as an escaped string literal
// ---------------------------------------------------------------------------------------------

/**
 * `bytes` as a double-quoted string literal, e.g. `"GET / HTTP/1.1\r\nHost: a\r\n\r\n"`, that
 * means the same bytes in JavaScript (read as Latin-1), Python (as `b"..."`), Go and C: `"` and
 * `\` are escaped, CR, LF and TAB are `\r`, `\n` and `\t`, other controls, DEL and bytes from
 * 0x80 are `\xNN`. A C compiler reads as many hex digits as follow `\x`, so a hex digit right
 * after a `\xNN` is written `\xNN` too: the literal means one thing in every one of these
 * languages.
 */
export function toEscapedString(bytes: Uint8Array): string {
  let out = '"';
  let afterHex = false;
  for (const b of bytes) {
    let piece: string;
    let hex = false;
    if (b === 0x22) piece = '\\"';
    else if (b === 0x5c) piece = '\\\\';
    else if (b === CR) piece = '\\r';
    else if (b === LF) piece = '\\n';
    else if (b === 0x09) piece = '\\t';
    else if (b >= 0x20 && b < 0x7f && !(afterHex && isHexDigit(b))) piece = String.fromCharCode(b);
    else {
      piece = '\\x' + hex2(b);
      hex = true;
    }
    out += piece;
    afterHex = hex;
  }
  return out + '"';
}

// ---------------------------------------------------------------------------------------------
// Copy as a command
// ---------------------------------------------------------------------------------------------

/**
 * What {@link toCurl} needs of a request that parsed, in plain types (from the parse result and
 * the decoded body), so that this module depends on no other.
 */
export interface CurlRequest {
  method: string;
  /** The request-target, as sent. */
  target: string;
  version: 'HTTP/1.0' | 'HTTP/1.1';
  /** The field lines in order: name as sent, value without surrounding whitespace. */
  headers: [string, string][];
  /** The body after chunked decoding (empty when there is none). */
  body: Uint8Array;
  /** Whether the body was chunked (Transfer-Encoding ends in chunked). */
  chunked: boolean;
  /** The trailer fields of a chunked body, if any. */
  trailers?: [string, string][];
}

/** Where to connect when the request names no host (an HTTP/1.0 request without Host). */
export interface CurlOptions {
  /** Default 'localhost'. */
  host?: string;
}

/** Headers curl adds of its own unless the command sets or removes them. */
const CURL_DEFAULT_HEADERS = ['User-Agent', 'Accept'];
/** curl sends `Expect: 100-continue` before large bodies (above 1 KiB in older versions, 1 MiB in newer). */
const CURL_EXPECT_THRESHOLD = 1024;

/**
 * Where curl's result differs from the request, in words; empty when curl sends the same
 * message (up to the order of the header lines, which curl chooses). {@link toCurl} writes them
 * as comment lines above the command.
 */
export function curlCaveats(req: CurlRequest): string[] {
  const notes: string[] = [];
  if (req.chunked) {
    notes.push(
      'curl chunks the body itself: chunk sizes and extensions are its own' +
        (req.trailers?.length ? ', and the trailer fields are not sent' : ''),
    );
  }
  return notes;
}

/**
 * A curl command that sends `req`, or null when curl cannot send it (CONNECT, whose
 * authority-form target curl only produces as a proxy client; use {@link toPrintfNc}).
 *
 * The command is meant to be faithful: every header line of the request is passed with `-H`
 * (an empty value as `-H 'Name;'`, curl's syntax for it); the headers curl would add on its
 * own (User-Agent, Accept, the Content-Type of --data-binary, Expect for large bodies) are
 * removed with `-H 'Name:'` when the request does not have them; `--http1.1` (or `--http1.0`)
 * keeps curl from negotiating another protocol; the URL is `http://` + Host + target for
 * origin-form, the target itself for absolute-form (with `--request-target`, since curl would
 * otherwise send only its path), `--request-target '*'` for asterisk-form, `--path-as-is`
 * when the path has dot segments curl would remove, and `-g` when the URL has brackets (an
 * IPv6 literal), which curl would read as a glob pattern. The body
 * goes in `--data-binary $'...'` (bash ANSI-C quoting; `--data-raw` when it starts with `@`,
 * which --data-binary reads as a file name; piped from printf when it holds a NUL, which no
 * command-line argument can). A chunked body is passed decoded with its Transfer-Encoding
 * header, which makes curl chunk it again (an empty one too: `--data-binary ''` makes curl send
 * the last chunk); {@link curlCaveats} says what differs.
 *
 * Meant for one request that parsed; for several pipelined requests or bytes that do not
 * parse, offer {@link toPrintfNc}, which sends the bytes exactly.
 */
export function toCurl(req: CurlRequest, options: CurlOptions = {}): string | null {
  if (req.method === 'CONNECT') return null;
  const args: string[] = ['curl', req.version === 'HTTP/1.0' ? '--http1.0' : '--http1.1'];
  const has = (name: string) => req.headers.some(([n]) => n.toLowerCase() === name.toLowerCase());
  const hostValue = req.headers.find(([n]) => n.toLowerCase() === 'host')?.[1];
  // A chunked request needs data even when empty, or curl would send no last chunk.
  const hasBody = req.body.length > 0 || req.chunked;

  // Method: curl picks GET, or POST with data, or HEAD with -I; -X for anything else.
  if (req.method === 'HEAD' && !hasBody) args.push('-I');
  else if (!(req.method === 'GET' && !hasBody) && !(req.method === 'POST' && hasBody)) {
    args.push('-X', shellWord(req.method));
  }

  // URL and target.
  let url: string;
  const absolute = isAbsoluteForm(req.target);
  const connectHost = hostValue ? hostValue : options.host ?? 'localhost';
  if (absolute) {
    // curl would send the URL's path; --request-target keeps the absolute-form as it is.
    url = req.target;
    args.push('--request-target', shellQuote(req.target));
  } else if (req.target === '*') {
    url = `http://${connectHost}`;
    args.push('--request-target', shellQuote('*'));
  } else {
    url = `http://${connectHost}${req.target}`;
    if (/(^|\/)\.\.?(\/|\?|$)/.test(req.target.split('?', 1)[0])) args.push('--path-as-is');
  }

  // Headers, in order. Host is left to curl only where curl is sure to send the same line:
  // a lowercase name and a port other than 80 (curl leaves the default port out of Host).
  for (const [name, value] of req.headers) {
    if (name.toLowerCase() === 'host' && !absolute && curlWritesHost(value)) continue;
    args.push('-H', shellQuote(value === '' ? `${name};` : `${name}: ${value}`));
  }
  if (hostValue === undefined) args.push('-H', shellQuote('Host:'));
  for (const name of CURL_DEFAULT_HEADERS) if (!has(name)) args.push('-H', shellQuote(`${name}:`));
  if (hasBody && !has('Content-Type')) args.push('-H', shellQuote('Content-Type:'));
  if (req.body.length > CURL_EXPECT_THRESHOLD && !has('Expect')) args.push('-H', shellQuote('Expect:'));

  let prefix = '';
  if (hasBody) {
    if (req.body.includes(0)) {
      prefix = `printf ${printfQuote(req.body)} | `;
      args.push('--data-binary', '@-');
    } else {
      args.push(req.body[0] === 0x40 ? '--data-raw' : '--data-binary', shellQuote(req.body));
    }
  }
  // curl reads [] and {} in a URL as glob patterns (an IPv6 literal has brackets).
  if (/[[\]{}]/.test(url)) args.push('-g');
  args.push(shellQuote(url));

  const comments = curlCaveats(req).map((note) => `# ${note}\n`);
  return comments.join('') + prefix + args.join(' ');
}

/**
 * A command that sends exactly `bytes` to `host`:`port` over plain TCP:
 * `printf '...' | nc host port`. The format string uses only escapes POSIX printf knows
 * (`\r`, `\n`, `\t`, `\\`, `%%` and three-digit octal `\NNN`), so it works in sh, dash, bash
 * and zsh alike, NUL bytes included. This is the way to send what curl cannot: invalid
 * requests, smuggling attempts, pipelined requests. (Some nc variants keep the connection open
 * after stdin ends; OpenBSD nc takes -N to close it, others -q 1.)
 */
export function toPrintfNc(bytes: Uint8Array, host: string, port: number): string {
  return `printf ${printfQuote(bytes)} | nc ${shellWord(host)} ${port}`;
}

/** A command to copy: curl when it can send the request faithfully, else printf | nc. */
export interface CopyCommand {
  kind: 'curl' | 'printf-nc';
  command: string;
}

/**
 * The command the UI offers: {@link toCurl} for `request` (pass it only when the whole input is
 * one request that parsed) unless curl cannot send it, else {@link toPrintfNc} of the bytes to
 * the request's Host (default port 80), or to `fallback` when there is none.
 */
export function copyCommand(
  bytes: Uint8Array,
  request: CurlRequest | null,
  fallback: { host: string; port: number } = { host: 'localhost', port: 80 },
): CopyCommand {
  if (request !== null) {
    const curl = toCurl(request, { host: fallback.host });
    if (curl !== null) return { kind: 'curl', command: curl };
  }
  let { host, port } = fallback;
  const hostValue = request?.headers.find(([n]) => n.toLowerCase() === 'host')?.[1];
  const m = hostValue ? /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostValue) : null;
  if (m && m[1] !== '') {
    host = m[1].replace(/^\[(.*)\]$/, '$1');
    if (m[2]) port = Number(m[2]);
    else port = 80;
  }
  return { kind: 'printf-nc', command: toPrintfNc(bytes, host, port) };
}

/**
 * A shell word for bash, zsh or sh that means `value` (a string of byte-valued characters, or
 * bytes): plain single quotes when every byte is printable ASCII other than `'`, else bash
 * ANSI-C quoting `$'...'` with `\'`, `\\`, `\r`, `\n`, `\t` and `\xNN` for the rest (`!` too,
 * so that history expansion never touches it). Bytes are passed as they are: a header value
 * with 0xE9 reaches curl as the byte 0xE9.
 */
export function shellQuote(value: string | Uint8Array): string {
  const bytes = typeof value === 'string' ? latin1Bytes(value) : value;
  let plain = true;
  for (const b of bytes) if (b < 0x20 || b >= 0x7f || b === 0x27) plain = false;
  if (plain) return `'${latin1Text(bytes)}'`;
  let out = "$'";
  for (const b of bytes) {
    if (b === 0x27) out += "\\'";
    else if (b === 0x5c) out += '\\\\';
    else if (b === CR) out += '\\r';
    else if (b === LF) out += '\\n';
    else if (b === 0x09) out += '\\t';
    else if (b === 0x21 || b < 0x20 || b >= 0x7f) out += '\\x' + hex2(b);
    else out += String.fromCharCode(b);
  }
  return out + "'";
}

/** `value` bare when it holds only characters no shell treats specially, else {@link shellQuote}d. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_.:\/-]+$/.test(value) ? value : shellQuote(value);
}

/** A single-quoted printf format that prints exactly `bytes` (see {@link toPrintfNc}). */
function printfQuote(bytes: Uint8Array): string {
  let out = "'";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === CR) out += '\\r';
    else if (b === LF) out += '\\n';
    else if (b === 0x09) out += '\\t';
    else if (b === 0x5c) out += '\\\\';
    else if (b === 0x25) out += '%%';
    // A quote cannot appear inside single quotes, and a format starting with '-' would be read
    // as an option: printf reads their octal escapes instead.
    else if (b === 0x27 || b < 0x20 || b >= 0x7f || (b === 0x2d && i === 0)) {
      out += '\\' + b.toString(8).padStart(3, '0');
    }
    else out += String.fromCharCode(b);
  }
  return out + "'";
}

/** Whether curl, given `http://<value>/...`, sends `Host: <value>` byte for byte. */
function curlWritesHost(value: string): boolean {
  const m = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::([1-9][0-9]{0,4}))?$/.exec(value);
  return m !== null && m[1] !== '80' && Number(m[1] ?? 80) <= 65535;
}

function isAbsoluteForm(target: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(target);
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const utf8 = new TextEncoder();

/** Two lowercase hex digits. */
function hex2(b: number): string {
  return b.toString(16).padStart(2, '0');
}

function isHexDigit(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}


/** A growable byte array, so that converting text allocates O(log n) times, not per byte. */
class ByteBuilder {
  private buf: Uint8Array;
  private len = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(16, capacity));
  }

  push(b: number): void {
    if (this.len === this.buf.length) this.grow(1);
    this.buf[this.len++] = b;
  }

  pushAll(bytes: Uint8Array): void {
    if (this.len + bytes.length > this.buf.length) this.grow(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }

  private grow(extra: number): void {
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + extra));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
}

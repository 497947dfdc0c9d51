// httparse (crates.io, what hyper and so axum and reqwest run) in the browser: the module
// parsers/build.sh builds from the httparse-wasm crate (playground/parsers/httparse). httparse
// reads heads and chunk-size lines; the stream loop and the framing are its caller's, done here
// as hyper does them and marked as derived.

import { concatBytes, latin1Text } from '../bytes.ts';
import type { Mode, RequestMethods } from '../types.ts';
import { compileModule, lengthBody, newMessage, readStream, type BuildInfo, type ExternalParser, type Framing } from './common.ts';

interface HttparseExports {
  memory: WebAssembly.Memory;
  input_buffer(len: number): number;
  parse_head(request: number, start: number): number;
  parse_head_with(request: number, start: number, options: number): number;
  parse_chunk_size(start: number): number;
  parse_trailers(start: number): number;
}

/** httparse's error kinds, in the order the module reports them (src/lib.rs ERROR_NAMES). */
const ERROR_NAMES = ['HeaderName', 'HeaderValue', 'NewLine', 'Status', 'Token', 'TooManyHeaders', 'Version', 'ChunkSize'];

/** httparse's ParserConfig settings, bit k of an options word turning on HTTPARSE_OPTIONS[k] (src/lib.rs OPTION_NAMES). */
export const HTTPARSE_OPTIONS = [
  'allow_multiple_spaces_in_request_line_delimiters',
  'allow_space_before_first_header_name',
  'ignore_invalid_headers_in_requests',
  'allow_spaces_after_header_name_in_responses',
  'allow_obsolete_multiline_headers_in_responses',
  'allow_multiple_spaces_in_response_status_delimiters',
  'ignore_invalid_headers_in_responses',
] as const;

/** The httparse column, which can also parse with httparse's parser options. */
export interface HttparseParser extends ExternalParser {
  /** HTTPARSE_OPTIONS: the option each bit of `parseWith`'s options turns on. */
  optionNames: readonly string[];
  /** `parse` with the options whose bits `options` sets (see HTTPARSE_OPTIONS). */
  parseWith(bytes: Uint8Array, mode: Mode, requestMethod: RequestMethods, options: number): ReturnType<ExternalParser['parse']>;
}

/** Loads the module (bytes or URL) and gives the column. */
export async function loadHttparse(source: BufferSource | URL | string, info: BuildInfo): Promise<HttparseParser> {
  const instance = await WebAssembly.instantiate(await compileModule(source), {});
  const wasm = instance.exports as unknown as HttparseExports;
  return {
    id: 'httparse',
    label: `httparse ${info.version}`,
    builtFrom: info.builtFrom,
    derived: 'framing, body and the stream loop are derived: what hyper does with httparse’s heads and chunk sizes (RFC 9112 6.3); httparse reports no error offset, so an error is placed at the head’s first byte',
    parse: (bytes, mode, requestMethod) => parse(wasm, bytes, mode, requestMethod, 0),
    optionNames: HTTPARSE_OPTIONS,
    parseWith: (bytes, mode, requestMethod, options) => parse(wasm, bytes, mode, requestMethod, options),
  };
}

function parse(wasm: HttparseExports, bytes: Uint8Array, mode: Mode, requestMethod: RequestMethods, options: number) {
  const inputPointer = wasm.input_buffer(bytes.length); // may grow the memory: call before taking the buffer
  new Uint8Array(wasm.memory.buffer, inputPointer, bytes.length).set(bytes);
  /** The answer's words (the memory may have grown, so the view is made after the call). */
  const words = (pointer: number, count: number): Uint32Array => new Uint32Array(wasm.memory.buffer, pointer, count);
  const text = (offset: number, length: number): string => latin1Text(bytes.subarray(offset, offset + length));
  const fields = (pointer: number, at: number): [string, string][] => {
    const n = words(pointer + at * 4, 1)[0];
    const w = words(pointer + (at + 1) * 4, n * 4);
    return Array.from({ length: n }, (_, k): [string, string] => [text(w[4 * k], w[4 * k + 1]), text(w[4 * k + 2], w[4 * k + 3])]);
  };
  const failed = (pointer: number) => {
    const name = ERROR_NAMES[words(pointer, 2)[1]] ?? 'unknown';
    return { status: 'error' as const, code: name, reason: `httparse::Error::${name}` };
  };

  const head = (offset: number) => {
    const p = wasm.parse_head_with(mode === 'request' ? 1 : 0, offset, options);
    const status = words(p, 1)[0];
    if (status === 1) return { status: 'partial' as const };
    if (status === 2) return failed(p);
    if (mode === 'request') {
      const w = words(p, 7);
      const message = newMessage({ method: text(w[2], w[3]), target: text(w[4], w[5]), version: `HTTP/1.${w[6]}`, headers: fields(p, 7), offset });
      return { status: 'complete' as const, message, end: offset + w[1] };
    }
    const w = words(p, 6);
    const message = newMessage({ status: w[3], version: `HTTP/1.${w[2]}`, headers: fields(p, 6), offset });
    return { status: 'complete' as const, message, end: offset + w[1] };
  };

  const body = (offset: number, framing: Framing, length: number) => {
    if (framing !== 'chunked') return lengthBody(bytes, offset, framing, length);
    // hyper's chunked decoder: httparse's chunk-size line, the data, then CRLF; size 0 ends with the trailer section.
    let at = offset;
    let bodyLength = 0;
    const data: Uint8Array[] = [];
    for (;;) {
      const p = wasm.parse_chunk_size(at);
      const w = words(p, 4);
      if (w[0] === 1) return { status: 'partial' as const, bodyLength };
      if (w[0] === 2) return { status: 'error' as const, code: 'ChunkSize', reason: 'httparse::InvalidChunkSize', offset: at };
      // httparse skips every byte of an extension up to CRLF, a lone LF too; hyper's own decoder,
      // which reads the body, refuses that LF (some parsers end the line there), so its caller does.
      const lf = bytes.subarray(at, at + w[1] - 1).indexOf(0x0a);
      if (lf >= 0) return { status: 'error' as const, code: 'ChunkExtension', reason: 'invalid chunk extension contains newline (hyper)', offset: at + lf };
      const size = w[2] + w[3] * 2 ** 32;
      at += w[1];
      if (size === 0) {
        const t = wasm.parse_trailers(at);
        const tw = words(t, 2);
        if (tw[0] === 1) return { status: 'partial' as const, bodyLength };
        if (tw[0] === 2) return { ...failed(t), offset: at };
        return { status: 'complete' as const, end: at + tw[1], bodyLength, trailers: fields(t, 2), body: concatBytes(data) };
      }
      const available = Math.min(size, bytes.length - at);
      bodyLength += available;
      data.push(bytes.slice(at, at + available));
      if (available < size) return { status: 'partial' as const, bodyLength };
      at += size;
      if (bytes.length - at < 2) return { status: 'partial' as const, bodyLength };
      if (bytes[at] !== 0x0d || bytes[at + 1] !== 0x0a) {
        return { status: 'error' as const, code: 'ChunkData', reason: 'chunk data not followed by CRLF (hyper)', offset: at };
      }
      at += 2;
    }
  };
  return readStream(bytes, mode, requestMethod, head, body);
}

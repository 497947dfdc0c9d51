// picohttpparser (h2o's parser) in the browser: the C source the crates.io crate
// picohttpparser-sys bundles, compiled by parsers/build.sh with clang for wasm32 (wasi-libc,
// no imports). It reads heads (phr_parse_request, phr_parse_response) and decodes chunked
// bodies (phr_decode_chunked); the stream loop and the choice of framing are its caller's,
// derived here.

import { latin1Text } from '../bytes.ts';
import type { Mode, RequestMethods } from '../types.ts';
import { compileModule, lengthBody, newMessage, readStream, type BuildInfo, type ExternalParser, type Framing } from './common.ts';

interface PicoExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(size: number): number;
  free(pointer: number): void;
  phr_parse_request(buf: number, len: number, method: number, methodLen: number, path: number, pathLen: number, minor: number, headers: number, numHeaders: number, lastLen: number): number;
  phr_parse_response(buf: number, len: number, minor: number, status: number, msg: number, msgLen: number, headers: number, numHeaders: number, lastLen: number): number;
  phr_decode_chunked(decoder: number, buf: number, bufsz: number): number;
}

/** Field lines one head may have (h2o's default is 100). */
const MAX_HEADERS = 100;
// The layout of the scratch block (wasm32: pointers, size_t and int are 4 bytes; struct
// phr_header is 16, struct phr_chunked_decoder 8).
const OUT = 0; // 8 words of out-parameters
const HEADERS = 64;
const DECODER = HEADERS + MAX_HEADERS * 16;
const BUFSZ = DECODER + 16;
const SCRATCH = 2048;

/** Loads the module (bytes or URL) and gives the column. */
export async function loadPicohttpparser(source: BufferSource | URL | string, info: BuildInfo): Promise<ExternalParser> {
  // wasi-libc's start-up code links stdio in (fd_close, fd_seek, fd_write), which the parser
  // never calls; each answers ENOSYS should anything reach it.
  const ENOSYS = 52;
  const wasi = { fd_close: () => ENOSYS, fd_seek: () => ENOSYS, fd_write: () => ENOSYS };
  const instance = await WebAssembly.instantiate(await compileModule(source), { wasi_snapshot_preview1: wasi });
  const wasm = instance.exports as unknown as PicoExports;
  wasm._initialize();
  return {
    id: 'picohttpparser',
    label: `picohttpparser (${info.version})`,
    builtFrom: info.builtFrom,
    derived: 'framing and the stream loop are derived (RFC 9112 6.3 applied to the head picohttpparser returns, as its caller would); picohttpparser reports no error offset, so an error is placed at the head’s first byte, or the body’s',
    parse: (bytes, mode, requestMethod) => parse(wasm, bytes, mode, requestMethod),
  };
}

function parse(wasm: PicoExports, bytes: Uint8Array, mode: Mode, requestMethod: RequestMethods) {
  // Input at SCRATCH, a copy for the in-place chunked decoder after it.
  const block = wasm.malloc(SCRATCH + 2 * bytes.length + 16);
  if (block === 0) throw new Error('picohttpparser: out of memory');
  const input = block + SCRATCH;
  const copy = input + bytes.length;
  const u8 = (): Uint8Array => new Uint8Array(wasm.memory.buffer);
  const word = (offset: number): number => new DataView(wasm.memory.buffer).getUint32(block + offset, true);
  const setWord = (offset: number, value: number): void => new DataView(wasm.memory.buffer).setUint32(block + offset, value, true);
  const text = (pointer: number, length: number): string => latin1Text(bytes.subarray(pointer - input, pointer - input + length));
  try {
    u8().set(bytes, input);
    const head = (offset: number) => {
      setWord(OUT + 20, MAX_HEADERS);
      const at = input + offset;
      const left = bytes.length - offset;
      const n =
        mode === 'request'
          ? wasm.phr_parse_request(at, left, block + OUT, block + OUT + 4, block + OUT + 8, block + OUT + 12, block + OUT + 16, block + HEADERS, block + OUT + 20, 0)
          : wasm.phr_parse_response(at, left, block + OUT + 16, block + OUT + 24, block + OUT + 8, block + OUT + 12, block + HEADERS, block + OUT + 20, 0);
      if (n === -2) return { status: 'partial' as const };
      if (n < 0) return { status: 'error' as const, code: 'parse_error', reason: `phr_parse_${mode} returned -1` };
      const headers: [string, string][] = [];
      for (let k = 0; k < word(OUT + 20); k++) {
        const h = HEADERS + 16 * k;
        // A name pointer of 0 marks a folded continuation line (obs-fold), joined to the previous value.
        if (word(h) === 0 && headers.length > 0) headers[headers.length - 1][1] += ' ' + text(word(h + 8), word(h + 12));
        else headers.push([text(word(h), word(h + 4)), text(word(h + 8), word(h + 12))]);
      }
      const version = `HTTP/1.${word(OUT + 16)}`;
      const message =
        mode === 'request'
          ? newMessage({ method: text(word(OUT), word(OUT + 4)), target: text(word(OUT + 8), word(OUT + 12)), version, headers, offset })
          : newMessage({ status: word(OUT + 24), version, headers, offset });
      return { status: 'complete' as const, message, end: offset + n };
    };
    const body = (offset: number, framing: Framing, length: number) => {
      if (framing !== 'chunked') return lengthBody(bytes, offset, framing, length);
      const left = bytes.length - offset;
      u8().set(bytes.subarray(offset), copy);
      u8().fill(0, block + DECODER, block + DECODER + 8);
      u8()[block + DECODER + 4] = 1; // consume_trailer: read the trailer section too
      setWord(BUFSZ, left);
      const rest = wasm.phr_decode_chunked(block + DECODER, copy, block + BUFSZ);
      const decoded = word(BUFSZ);
      if (rest === -2) return { status: 'partial' as const, bodyLength: decoded };
      if (rest < 0) return { status: 'error' as const, code: 'chunked_error', reason: 'phr_decode_chunked returned -1 (no offset reported; the body starts here)', offset };
      // phr_decode_chunked moved the data to the start of the copy.
      const body = u8().slice(copy, copy + decoded);
      return { status: 'complete' as const, end: offset + left - rest, bodyLength: decoded, trailers: [] as [string, string][], body };
    };
    return readStream(bytes, mode, requestMethod, head, body);
  } finally {
    wasm.free(block);
  }
}

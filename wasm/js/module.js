// The loaded wasm module: attaching it (its tables of known headers and error kinds), which build
// was loaded, and views of its memory that follow it when it grows.

import { backend, backendLen, simd128, tables, tablesLen } from './httpspan_wasm.js';
import { LAYOUT } from './layout.js';
import { asciiDecoder } from './text.js';

export let memory = null;
let memoryU8 = null;
let memoryU32 = null;
let loaded = null;
/** The known header names (lowercase), in slot order: bit `k` of `knownBitmap` is `KNOWN_HEADERS[k]`. */
export const KNOWN_HEADERS = [];
export const KNOWN_SLOTS = new Map();
export const ERROR_KINDS = [];

/**
 * Connects this module to an instantiated wasm module: `exports` is what wasm-bindgen's init
 * returned, `build` the build chosen ('simd128', 'baseline' or 'given'), `file` the name of the
 * module file it came from, or null. Called by the entry points.
 */
export function attach(exports, build, file) {
  // The module's tables and names are ASCII text in its memory.
  const text = (at, len) => asciiDecoder.decode(new Uint8Array(exports.memory.buffer, at, len));
  const [layout, known, kinds] = text(tables(), tablesLen()).split('\n\n');
  const theirs = new Map(layout.split(' ').map((pair) => pair.split('=')));
  const ours = Object.entries(LAYOUT);
  if (theirs.size !== ours.length || ours.some(([k, v]) => theirs.get(k) !== String(v))) {
    throw new Error('@httpspan/wasm: the JavaScript and the wasm module disagree on the span layout; rebuild the package');
  }
  KNOWN_HEADERS.length = 0;
  for (const name of known.split('\n')) {
    KNOWN_SLOTS.set(name, KNOWN_HEADERS.length);
    KNOWN_HEADERS.push(name);
  }
  ERROR_KINDS.length = 0;
  for (const line of kinds.split('\n')) {
    const [code, status, rfc, message] = line.split('\t');
    ERROR_KINDS.push(Object.freeze({ code, status: Number(status), rfc, message }));
  }
  memory = exports.memory;
  refreshViews();
  loaded = Object.freeze({ build, file, simd128: simd128(), backend: text(backend(), backendLen()) });
}

/**
 * Which module is loaded: `build` is the build chosen ('simd128'; 'baseline' on an engine
 * without SIMD128; 'given' when init() was given the module), `file` the name of the module file
 * loaded (after a bundler, its name there) or null, `simd128` whether the module was compiled
 * with SIMD128 (asked from the module itself), `backend` the scanning backend the parser runs
 * on in it (`simd128`, or `swar` in the baseline module).
 */
export function buildInfo() {
  if (loaded === null) notLoaded();
  return loaded;
}

export function notLoaded() {
  throw new Error('@httpspan/wasm is not loaded yet: await init() first');
}

function refreshViews() {
  memoryU8 = new Uint8Array(memory.buffer);
  memoryU32 = new Uint32Array(memory.buffer);
}

// Views of the module's memory go stale when it grows: its old buffer is detached, so the views
// become empty. Checking that is much cheaper than reading `memory.buffer` on every call.
export function u8() {
  if (memoryU8.length === 0) refreshViews();
  return memoryU8;
}

export function u32() {
  if (memoryU32.length === 0) refreshViews();
  return memoryU32;
}

// Entry point for Node 20+: loads the module synchronously on import, so the API is ready at
// once. HTTPSPAN_WASM_BUILD=baseline forces the build without SIMD128 (to test the fallback).
import { readFileSync } from 'node:fs';
import { attach } from './module.js';
import { initSync } from './httpspan_wasm.js';
import { FILES, chooseBuild, loadError } from './select.js';

export * from './api.js';

const build = process.env.HTTPSPAN_WASM_BUILD || chooseBuild();
if (!(build in FILES)) throw new Error(`@httpspan/wasm: HTTPSPAN_WASM_BUILD must be simd128 or baseline, not ${build}`);
let exports;
try {
  exports = initSync({ module: readFileSync(new URL(FILES[build], import.meta.url)) });
} catch (cause) {
  throw loadError(build, cause);
}
attach(exports, build, FILES[build]);

/** Already loaded on import; resolves at once (for code shared with browsers). */
export async function init() {}

// Entry point for Cloudflare Workers (workerd and wrangler): the module is imported as a
// compiled WebAssembly.Module and instantiated synchronously, so the API is ready at once.
// workerd always has SIMD128.
import { attach } from './module.js';
import { initSync } from './httpspan_wasm.js';
import wasmModule from './httpspan_wasm_bg.wasm';

export * from './api.js';

attach(initSync({ module: wasmModule }), 'simd128', 'httpspan_wasm_bg.wasm');

/** Already loaded on import; resolves at once. */
export async function init() {}

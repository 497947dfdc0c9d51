// Entry point for browsers and bundlers: `await init()` before the first call. The module
// file is found next to this one (bundlers see the `new URL(..., import.meta.url)` literals and
// ship both files), or given as `init(urlOrResponseOrBytesOrModule)`.
import { attach } from './module.js';
import initWasm from './httpspan_wasm.js';
import { chooseBuild, loadError } from './select.js';

export * from './api.js';

let loading;

/** Loads the module once; later calls return the same promise. */
export function init(source) {
  loading ??= load(source).catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(source) {
  const build = source === undefined ? chooseBuild() : 'given';
  const url = build === 'simd128'
    ? new URL('./httpspan_wasm_bg.wasm', import.meta.url)
    : new URL('./httpspan_wasm_baseline_bg.wasm', import.meta.url);
  let exports;
  try {
    exports = await initWasm({ module_or_path: source ?? url });
  } catch (cause) {
    throw loadError(build, cause);
  }
  attach(exports, build, fileName(source ?? url));
}

/** The last segment of the module's URL, or null when the module was given as bytes or compiled. */
function fileName(source) {
  const url = source instanceof URL ? source : typeof source === 'string' ? new URL(source, 'file:///') : null;
  return url === null ? null : url.pathname.split('/').pop();
}

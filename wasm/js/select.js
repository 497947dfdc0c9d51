// Which of the two modules to load. Engines without SIMD128 get the baseline build, compiled
// without it; the probe is the smallest module that uses a SIMD128 instruction
// (a function returning `i8x16.splat(i32.const 0)`), which only such engines validate.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b, // code: i32.const 0, i8x16.splat, end
]);

/** The module files in the package, by build. */
export const FILES = {
  simd128: 'httpspan_wasm_bg.wasm',
  baseline: 'httpspan_wasm_baseline_bg.wasm',
};

/** 'simd128' when `engine` (WebAssembly, by default) validates SIMD128 code, else 'baseline'. */
export function chooseBuild(engine = WebAssembly) {
  return engine.validate(SIMD_PROBE) ? 'simd128' : 'baseline';
}

/** An Error that says which module failed to load, with the engine's error as its cause. */
export function loadError(build, cause) {
  const file = FILES[build] ? ` (${FILES[build]})` : '';
  return new Error(`@httpspan/wasm: could not load the ${build} module${file}: ${cause?.message ?? cause}`, { cause });
}

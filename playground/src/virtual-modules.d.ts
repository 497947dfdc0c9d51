// Modules that Vite plugins provide (vite-plugins/); they exist only inside the Vite build.

/** llhttp's wasm module from the undici package (vite-plugins/llhttp.ts). */
declare module 'virtual:llhttp-wasm' {
  /** URL of the SIMD128 build of the module: an emitted asset in builds, a dev-server path in dev. */
  const url: string;
  export default url;
  /** The undici release the module comes from. */
  export const undiciVersion: string;
  /** The llhttp release, when undici records it; null for now (undici does not say). */
  export const llhttpVersion: string | null;
}

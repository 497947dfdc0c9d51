// The llhttp WebAssembly module for the compare view, taken from the undici package.
//
// undici ships llhttp's wasm builds as CommonJS files holding the module in base64
// (undici/lib/llhttp/llhttp_simd-wasm.js exports it as a Buffer). The browser cannot load those
// files, and inlining 72 kB of base64 into the app bundle would slow every page load for a
// feature that only the compare view uses, so this plugin turns the module into a real `.wasm`
// file that the app fetches when it needs it:
//
//   import llhttpUrl, { undiciVersion } from 'virtual:llhttp-wasm';
//   const llhttp = await loadLlhttp(llhttpUrl);        // src/lib/llhttp.ts
//
// - `vite build`: the bytes are emitted as an asset (assets/llhttp_simd-<hash>.wasm), and the
//   URL is resolved by the bundler, so it honours `base: './'` (relative to the importing chunk).
// - `vite serve`: a middleware serves the bytes at DEV_PATH with the `application/wasm` type
//   (which WebAssembly.compileStreaming requires).
//
// The bytes are read from node_modules at build time and never copied into the repository.

import type { Plugin } from 'vite';

/** The id the app imports. */
export const VIRTUAL_ID = 'virtual:llhttp-wasm';
// The '\0' prefix is the Rollup convention for ids that are not files, so no other plugin
// (and no file watcher) tries to read it.
const RESOLVED_ID = '\0' + VIRTUAL_ID;

/** Where the dev server serves the module (relative to the dev server's base). */
const DEV_PATH = '__llhttp/llhttp_simd.wasm';

/** Which of undici's two builds: with SIMD128 (what undici uses by default) or without. */
export type LlhttpBuild = 'simd' | 'baseline';

const FILES: Record<LlhttpBuild, string> = {
  simd: 'undici/lib/llhttp/llhttp_simd-wasm.js',
  baseline: 'undici/lib/llhttp/llhttp-wasm.js',
};

// The playground has no @types/node (the app runs in browsers; only this plugin and the tests
// run in Node), so the one Node API needed is typed here instead of importing 'node:module'.
// process.getBuiltinModule exists from Node 20.16; package.json asks for >= 20.19.
type NodeRequire = (id: string) => unknown;
interface NodeProcess {
  getBuiltinModule(id: 'node:module'): { createRequire(from: string | URL): NodeRequire };
}

/** A `require` resolving from this file, so undici is found in the playground's node_modules. */
function nodeRequire(): NodeRequire {
  const process = (globalThis as unknown as { process?: Partial<NodeProcess> }).process;
  if (typeof process?.getBuiltinModule !== 'function') {
    throw new Error('readLlhttpWasm needs Node.js 20.16 or later (process.getBuiltinModule)');
  }
  return process.getBuiltinModule('node:module').createRequire(import.meta.url);
}

/**
 * The bytes of undici's llhttp wasm module (Node only: at build time and in tests).
 *
 * Loads undici's CommonJS file, which decodes its base64 into a Buffer, and checks the wasm
 * magic number so that a change of undici's file layout fails here, loudly, rather than as a
 * broken module in the browser.
 */
export function readLlhttpWasm(build: LlhttpBuild = 'simd'): Uint8Array<ArrayBuffer> {
  const exported = nodeRequire()(FILES[build]);
  if (!(exported instanceof Uint8Array)) {
    throw new Error(`${FILES[build]} no longer exports the module's bytes; see how undici loads llhttp`);
  }
  // A plain copy: the Buffer may be a view into Node's shared pool, and Vite hashes `source`.
  const bytes = new Uint8Array(exported);
  const magic = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"
  if (bytes.length < 8 || magic.some((b, i) => bytes[i] !== b)) {
    throw new Error(`${FILES[build]} does not hold a WebAssembly module`);
  }
  return bytes;
}

/**
 * The version of the undici package the module comes from. undici does not record which llhttp
 * release it bundles (neither in package.json nor in lib/llhttp/constants.js), so this is the
 * most precise provenance there is.
 */
export function readUndiciVersion(): string {
  const pkg = nodeRequire()('undici/package.json') as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

/**
 * The Vite plugin providing `virtual:llhttp-wasm`:
 * - `default`: the URL of llhttp's SIMD wasm module (a string; relative URLs are resolved
 *   against the document, so pass it to fetch or `loadLlhttp` as it is),
 * - `undiciVersion`: the undici release it comes from,
 * - `llhttpVersion`: always null, since undici does not say which llhttp it bundles (kept so
 *   that the UI does not need to change if a later undici records it).
 */
export function llhttpWasm(): Plugin {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  let serving = false;
  let base = '/';

  // Read lazily: most dev-server and test runs never import the virtual module.
  const wasm = (): Uint8Array<ArrayBuffer> => (bytes ??= readLlhttpWasm('simd'));

  return {
    name: 'httpspan:llhttp-wasm',

    configResolved(config) {
      serving = config.command === 'serve';
      // In dev, Vite turns a relative base ('./') into '/'; it always ends with '/'.
      base = config.base;
    },

    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        // (Typed by hand: without @types/node, Vite's IncomingMessage has no `url`.)
        const path = ((req as { url?: string }).url ?? '').split('?')[0];
        if (path !== base + DEV_PATH) return next();
        res.setHeader('Content-Type', 'application/wasm');
        res.setHeader('Cache-Control', 'no-cache');
        res.end(wasm());
      });
    },

    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : null;
    },

    load(id) {
      if (id !== RESOLVED_ID) return null;
      const versions =
        `export const undiciVersion = ${JSON.stringify(readUndiciVersion())};\n` +
        'export const llhttpVersion = null;\n';
      if (serving) {
        return `export default ${JSON.stringify(base + DEV_PATH)};\n${versions}`;
      }
      // The bundler replaces import.meta.ROLLUP_FILE_URL_<ref> with the emitted file's URL;
      // Vite's asset plugin makes it relative to the chunk when base is './'.
      const ref = this.emitFile({ type: 'asset', name: 'llhttp_simd.wasm', source: wasm() });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};\n${versions}`;
    },
  };
}

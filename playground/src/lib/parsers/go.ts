// Go's net/http in the browser: parsers/go/main.go built with GOOS=js GOARCH=wasm, run with the
// wasm_exec.js of the same Go release (both copied into parsers/dist/ by parsers/build.sh). Go
// reads the stream itself (http.ReadRequest / http.ReadResponse over one bufio.Reader, the body
// read through), so nothing in this column is derived except the error offset: Go's errors
// carry none, and the offset shown is how far Go had read when it gave up.

import type { PeerResult } from '../llhttp.ts';
import { compileModule, type BuildInfo, type ExternalParser } from './common.ts';

/** What wasm_exec.js defines on globalThis. */
interface GoRuntime {
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): Promise<void>;
}
type GoGlobals = typeof globalThis & {
  Go?: new () => GoRuntime;
  httpspanGoParse?: (mode: string, bytes: Uint8Array, method: string) => string;
};

/**
 * Loads the module (bytes or URL) with Go's runtime and gives the column. wasm_exec.js must
 * have been evaluated first (it defines globalThis.Go).
 */
export async function loadGo(source: BufferSource | URL | string, info: BuildInfo): Promise<ExternalParser> {
  const g = globalThis as GoGlobals;
  if (!g.Go) throw new Error('Go: wasm_exec.js is not loaded');
  const go = new g.Go();
  const instance = await WebAssembly.instantiate(await compileModule(source), go.importObject);
  // run() resolves only when the program exits; main() blocks forever after registering.
  void go.run(instance);
  const goParse = g.httpspanGoParse;
  if (!goParse) throw new Error('Go: the module did not register httpspanGoParse');
  return {
    id: 'go',
    label: `Go net/http (${info.version})`,
    builtFrom: info.builtFrom,
    derived: 'the error offset is derived: Go’s errors carry none, so it is how far Go had read when it gave up',
    parse: (bytes, mode, requestMethod) => {
      // Methods are tokens, so a comma separates one per response (main.go splits them).
      const methods = typeof requestMethod === 'string' ? requestMethod : requestMethod.join(',');
      const result = JSON.parse(goParse(mode, bytes, methods)) as PeerResult;
      // Go's JSON carries each body in base64 (null when empty).
      for (const m of result.messages) m.body = base64Bytes(m.body as unknown as string | null);
      return result;
    },
  };
}

/** The bytes of a base64 string (Go's encoding of []byte), empty for null. */
function base64Bytes(text: string | null): Uint8Array {
  if (!text) return new Uint8Array(0);
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

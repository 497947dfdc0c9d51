// A throwaway project that depends on the built package, for the wasm package's tests of how
// users install and bundle it.
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built package (wasm/pkg/). */
export const pkg = fileURLToPath(new URL('../../wasm/pkg/', import.meta.url));

/** A new directory whose node_modules/@httpspan/wasm is the built package, with an empty dist/. */
export function packageProject() {
  const root = mkdtempSync(join(tmpdir(), 'httpspan-project-'));
  mkdirSync(join(root, 'node_modules/@httpspan'), { recursive: true });
  symlinkSync(pkg, join(root, 'node_modules/@httpspan/wasm'), 'dir');
  mkdirSync(join(root, 'dist'));
  return root;
}

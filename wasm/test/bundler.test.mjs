// A bundler takes the package as an installed dependency: Vite resolves '@httpspan/wasm' to the
// web entry through the package's exports, and ships both modules (found through their
// `new URL(..., import.meta.url)` literals) byte for byte beside the bundle that refers to them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const pkg = fileURLToPath(new URL('../pkg', import.meta.url));

test('Vite bundles the web entry with both wasm modules', async () => {
  const root = mkdtempSync(join(tmpdir(), 'httpspan-vite-'));
  try {
    mkdirSync(join(root, 'node_modules/@httpspan'), { recursive: true });
    symlinkSync(pkg, join(root, 'node_modules/@httpspan/wasm'), 'dir');
    writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n');
    writeFileSync(join(root, 'main.js'), `import { init, parseRequest } from '@httpspan/wasm';
await init();
document.body.textContent = parseRequest(new TextEncoder().encode('GET / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n')).state;
`);
    await build({ root, logLevel: 'silent', build: { outDir: join(root, 'dist'), target: 'es2022' } });
    const assets = join(root, 'dist/assets');
    const files = readdirSync(assets);
    const bundle = files.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n');
    for (const name of ['httpspan_wasm_bg', 'httpspan_wasm_baseline_bg']) {
      const emitted = files.find((f) => f.startsWith(`${name}-`) && f.endsWith('.wasm'));
      assert.ok(emitted, `${name} in ${files}`);
      assert.deepEqual(readFileSync(join(assets, emitted)), readFileSync(join(pkg, `${name}.wasm`)));
      assert.ok(bundle.includes(emitted), `the bundle refers to ${emitted}`);
    }
    assert.ok(bundle.includes('@httpspan/wasm is not loaded yet'), 'the web entry was bundled');
    assert.ok(!bundle.includes('readFileSync'), 'not the Node entry');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// esbuild, as the package README says to use it: a Node bundle with the modules copied beside
// it, and a Worker bundle (the `workerd` condition, the module kept as a wasm import) served by
// plain workerd from a config of two modules. Both import the package by name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';
import { packageProject, pkg } from '../../tests/wasm/project.mjs';
import { serveWorkerd } from '../../tests/wasm/workerd.mjs';

test('esbuild bundles the Node entry; the modules are copied beside the bundle', async () => {
  const root = packageProject();
  try {
    writeFileSync(join(root, 'app.mjs'), `import { buildInfo, parseRequest, toNodeHeaders } from '@httpspan/wasm';
const head = parseRequest(new TextEncoder().encode('GET /bundled HTTP/1.1\\r\\nHost: a\\r\\nSet-Cookie: x=1\\r\\n\\r\\n'));
console.log(JSON.stringify({ ...buildInfo(), target: head.target, headers: { ...toNodeHeaders(head) } }));`);
    await build({ entryPoints: [join(root, 'app.mjs')], bundle: true, platform: 'node', format: 'esm', outfile: join(root, 'dist/app.mjs'), logLevel: 'silent' });
    for (const file of ['httpspan_wasm_bg.wasm', 'httpspan_wasm_baseline_bg.wasm']) copyFileSync(join(pkg, file), join(root, 'dist', file));
    const out = JSON.parse(execFileSync(process.execPath, [join(root, 'dist/app.mjs')], { encoding: 'utf8' }));
    assert.deepEqual(out, {
      build: 'simd128', file: 'httpspan_wasm_bg.wasm', simd128: true, backend: 'simd128', target: '/bundled',
      headers: { host: 'a', 'set-cookie': ['x=1'] },
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('esbuild bundles a Worker for plain workerd: one JavaScript module and the wasm module', async () => {
  const root = packageProject();
  try {
    writeFileSync(join(root, 'worker.js'), `import { buildInfo, parseRequest, toRequest } from '@httpspan/wasm';
export default {
  async fetch(request) {
    const head = parseRequest(new Uint8Array(await request.arrayBuffer()));
    if (head.state !== 'complete') return Response.json({ ...buildInfo(), error: head.error?.code }, { status: 422 });
    const parsed = toRequest(head, null, { base: 'https://origin.example' });
    return Response.json({ ...buildInfo(), url: parsed.url, method: parsed.method });
  },
};`);
    await build({
      entryPoints: [join(root, 'worker.js')], bundle: true, format: 'esm', platform: 'browser',
      conditions: ['workerd', 'worker'], external: ['*.wasm'], outfile: join(root, 'dist/worker.js'), logLevel: 'silent',
    });
    const bundle = readFileSync(join(root, 'dist/worker.js'), 'utf8');
    assert.match(bundle, /from "\.\/httpspan_wasm_bg\.wasm"/, 'the module stays a wasm import');
    copyFileSync(join(pkg, 'httpspan_wasm_bg.wasm'), join(root, 'dist/httpspan_wasm_bg.wasm'));
    writeFileSync(join(root, 'dist/config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "httpspan_wasm_bg.wasm", wasm = embed "httpspan_wasm_bg.wasm"),
  ],
  compatibilityDate = "2026-11-01",
);
`);
    const { base, stop } = await serveWorkerd(join(root, 'dist/config.capnp'));
    try {
      const post = (body) => fetch(base, { method: 'POST', body });
      assert.deepEqual(await (await post('DELETE /bob?x=1 HTTP/1.1\r\nHost: a\r\n\r\n')).json(), {
        build: 'simd128', file: 'httpspan_wasm_bg.wasm', simd128: true, backend: 'simd128', url: 'https://origin.example/bob?x=1', method: 'DELETE',
      });
      const bad = await post('GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n');
      assert.deepEqual([bad.status, (await bad.json()).error], [422, 'duplicate_host']);
    } finally {
      await stop();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

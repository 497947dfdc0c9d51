// wrangler dev in local mode (no network: CLOUDFLARE_CF_FETCH_ENABLED=false) serving the
// inspect Worker example from a project that installs the package and imports it by name:
// wrangler picks the `workerd` entry by its export condition and bundles the wasm import.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../tests/wasm/net.mjs';
import { packageProject } from '../../tests/wasm/project.mjs';

const wrangler = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
const example = fileURLToPath(new URL('../examples/inspect/worker.js', import.meta.url));

test('wrangler dev (local) runs a Worker that imports @httpspan/wasm by name', { timeout: 120_000 }, async () => {
  const root = packageProject();
  copyFileSync(example, join(root, 'worker.js'));
  writeFileSync(join(root, 'wrangler.toml'), 'name = "inspect"\nmain = "worker.js"\ncompatibility_date = "2026-04-01"\n');
  const port = await freePort();
  // Its own process group, so that wrangler and the workerd it starts are stopped together.
  const child = spawn(process.execPath, [wrangler, 'dev', '--local', '--ip', '127.0.0.1', '--port', String(port)], {
    cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', CI: '1' },
  });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  try {
    const base = `http://127.0.0.1:${port}`;
    let build = null;
    for (const deadline = Date.now() + 90_000; build === null && Date.now() < deadline && child.exitCode === null;) {
      try {
        build = await (await fetch(`${base}/build`)).json();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    assert.deepEqual(build, { build: 'simd128', file: 'httpspan_wasm_bg.wasm', simd128: true, backend: 'simd128' }, log);
    const answer = await fetch(base, { method: 'POST', body: 'GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n' });
    assert.equal(answer.status, 422);
    assert.deepEqual((await answer.json()).error, {
      code: 'duplicate_content_length', message: 'more than one Content-Length field', offset: 44, rfc: 'RFC 9112 6.3', status: 400,
    });
  } finally {
    if (child.exitCode === null) {
      process.kill(-child.pid, 'SIGTERM');
      await once(child, 'exit');
    }
    rmSync(root, { recursive: true, force: true });
  }
});

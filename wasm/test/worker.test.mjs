// The Worker example (examples/worker/) in workerd from the npm package `workerd`, on 127.0.0.1.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../tests/wasm/net.mjs';

const wasmDir = fileURLToPath(new URL('../', import.meta.url));

async function waitForServer(base, child) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      return await fetch(`${base}/build`);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('workerd did not start');
}

test('the Worker example parses raw HTTP bytes in workerd', async () => {
  const port = await freePort();
  // The binary itself, not a wrapper, so that its pid is the one stopped below.
  const child = spawn('node_modules/.bin/workerd', ['serve', 'examples/worker/config.capnp', '--socket-addr', `http=127.0.0.1:${port}`], {
    cwd: wasmDir, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const base = `http://127.0.0.1:${port}`;
  try {
    const build = await (await waitForServer(base, child).catch((e) => { throw new Error(`${e.message}: ${stderr}`); })).json();
    assert.deepEqual(build, { build: 'simd128', file: 'httpspan_wasm_bg.wasm', simd128: true, backend: 'simd128' });

    const post = (path, body) => fetch(`${base}${path}`, { method: 'POST', body: Buffer.from(body, 'latin1') });
    const ok = await post('/', 'PATCH /items/7 HTTP/1.1\r\nHost: api.example.com\r\nContent-Length: 2\r\nX-Obs: \xe9\r\n\r\n{}');
    assert.equal(ok.status, 200);
    const head = await ok.json();
    assert.deepEqual([head.state, head.method, head.target, head.contentLength, head.framing], ['complete', 'PATCH', '/items/7', '2', 'length']);
    assert.deepEqual(head.fields.map((f) => [f.name, f.value]), [['Host', 'api.example.com'], ['Content-Length', '2'], ['X-Obs', '\xe9']]);
    assert.deepEqual(head.targetSpan, { offset: 6, length: 8 });

    const bad = await post('/', 'GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n');
    assert.equal(bad.status, 422);
    assert.deepEqual((await bad.json()).error, {
      code: 'content_length_with_transfer_encoding', message: 'both Content-Length and Transfer-Encoding',
      offset: 53, rfc: 'RFC 9112 6.3', status: 400,
    });

    const response = await (await post('/?response&method=HEAD', 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n')).json();
    assert.deepEqual([response.status, response.reason, response.framing], [200, 'OK', 'none']);
  } finally {
    child.kill();
    if (child.exitCode === null) await once(child, 'exit');
  }
});

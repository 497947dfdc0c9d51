// The inspect Worker example (examples/inspect/) in workerd from the npm package `workerd`, on 127.0.0.1.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { serveWorkerd } from '../../tests/wasm/workerd.mjs';

const config = fileURLToPath(new URL('../examples/inspect/config.capnp', import.meta.url));

test('the inspect Worker example parses raw HTTP bytes in workerd, importing the package by name', async () => {
  const { base, stop } = await serveWorkerd(config, { path: '/build' });
  try {
    const build = await (await fetch(`${base}/build`)).json();
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

    // decodeStream over the Worker's request.body, sent in pieces.
    const pipelined = 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwiki\r\n5\r\npedia\r\n0\r\nX-Sum: 9\r\n\r\n'
      + 'GET /b HTTP/1.1\r\nHost: x\r\n\r\nPUT /c HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc';
    const pieces = [pipelined.slice(0, 40), pipelined.slice(40, 70), pipelined.slice(70)];
    const body = new ReadableStream({
      pull(controller) {
        const piece = pieces.shift();
        if (piece === undefined) controller.close();
        else controller.enqueue(Buffer.from(piece, 'latin1'));
      },
    });
    const streamed = await (await fetch(`${base}/stream`, { method: 'POST', body, duplex: 'half' })).json();
    assert.deepEqual(streamed.messages.map((m) => [m.head.method, m.head.target, m.bodyLength, m.trailers]),
      [['POST', '/a', 9, [['X-Sum', '9']]], ['GET', '/b', 0, []], ['PUT', '/c', 3, []]]);
    assert.deepEqual(streamed.messages.map((m) => m.offset), [0, pipelined.indexOf('GET /b'), pipelined.indexOf('PUT /c')]);
    const smuggled = await post('/stream', 'GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n');
    assert.equal(smuggled.status, 422);
    const failed = await smuggled.json();
    assert.deepEqual([failed.messages.length, failed.error.code, failed.error.offset], [1, 'content_length_with_transfer_encoding', 74]);
  } finally {
    await stop();
  }
});

// The upstream Worker example (examples/upstream/) in workerd: it speaks HTTP/1.1 over
// cloudflare:sockets to an upstream served here on 127.0.0.1, streams the decoded answer back,
// and answers 502 with the error where the upstream's answer is shaped for smuggling.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { serveWorkerd } from '../../tests/wasm/workerd.mjs';

const config = fileURLToPath(new URL('../examples/upstream/config.capnp', import.meta.url));

// What the upstream answers, by path.
const ANSWERS = {
  '/chunked': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\nSet-Cookie: a=1\r\n'
    + 'Set-Cookie: b=2\r\nConnection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nX-Sum: 9\r\n\r\n',
  '/early': 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 404 Not Here\r\nContent-Length: 4\r\n\r\ngone',
  '/smuggle': 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\n\r\n',
  '/cut': 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this',
};

/** An HTTP/1.1 upstream that records each request head and body it reads, and answers ANSWERS[path]. */
async function upstream() {
  const seen = [];
  const server = net.createServer((socket) => {
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(data.slice(0, end))?.[1] ?? 0);
      if (data.length < end + 4 + length) return;
      const [method, path] = data.split(' ');
      seen.push({ method, path, body: data.slice(end + 4) });
      socket.end(Buffer.from(ANSWERS[path] ?? 'HTTP/1.1 500 No Such Path\r\nContent-Length: 0\r\n\r\n', 'latin1'));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, seen, address: `127.0.0.1:${server.address().port}` };
}

test('the upstream Worker streams decoded answers over cloudflare:sockets, and answers 502 for smuggling shapes', async () => {
  const up = await upstream();
  const { base, stop } = await serveWorkerd(config, { env: { UPSTREAM: up.address } });
  try {
    const chunked = await fetch(`${base}/chunked`);
    assert.equal(chunked.status, 200);
    assert.equal(await chunked.text(), 'hello world');
    assert.equal(chunked.headers.get('content-type'), 'text/plain');
    assert.deepEqual(chunked.headers.getSetCookie(), ['a=1', 'b=2']);

    const early = await fetch(`${base}/early`, { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } });
    assert.deepEqual([early.status, early.statusText, await early.text()], [404, 'Not Here', 'gone']);
    assert.deepEqual(up.seen.find((r) => r.path === '/early'), { method: 'POST', path: '/early', body: 'payload' });

    const smuggle = await fetch(`${base}/smuggle`);
    assert.equal(smuggle.status, 502);
    assert.deepEqual((await smuggle.json()).error, {
      code: 'content_length_with_transfer_encoding', message: 'both Content-Length and Transfer-Encoding', offset: 36, rfc: 'RFC 9112 6.3', status: 502,
    });

    // A body cut short fails the stream rather than ending it as if complete.
    await assert.rejects(fetch(`${base}/cut`).then((r) => r.text()));
  } finally {
    await stop();
    up.server.close();
  }
});

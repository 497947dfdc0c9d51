// The Node server example (examples/node-server/), run as a user would run it, with the package
// installed by name, against real requests on 127.0.0.1: Node's http client with keep-alive,
// pipelined raw requests, and invalid ones answered with their status and error.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { httpRequest } from '../../tests/wasm/net.mjs';
import { packageProject } from '../../tests/wasm/project.mjs';

const example = fileURLToPath(new URL('../examples/node-server/server.mjs', import.meta.url));

/** The raw bytes a server sends on one connection for `input`, until it closes. */
async function exchange(port, input) {
  const socket = net.connect(port, '127.0.0.1');
  socket.end(Buffer.from(input, 'latin1'));
  let out = '';
  socket.setEncoding('latin1');
  socket.on('data', (d) => { out += d; });
  await once(socket, 'close');
  return out;
}

test('the Node server example answers keep-alive, pipelined and chunked requests, and rejects smuggling shapes', async () => {
  const root = packageProject();
  copyFileSync(example, join(root, 'server.mjs'));
  const child = spawn(process.execPath, ['server.mjs'], { cwd: root, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = await once(child.stdout, 'data');
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(String(line))[1]);

    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const first = await httpRequest(agent, port, { path: '/items?id=7', headers: { 'x-id': '42', cookie: 'a=1' } });
    assert.equal(first.status, 200);
    const read = JSON.parse(first.data);
    assert.deepEqual([read.method, read.target, read.headers['x-id'], read.bodyLength], ['GET', '/items?id=7', '42', 0]);
    // A chunked body with a trailer, on the same connection.
    const second = await httpRequest(agent, port, { method: 'POST', path: '/upload', headers: { trailer: 'x-sum' } }, (req) => {
      req.write('hello ');
      req.addTrailers({ 'x-sum': '11' });
      req.end('world');
    });
    const chunked = JSON.parse(second.data);
    assert.deepEqual([chunked.method, chunked.headers['transfer-encoding'], chunked.bodyLength, chunked.trailers], ['POST', 'chunked', 11, [['x-sum', '11']]]);
    assert.equal(second.socket, first.socket, 'keep-alive: one connection');
    agent.destroy();

    const pipelined = await exchange(port, 'GET /a HTTP/1.1\r\nHost: x\r\n\r\nPUT /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /never HTTP/1.1\r\nHost: x\r\n\r\n');
    const targets = [...pipelined.matchAll(/"target":"([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(targets, ['/a', '/b', '/c'], 'three answers in order; nothing read after Connection: close');
    assert.match(pipelined, /Connection: close\r\n\r\n\{"method":"GET","target":"\/c"/);

    const smuggled = await exchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    assert.match(smuggled, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.deepEqual(JSON.parse(smuggled.slice(smuggled.indexOf('\r\n\r\n') + 4)).error,
      { code: 'content_length_with_transfer_encoding', message: 'both Content-Length and Transfer-Encoding', offset: 45, rfc: 'RFC 9112 6.3', status: 400 });
    const fields = Array.from({ length: 65 }, (_, i) => `X-${i}: ${i}\r\n`).join('');
    assert.match(await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\n${fields}\r\n`), /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n[^]*"code":"too_many_fields"/);
  } finally {
    child.kill();
    if (child.exitCode === null) await once(child, 'exit');
    rmSync(root, { recursive: true, force: true });
  }
});

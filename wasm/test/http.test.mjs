// Round trips with Node's own HTTP implementation over 127.0.0.1: Node's http client sends to a
// `net` server that parses the raw bytes with the package, and a `net` client reads the raw
// bytes of Node's http server with the package.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { test } from 'node:test';
import { Decoder } from '../pkg/node.js';
import { httpRequest } from '../../tests/wasm/net.mjs';

const latin1 = (data) => Buffer.from(data).toString('latin1');

// A server that answers each request with a JSON description of what httpspan parsed.
function describingServer() {
  return net.createServer((socket) => {
    const decoder = new Decoder('request');
    let current = null;
    socket.on('data', (chunk) => {
      for (const event of decoder.push(chunk)) {
        if (event.type === 'head') {
          const { method, target, version, fields, chunked, contentLength, keepAlive } = event.head;
          current = { method, target, version, fields: fields.map((f) => [f.name, f.value]), chunked, contentLength: String(contentLength), keepAlive, body: '', offset: event.offset };
        } else if (event.type === 'body') {
          current.body += latin1(event.data);
        } else if (event.type === 'end') {
          const json = JSON.stringify(current);
          socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
        } else if (event.type === 'error') {
          const { code, offset } = event.error;
          socket.end(`HTTP/1.1 ${event.error.status} Bad Request\r\nConnection: close\r\nContent-Length: 0\r\nX-Error: ${code} at ${offset}\r\n\r\n`);
        } else if (event.type === 'closed') {
          socket.end();
        }
      }
    });
    socket.on('close', () => decoder.free());
    socket.on('error', () => {});
  });
}

test("Node's http client, parsed by httpspan on a net server", async () => {
  const server = describingServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // No Content-Length: Node sends the body chunked, in the pieces written.
    const chunked = await httpRequest(agent, port, {
      method: 'POST', path: '/upload?id=7&x=%20', headers: { 'X-Custom': 'a  b', 'User-Agent': 'node-test' },
    }, ['hello ', 'chunked ', 'world']);
    assert.equal(chunked.status, 200);
    const parsed = JSON.parse(chunked.data);
    assert.deepEqual(
      [parsed.method, parsed.target, parsed.version, parsed.chunked, parsed.contentLength, parsed.keepAlive, parsed.body],
      ['POST', '/upload?id=7&x=%20', 'HTTP/1.1', true, 'null', true, 'hello chunked world'],
    );
    const fields = Object.fromEntries(parsed.fields.map(([n, v]) => [n.toLowerCase(), v]));
    assert.equal(fields['x-custom'], 'a  b');
    assert.equal(fields['user-agent'], 'node-test');
    assert.equal(fields.host, `127.0.0.1:${port}`);
    assert.equal(fields['transfer-encoding'], 'chunked');

    // The same connection again, now with a Content-Length and binary body bytes.
    const body = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x0d, 0x0a]);
    const sized = await httpRequest(agent, port, { method: 'PUT', path: '/b', headers: { 'Content-Length': body.length } }, [body]);
    const second = JSON.parse(sized.data);
    assert.deepEqual([second.method, second.target, second.chunked, second.contentLength], ['PUT', '/b', false, '7']);
    assert.equal(second.body, body.toString('latin1'));
    assert.ok(second.offset > 0, 'the second request came on the same connection, after the first');

    // An invalid request gets the error's status and code, with its offset.
    const socket = net.connect(port, '127.0.0.1');
    socket.end('GET / HTTP/1.1\r\nHost: a\r\nBad Header : x\r\n\r\n');
    let raw = '';
    socket.setEncoding('latin1');
    for await (const d of socket) raw += d;
    assert.match(raw, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(raw, /X-Error: whitespace_before_colon at 28\r\n/);
  } finally {
    agent.destroy();
    server.close();
  }
});

test("Node's http server, read by httpspan on a net client", async () => {
  const server = http.createServer((req, res) => {
    if (req.url === '/chunked') {
      res.setHeader('Trailer', 'X-Sum');
      res.write('part one, ');
      res.write('part two');
      res.addTrailers({ 'X-Sum': '18' });
      res.end();
    } else {
      res.writeHead(204, { 'X-Reply': 'empty' });
      res.end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  try {
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET /chunked HTTP/1.1\r\nHost: a\r\n\r\nHEAD /empty HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    const decoder = new Decoder('response', { requestMethods: ['GET', 'HEAD'] });
    const events = [];
    socket.on('data', (chunk) => events.push(...decoder.push(chunk)));
    await once(socket, 'end');
    events.push(...decoder.finish());
    decoder.free();
    const heads = events.filter((e) => e.type === 'head').map((e) => e.head);
    assert.deepEqual(heads.map((h) => [h.status, h.reason, h.chunked]), [[200, 'OK', true], [204, 'No Content', false]]);
    const body = events.filter((e) => e.type === 'body').map((e) => latin1(e.data)).join('');
    assert.equal(body, 'part one, part two');
    const trailers = events.find((e) => e.type === 'trailers');
    assert.deepEqual(trailers.fields.map((f) => [f.name.toLowerCase(), f.value]), [['x-sum', '18']]);
    assert.equal(heads[1].fields.find((f) => f.name.toLowerCase() === 'x-reply').value, 'empty');
    assert.deepEqual(events.filter((e) => e.type === 'end').length, 2);
    assert.equal(events.at(-1).type, 'closed');
  } finally {
    server.close();
  }
});

// Zero-copy input and output: bytes written straight into a parser's or decoder's input region,
// span words read in place, views that fail loudly once the module's memory has grown, and the
// object API's heads over their own copies (lazy strings, toObject, toJSON).
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { test } from 'node:test';
import { initSync } from '../pkg/httpspan_wasm.js';
import {
  Decoder, RequestParser, ResponseParser, SPANS_LENGTH, StaleViewError, parseRequest,
} from '../pkg/node.js';

// node.js has instantiated the module already, so this returns its exports.
const { memory } = initSync({ module: new Uint8Array(0) });
const bytes = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const REQUEST = 'POST /items?id=7 HTTP/1.1\r\nHost: a.example\r\nX-Id: 42\r\nContent-Length: 2\r\n\r\n{}';

/** Makes the module allocate 4 MiB per decoder until its memory grows (and detaches its buffer). */
function growMemory() {
  const before = memory.buffer;
  const decoders = [];
  while (memory.buffer === before && decoders.length < 64) {
    const decoder = new Decoder('request');
    decoder.input(4 << 20);
    decoders.push(decoder);
  }
  assert.notEqual(memory.buffer, before, 'the memory grew');
  return () => decoders.forEach((d) => d.free());
}

test('input() is a view of module memory that parseInput parses in place', () => {
  const parser = new RequestParser();
  const input = parser.input(4096);
  assert.equal(input.buffer, memory.buffer);
  assert.equal(input.length, 4096);
  assert.equal(parser.input(70000).length, 65544, 'no more than a head can use');
  const region = parser.input(4096);
  region.set(bytes(REQUEST));
  const view = parser.parseInput(REQUEST.length);
  assert.deepEqual([view.state, view.method, view.target, view.get('x-id'), view.contentLength], ['complete', 'POST', '/items?id=7', '42', 2n]);
  assert.equal(view.spans.buffer, memory.buffer, 'the words are read in place');
  assert.equal(view.spans, parser.spans);
  assert.equal(view.bytes.length, REQUEST.length);
  assert.equal(new TextDecoder().decode(view.bytes.subarray(view.headLen)), '{}');
  // Same result as the copying parse.
  assert.deepEqual(view.toResult().toObject(), new RequestParser().parse(bytes(REQUEST)).toResult().toObject());
  assert.throws(() => parser.parseInput(4097), RangeError);
  assert.throws(() => new RequestParser().parseInput(1), /input\(capacity\)/);

  const responses = new ResponseParser();
  responses.input(64).set(bytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n'));
  assert.deepEqual([responses.parseInput(38, { requestMethod: 'HEAD' }).framing, responses.parseInput(38, { requestMethod: 'GET' }).framing], ['none', 'length']);
  parser.free();
  responses.free();
});

test('a view is valid until the next parse on its parser, and then throws a StaleViewError', async () => {
  const parser = new RequestParser();
  const first = parser.parse(bytes(REQUEST));
  const untouched = first.target;
  const second = parser.parse(bytes('GET /next HTTP/1.1\r\nHost: b\r\n\r\n'));
  assert.equal(untouched, '/items?id=7');
  assert.notEqual(second, first, 'every parse makes its own view');
  assert.equal(second.target, '/next');
  for (const read of [() => first.state, () => first.headLen, () => first.error, () => first.method, () => first.target,
    () => first.get('host'), () => first.fieldName(0), () => first.spans, () => first.bytes, () => first.toResult()]) {
    assert.throws(read, (error) => error instanceof StaleViewError && error.reason === 'reparsed' && /parsed again/.test(error.message));
  }

  // Two handlers sharing one parser across an await: the first one's view throws rather than
  // showing the second request; one parser per handler, or toResult() before the await, works.
  const handle = async (shared, raw) => {
    const view = shared.parse(bytes(raw));
    await new Promise((resolve) => setTimeout(resolve, 5));
    return `${view.method} ${view.target}`;
  };
  const shared = new RequestParser();
  const results = await Promise.allSettled([
    handle(shared, 'GET /alice HTTP/1.1\r\nHost: a\r\n\r\n'),
    handle(shared, 'DELETE /bob HTTP/1.1\r\nHost: a\r\n\r\n'),
  ]);
  assert.equal(results[0].status, 'rejected');
  assert.ok(results[0].reason instanceof StaleViewError);
  assert.deepEqual(results[1], { status: 'fulfilled', value: 'DELETE /bob' });
  const kept = async (raw) => {
    const head = shared.parse(bytes(raw)).toResult();
    await new Promise((resolve) => setTimeout(resolve, 5));
    return `${head.method} ${head.target}`;
  };
  assert.deepEqual(await Promise.all([kept('GET /alice HTTP/1.1\r\nHost: a\r\n\r\n'), kept('DELETE /bob HTTP/1.1\r\nHost: a\r\n\r\n')]),
    ['GET /alice', 'DELETE /bob']);

  // In place: a view of the input region is tied to its parse even when its words are in `out`.
  const region = parser.input(256);
  region.set(bytes(REQUEST));
  const inPlace = parser.parseInput(REQUEST.length, new Uint32Array(SPANS_LENGTH));
  assert.equal(inPlace.target, '/items?id=7');
  parser.parse(bytes('GET /next HTTP/1.1\r\nHost: b\r\n\r\n'));
  assert.throws(() => inPlace.target, StaleViewError);
  shared.free();
  parser.free();
});

test('a view fails loudly once the memory grew', () => {
  const parser = new RequestParser();
  const kept = parser.parse(bytes(REQUEST), new Uint32Array(SPANS_LENGTH));
  const view = parser.parse(bytes(REQUEST));
  assert.equal(view.target, '/items?id=7');
  const input = parser.input(256);
  input.set(bytes(REQUEST));

  const free = growMemory();
  for (const read of [() => view.state, () => view.headLen, () => view.error, () => view.method, () => view.fieldName(0), () => view.toResult()]) {
    assert.throws(read, (error) => error instanceof StaleViewError && error.reason === 'memory-grew');
  }
  assert.throws(() => parser.parseInput(REQUEST.length), StaleViewError, 'the input view went stale');
  assert.equal(kept.target, '/items?id=7', 'words copied to out stay valid');
  assert.equal(parser.spans.buffer, memory.buffer, 'the parser takes a fresh view');
  parser.input(256).set(bytes(REQUEST));
  assert.equal(parser.parseInput(REQUEST.length).target, '/items?id=7');
  free();

  // A larger copying parse moves the input region: an older input view is stale too.
  const small = parser.input(100);
  small.set(bytes(REQUEST));
  parser.parse(new Uint8Array(60000));
  assert.throws(() => parser.parseInput(REQUEST.length), (error) => error instanceof StaleViewError && error.reason === 'input-moved');
  parser.free();
});

test('object API heads own their words and bytes; strings decoded when read', () => {
  const parser = new RequestParser();
  parser.input(256).set(bytes(REQUEST));
  const head = parser.parseInput(REQUEST.length).toResult();
  parser.input(256).set(bytes('GET /other HTTP/1.1\r\nHost: b\r\n\r\n'));
  parser.parseInput(33);
  const free = growMemory();
  assert.equal(head.bytes.buffer === memory.buffer, false, 'a head parsed in place keeps a copy of its bytes');
  assert.deepEqual([head.method, head.target, head.fields.map((f) => [f.name, f.value, f.known])],
    ['POST', '/items?id=7', [['Host', 'a.example', 'host'], ['X-Id', '42', null], ['Content-Length', '2', 'content-length']]]);
  free();

  const r = parseRequest(bytes(REQUEST));
  assert.equal(r.fields, r.fields, 'fields are made once');
  const plain = r.toObject();
  assert.deepEqual(Object.keys(plain), ['state', 'headLen', 'version', 'fields', 'knownBitmap', 'knownIndex', 'contentLength', 'chunked', 'keepAlive', 'framing', 'method', 'methodSpan', 'target', 'targetSpan']);
  assert.deepEqual(plain.fields[1], { name: 'X-Id', value: '42', nameSpan: { offset: 44, length: 4 }, valueSpan: { offset: 50, length: 2 }, known: null });
  const json = JSON.parse(JSON.stringify(r));
  assert.deepEqual([json.contentLength, json.target, json.fields[0].name, json.knownIndex], ['2', '/items?id=7', 'Host', { host: 0, 'content-length': 2 }]);
  assert.equal(typeof json.knownBitmap, 'string');
  parser.free();
});

test('Decoder.input and pushInput decode in place; body data are views of the region', () => {
  const wire = 'POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n';
  const copying = new Decoder('request');
  const expected = copying.push(bytes(wire)).map((e) => JSON.stringify(e, (k, v) => (k === 'data' || k === 'bytes' ? Buffer.from(v).toString('latin1') : v)));
  for (const cut of [1, 7, 60, 65, wire.length]) {
    const decoder = new Decoder('request');
    const events = [];
    for (let at = 0; at < wire.length; at += cut) {
      const piece = bytes(wire.slice(at, at + cut));
      const region = decoder.input(128);
      region.set(piece);
      for (const event of decoder.pushInput(piece.length)) {
        if (event.type === 'body') assert.equal(event.data.buffer, memory.buffer, 'body data is a view, not a copy');
        events.push(JSON.stringify(event, (k, v) => (k === 'data' || k === 'bytes' ? Buffer.from(v).toString('latin1') : v)));
      }
    }
    // Body pieces differ by cut; compare the stream's bodies joined and the other events.
    const strip = (list) => list.map((e) => JSON.parse(e)).filter((e) => e.type !== 'body').map((e) => JSON.stringify(e, (k, v) => (k === 'offset' && typeof v === 'number' ? 0 : v)));
    assert.deepEqual(strip(events), strip(expected), `cut ${cut}`);
    const body = events.map((e) => JSON.parse(e)).filter((e) => e.type === 'body').map((e) => e.data).join('');
    assert.equal(body, 'hello');
    decoder.free();
  }
  const decoder = new Decoder('request');
  const stale = decoder.input(16);
  decoder.push(new Uint8Array(1000));
  assert.throws(() => decoder.pushInput(stale.length), StaleViewError, 'a larger push moved the region');
  copying.free();
  decoder.free();
});

test('a Node socket reads straight into the Decoder (onread)', async () => {
  const server = net.createServer((socket) => {
    socket.end('GET /one HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET /two HTTP/1.1\r\nHost: a\r\n\r\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const decoder = new Decoder('request');
  const seen = [];
  const socket = net.connect({
    port: server.address().port,
    host: '127.0.0.1',
    onread: {
      buffer: () => decoder.input(16384),
      callback: (length) => {
        for (const event of decoder.pushInput(length)) {
          seen.push(event.type === 'head' ? event.head.target : event.type === 'body' ? Buffer.from(event.data).toString() : event.type);
        }
      },
    },
  });
  await once(socket, 'end');
  seen.push(...decoder.finish().map((e) => e.type));
  assert.deepEqual(seen, ['/one', 'abc', 'end', '/two', 'end', 'closed']);
  socket.destroy();
  server.close();
  decoder.free();
});

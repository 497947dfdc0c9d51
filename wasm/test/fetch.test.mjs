// Conversions to the Fetch standard's Headers, Request and Response and to Node's headers
// object, the rules for what Fetch cannot represent, getAll and getSetCookie, and what
// console.log shows of a head.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import {
  Decoder, FetchConversionError, RequestParser, ResponseParser, parseRequest, parseResponse,
  toHeaders, toNodeHeaders, toRequest, toResponse,
} from '../pkg/node.js';
import { generator, mutate } from '../../tests/wasm/mutate.mjs';
import { SUPPORTED_OPTIONS, loadDir } from '../../tests/wasm/vectors.mjs';

const bytes = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const request = (s, options) => parseRequest(bytes(s), options);
const response = (s, requestMethod = 'GET') => parseResponse(bytes(s), { requestMethod });
const rule = (code) => (error) => error instanceof FetchConversionError && error.code === code && error.message.includes('@httpspan/wasm');

const COOKIES = 'HTTP/1.1 200 OK\r\nSet-Cookie: a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\r\nContent-Type: text/plain\r\n'
  + 'set-cookie: b=2\r\nVary: accept\r\nVARY: origin\r\nX-Custom: 1\r\nx-custom: 2\r\nContent-Type: text/html\r\n'
  + 'Connection: keep-alive, X-Hop\r\nX-Hop: 1\r\nKeep-Alive: timeout=5\r\nContent-Length: 2\r\n\r\nok';

test('getAll and getSetCookie give every line of a name, in order, on heads and views', () => {
  const head = response(COOKIES);
  assert.deepEqual(head.getSetCookie(), ['a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT', 'b=2']);
  assert.deepEqual(head.getAll('VARY'), ['accept', 'origin']);
  assert.deepEqual(head.getAll('x-custom'), ['1', '2'], 'unknown names too');
  assert.deepEqual(head.getAll('x-none'), []);
  const parser = new ResponseParser();
  const view = parser.parse(bytes(COOKIES), { requestMethod: 'GET' });
  assert.deepEqual(view.getSetCookie(), head.getSetCookie());
  assert.deepEqual(view.getAll('x-custom'), ['1', '2']);
  parser.free();
});

test('maxFieldLines takes up to the 255 field slots every parser has; above them is a RangeError at construction', () => {
  const tooMany = (error) => error instanceof RangeError && /from 0 to 255/.test(error.message);
  assert.throws(() => new RequestParser({ maxFieldLines: 256 }), tooMany);
  assert.throws(() => new ResponseParser({ maxFieldLines: 256 }), tooMany);
  assert.throws(() => parseRequest(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'), { maxFieldLines: 256 }), tooMany);
  assert.throws(() => parseResponse(bytes('HTTP/1.1 200 OK\r\n\r\n'), { requestMethod: 'GET', maxFieldLines: 256 }), tooMany);
  assert.throws(() => new Decoder('response', { maxFieldLines: 256 }), tooMany);

  // An upstream answer with 70 Set-Cookie lines, through every API.
  const cookies = Array.from({ length: 70 }, (_, i) => `Set-Cookie: c${i}=${i}\r\n`).join('');
  const answer = `HTTP/1.1 200 OK\r\n${cookies}Content-Length: 0\r\n\r\n`;
  const limits = { maxFieldLines: 100 };
  const head = parseResponse(bytes(answer), { requestMethod: 'GET', ...limits });
  assert.equal(head.getSetCookie().length, 70);
  assert.equal(head.getSetCookie()[69], 'c69=69');
  const parser = new ResponseParser(limits);
  assert.equal(parser.parse(bytes(answer), { requestMethod: 'GET' }).fieldCount, 71);
  parser.free();
  const decoder = new Decoder('response', { ...limits, requestMethods: ['GET'] });
  const events = decoder.push(bytes(answer));
  assert.equal(events[0].type, 'head');
  assert.equal(events[0].head.getSetCookie().length, 70);
  decoder.free();

  // The default stays 64: the 65th line is too many.
  const lines = (n) => Array.from({ length: n }, (_, i) => `X-F${i}: ${i}\r\n`).join('');
  assert.equal(response(`HTTP/1.1 200 OK\r\n${lines(64)}\r\n`).fieldCount, 64);
  assert.equal(response(`HTTP/1.1 200 OK\r\n${lines(65)}\r\n`).error.code, 'too_many_fields');
});

test('every maxFieldLines the constructors accept reads that many lines, and one more is too_many_fields', () => {
  const lines = (n) => Array.from({ length: n }, (_, i) => `X-F${i}: ${i}\r\n`).join('');
  for (let limit = 0; limit <= 255; limit++) {
    const parser = new ResponseParser({ maxFieldLines: limit, maxHeadBytes: 65535 });
    const full = parser.parse(bytes(`HTTP/1.1 200 OK\r\n${lines(limit)}\r\n`), { requestMethod: 'GET' });
    assert.equal(full.state, 'complete', `${limit} lines under maxFieldLines ${limit}`);
    assert.equal(full.fieldCount, limit);
    const over = parser.parse(bytes(`HTTP/1.1 200 OK\r\n${lines(limit + 1)}\r\n`), { requestMethod: 'GET' });
    assert.equal(over.error?.code, 'too_many_fields', `${limit + 1} lines under maxFieldLines ${limit}`);
    parser.free();
  }
  // The stream decoder's head and trailer parsers have the same room.
  const decoder = new Decoder('request', { maxFieldLines: 255, maxHeadBytes: 65535 });
  const message = `POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n${lines(253)}\r\n0\r\n${lines(255)}\r\n`;
  const events = decoder.push(bytes(message));
  assert.deepEqual(events.map((event) => event.type), ['head', 'trailers', 'end']);
  assert.equal(events[0].head.fieldCount, 255);
  assert.equal(events[1].fields.length, 255);
  assert.equal(events[1].fields[254].value, '254');
  decoder.free();
});

test('toHeaders keeps every line in order; dropHopByHop leaves out the connection fields', () => {
  const head = response(COOKIES);
  const headers = toHeaders(head);
  assert.ok(headers instanceof Headers);
  assert.deepEqual(headers.getSetCookie(), head.getSetCookie());
  assert.equal(headers.get('vary'), 'accept, origin');
  assert.equal(headers.get('content-type'), 'text/plain, text/html');
  assert.equal(headers.get('x-hop'), '1');
  const hopless = toHeaders(head, { dropHopByHop: true });
  for (const name of ['connection', 'keep-alive', 'x-hop']) assert.equal(hopless.get(name), null, name);
  assert.equal(hopless.get('content-length'), '2');
  assert.throws(() => toHeaders(head, { dropHopByhop: true }), /unknown option/);
  assert.throws(() => toHeaders({ state: 'complete' }), TypeError);
  assert.throws(() => toHeaders(request('GET / HT')), /complete/);
  // obs-text is Latin-1, as Headers takes it; an obs-fold (a leniency) becomes one SP.
  const folded = request('GET / HTTP/1.1\r\nHost: a\r\nX-Fold: one\r\n  two\r\nX-Obs: caf\xe9\r\n\r\n', { lenient: { obsFold: true } });
  assert.equal(toHeaders(folded).get('x-fold'), 'one two');
  assert.equal(toHeaders(folded).get('x-obs'), 'caf\xe9');
});

test("toNodeHeaders is Node's message.headers", () => {
  const head = response(COOKIES.replace('Content-Length: 2', 'Cookie: a=1\r\nCookie: b=2\r\nContent-Length: 2'));
  const headers = toNodeHeaders(head);
  assert.equal(Object.getPrototypeOf(headers), null);
  assert.deepEqual({ ...headers }, {
    'set-cookie': ['a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT', 'b=2'],
    'content-type': 'text/plain',
    vary: 'accept, origin',
    'x-custom': '1, 2',
    connection: 'keep-alive, X-Hop',
    'x-hop': '1',
    'keep-alive': 'timeout=5',
    cookie: 'a=1; b=2',
    'content-length': '2',
  });
  assert.equal(toNodeHeaders(request('GET / HTTP/1.1\r\nHost: a\r\n__proto__: x\r\n\r\n'))['__proto__'], 'x');
});

test('toRequest: URL from base or Host, headers, body; each Fetch rule is a named error', async () => {
  const post = request('POST /items?id=7 HTTP/1.1\r\nHost: api.example\r\nContent-Type: text/plain\r\n'
    + 'Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n');
  const req = toRequest(post, 'hello', { base: 'https://edge.example:8443/ignored/path' });
  assert.ok(req instanceof Request);
  assert.deepEqual([req.method, req.url, req.headers.get('content-type'), await req.text()],
    ['POST', 'https://edge.example:8443/items?id=7', 'text/plain', 'hello']);
  assert.equal(req.headers.get('connection'), null, 'hop-by-hop fields are dropped by default');
  assert.equal(req.headers.get('transfer-encoding'), null);
  assert.equal(toRequest(post, null, { dropHopByHop: false }).headers.get('connection'), 'close');
  assert.equal(toRequest(post, null).url, 'http://api.example/items?id=7', 'the Host field makes the origin');

  const stream = new ReadableStream({ start(c) { c.enqueue(bytes('streamed')); c.close(); } });
  assert.equal(await toRequest(post, stream).text(), 'streamed');

  // A target that starts with // is a path of the request's own origin, never another host.
  assert.equal(toRequest(request('GET //evil.example/x HTTP/1.1\r\nHost: good.example\r\n\r\n')).url, 'http://good.example//evil.example/x');
  assert.equal(toRequest(request('GET http://b.example/p HTTP/1.1\r\nHost: b.example\r\n\r\n')).url, 'http://b.example/p');
  const credentials = request('GET ftp://user:secret@files.example/f HTTP/1.1\r\nHost: files.example\r\n\r\n');
  assert.equal(credentials.state, 'complete');
  assert.throws(() => toRequest(credentials), rule('credentials_in_url'));

  for (const method of ['CONNECT', 'TRACE', 'TRACK']) {
    const target = method === 'CONNECT' ? 'a.example:443' : '/';
    const head = request(`${method} ${target} HTTP/1.1\r\nHost: a.example:443\r\n\r\n`);
    assert.equal(head.state, 'complete', method);
    assert.throws(() => toRequest(head), rule('forbidden_method'), method);
  }
  assert.throws(() => toRequest(request('OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n')), rule('asterisk_form'));
  assert.equal(toRequest(request('OPTIONS /x HTTP/1.1\r\nHost: a\r\n\r\n')).method, 'OPTIONS');
  assert.throws(() => toRequest(request('GET / HTTP/1.0\r\n\r\n')), rule('no_base'));
  assert.equal(toRequest(request('GET / HTTP/1.0\r\n\r\n'), null, { base: 'http://x.example' }).url, 'http://x.example/');
  assert.throws(() => toRequest(request('GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n')), rule('body_not_allowed'));
  assert.throws(() => toRequest(request('HEAD / HTTP/1.1\r\nHost: a\r\n\r\n'), 'x'), rule('body_not_allowed'));
  assert.equal(toRequest(request('GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n')).method, 'GET');
  assert.throws(() => toRequest(response(COOKIES)), /request head/);
  assert.throws(() => toRequest(post, null, { base: 42 }), TypeError);

  // The fast path's views convert too.
  const parser = new RequestParser();
  assert.equal(toRequest(parser.parse(bytes('DELETE /bob HTTP/1.1\r\nHost: a\r\n\r\n'))).method, 'DELETE');
  parser.free();
});

test('toResponse: status, reason, headers, body; 1xx and null-body statuses are named errors', async () => {
  const res = toResponse(response(COOKIES), 'ok');
  assert.ok(res instanceof Response);
  assert.deepEqual([res.status, res.statusText, res.headers.getSetCookie().length, await res.text()], [200, 'OK', 2, 'ok']);
  assert.equal(res.headers.get('x-hop'), null, 'fields named by Connection are hop-by-hop too');
  assert.equal(toResponse(response(COOKIES), null, { dropHopByHop: false }).headers.get('keep-alive'), 'timeout=5');
  const notFound = toResponse(response('HTTP/1.1 404 Caf\xe9 Gone\r\nContent-Length: 0\r\n\r\n'));
  assert.deepEqual([notFound.status, notFound.statusText], [404, 'Caf\xe9 Gone']);

  assert.throws(() => toResponse(response('HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n')), rule('interim_status'));
  assert.throws(() => toResponse(response('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n')),
    (error) => rule('interim_status')(error) && /switched protocols/.test(error.message));
  assert.throws(() => toResponse(response('HTTP/1.1 304 Not Modified\r\n\r\n'), 'x'), rule('body_not_allowed'));
  assert.equal(toResponse(response('HTTP/1.1 204 No Content\r\n\r\n')).status, 204);
  assert.throws(() => toResponse(request('GET / HTTP/1.1\r\nHost: a\r\n\r\n')), /response head/);
});

test('console.log shows the head, its error, or that a view is stale', () => {
  const head = request('GET /x HTTP/1.1\r\nHost: a\r\n\r\n');
  const shown = inspect(head);
  assert.match(shown, /^RequestHead \{/);
  assert.match(shown, /method: 'GET'/);
  assert.match(shown, /target: '\/x'/);
  assert.match(shown, /fields: \[ 'Host: a' \]/);
  assert.match(inspect(request('GET / HTTP/1.1\r\nHost: a\r\nX: \x01\r\n\r\n')), /state: 'error'/);
  const parser = new RequestParser();
  const view = parser.parse(bytes('GET /y HTTP/1.1\r\nHost: a\r\n\r\n'));
  assert.match(inspect(view), /^RequestSpans \{[^]*target: '\/y'/);
  parser.parse(bytes('GET /z HTTP/1.1\r\nHost: a\r\n\r\n'));
  assert.equal(inspect(view), 'RequestSpans <stale: reparsed>');
  parser.free();
});

test('every complete head of the vectors and their mutations converts, or throws a FetchConversionError: never a platform TypeError', () => {
  const random = generator(0xfe7c);
  const cases = loadDir(fileURLToPath(new URL('../../tests/vectors', import.meta.url))).map((loaded) => loaded.case);
  const made = { request: 0, response: 0, refused: 0 };
  const convert = (what, make) => {
    try {
      make();
      made[what]++;
    } catch (error) {
      assert.ok(error instanceof FetchConversionError, `${what}: ${error.stack}`);
      made.refused++;
    }
  };
  for (let round = 0; round < cases.length + 2000; round++) {
    const base = cases[round % cases.length];
    const input = round < cases.length ? base.input : mutate(base.input, random);
    const lenient = {};
    for (const option of base.options) Object.assign(lenient, SUPPORTED_OPTIONS[option]);
    const heads = [
      parseRequest(input, { lenient }),
      parseResponse(input, { requestMethod: base.requestMethods?.[0] ?? 'GET', lenient }),
    ];
    for (const head of heads.filter((h) => h.state === 'complete')) {
      const pairs = [...toHeaders(head)];
      assert.ok(pairs.length <= head.fieldCount);
      assert.equal(typeof toNodeHeaders(head), 'object');
      if ('method' in head) convert('request', () => toRequest(head, null, round % 2 ? { base: 'https://base.example' } : undefined));
      else convert('response', () => toResponse(head));
    }
  }
  assert.ok(made.request > 500 && made.response > 100 && made.refused > 20, JSON.stringify(made));
});

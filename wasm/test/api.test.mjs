// The JavaScript API: result types, errors with offsets, options, the fast path and the
// streaming decoder.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Decoder, KNOWN_HEADERS, ParseError, RequestParser, ResponseParser, SPANS_LENGTH,
  decodeStream, parseRequest, parseResponse,
} from '../pkg/node.js';
import { latin1Text } from '../pkg/text.js';

const bytes = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const text = (b, span) => String.fromCharCode(...b.subarray(span.offset, span.offset + span.length));

const REQUEST = 'POST /v1/items?x=%20 HTTP/1.1\r\nHost: api.example.com\r\nContent-Type: application/json\r\n'
  + 'X-Trace:  t-1 \r\nContent-Length: 2\r\nCookie: a=1\r\ncookie: b=2\r\nX-Obs: caf\xe9\r\n\r\n{}';

function assertSpan(value) {
  assert.deepEqual(Object.keys(value), ['offset', 'length']);
  assert.ok(Number.isInteger(value.offset) && Number.isInteger(value.length));
}

test('a complete request has every field, typed, with spans into the input', () => {
  const input = bytes(REQUEST);
  const r = parseRequest(input);
  assert.equal(r.state, 'complete');
  assert.equal(r.method, 'POST');
  assert.equal(r.target, '/v1/items?x=%20');
  assert.equal(r.version, 'HTTP/1.1');
  assert.equal(r.headLen, REQUEST.length - 2);
  assert.equal(typeof r.headLen, 'number');
  for (const key of ['methodSpan', 'targetSpan']) assertSpan(r[key]);
  assert.equal(text(input, r.methodSpan), r.method);
  assert.equal(text(input, r.targetSpan), r.target);
  assert.deepEqual(r.fields.map((f) => [f.name, f.value, f.known]), [
    ['Host', 'api.example.com', 'host'],
    ['Content-Type', 'application/json', 'content-type'],
    ['X-Trace', 't-1', null],
    ['Content-Length', '2', 'content-length'],
    ['Cookie', 'a=1', 'cookie'],
    ['cookie', 'b=2', 'cookie'],
    ['X-Obs', 'caf\xe9', null],
  ]);
  for (const f of r.fields) {
    assertSpan(f.nameSpan);
    assertSpan(f.valueSpan);
    assert.equal(text(input, f.nameSpan), f.name);
    assert.equal(text(input, f.valueSpan), f.value);
    assert.equal(f.value.length, f.valueSpan.length, 'one character per byte, obs-text included');
  }
  assert.equal(typeof r.knownBitmap, 'bigint');
  const present = ['host', 'content-type', 'content-length', 'cookie'];
  const bits = present.reduce((acc, name) => acc | (1n << BigInt(KNOWN_HEADERS.indexOf(name))), 0n);
  assert.equal(r.knownBitmap, bits);
  assert.deepEqual(r.knownIndex, { host: 0, 'content-length': 3, 'content-type': 1, cookie: 4 });
  assert.equal(r.contentLength, 2n);
  assert.equal(r.chunked, false);
  assert.equal(r.keepAlive, true);
  assert.equal(r.framing, 'length');
});

// Node decodes a head with Buffer's latin1Slice; browsers and workerd with latin1Text, which
// tells ASCII from the rest by what UTF-8 decoding made of it.
test('without Buffer, a head decodes one character per byte, whatever its bytes', () => {
  const cases = [
    [], [0x41], [0x7f, 0x00, 0x0d, 0x0a], [0xe9], [0x80], [0xff, 0xfe],
    [0x63, 0x61, 0x66, 0xc3, 0xa9], // café in UTF-8: two bytes, one character
    [0xef, 0xbb, 0xbf, 0x41], // a UTF-8 byte order mark
    [0xef, 0xbf, 0xbd], // U+FFFD in UTF-8
    [0xf0, 0x9f, 0x98, 0x80], // a four-byte sequence: two UTF-16 code units
    [0xe1, 0x80], // a sequence cut short
  ];
  let seed = 7;
  for (let n = 0; n < 200; n++) {
    const length = n % 40;
    cases.push(Array.from({ length }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24));
  }
  for (const bytes of cases) {
    const input = Uint8Array.from(bytes);
    assert.equal(latin1Text(input), Buffer.from(input).toString('latin1'), `bytes ${bytes}`);
  }
});

test('a complete response has status, reason, interim and protocol switch', () => {
  const input = bytes('HTTP/1.1 200  Fine\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n');
  const r = parseResponse(input, { requestMethod: 'GET' });
  assert.equal(r.state, 'complete');
  assert.equal(r.status, 200);
  assert.equal(r.reason, ' Fine');
  assert.equal(text(input, r.reasonSpan), ' Fine');
  assert.deepEqual([r.version, r.chunked, r.keepAlive, r.framing, r.contentLength], ['HTTP/1.1', true, false, 'chunked', null]);
  assert.deepEqual([r.interim, r.switchesProtocols], [false, false]);
  const head = parseResponse(input, { requestMethod: 'HEAD' });
  assert.deepEqual([head.framing, head.chunked], ['none', false]);
  const early = parseResponse(bytes('HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n'), { requestMethod: 'GET' });
  assert.deepEqual([early.interim, early.framing], [true, 'none']);
  const tunnel = parseResponse(bytes('HTTP/1.1 200 OK\r\n\r\n'), { requestMethod: 'CONNECT' });
  assert.equal(tunnel.switchesProtocols, true);
  const close = parseResponse(bytes('HTTP/1.0 200 OK\r\n\r\n'), { requestMethod: 'GET' });
  assert.deepEqual([close.version, close.framing, close.keepAlive], ['HTTP/1.0', 'until-close', false]);
});

test('errors are ParseErrors with code, message, offset, rfc and status', () => {
  const cases = [
    ['GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\x01b\r\n\r\n', 'invalid_field_value', 33, 400, 'RFC 9110 5.5'],
    ['GET / HTTP/1.1\nHost: a\r\n\r\n', 'bare_lf', 14, 400, 'RFC 9112 2.2'],
    ['GET / HTTP/1.1\r\nHost : a\r\n\r\n', 'whitespace_before_colon', 20, 400, 'RFC 9112 5.1'],
    ['GET / HTTP/2.0\r\nHost: a\r\n\r\n', 'unsupported_version', 6, 505, 'RFC 9110 15.6.6'],
    ['POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', 'content_length_with_transfer_encoding', 45, 400, 'RFC 9112 6.3'],
  ];
  for (const [input, code, offset, status, rfc] of cases) {
    const r = parseRequest(bytes(input));
    assert.equal(r.state, 'error', input);
    assert.ok(r.error instanceof ParseError && r.error instanceof Error);
    assert.deepEqual({ code: r.error.code, offset: r.error.offset, status: r.error.status, rfc: r.error.rfc }, { code, offset, status, rfc }, input);
    assert.equal(typeof r.error.message, 'string');
    assert.ok(r.error.message.length > 0);
    assert.deepEqual(Object.keys(r.error.toJSON()), ['code', 'message', 'offset', 'rfc', 'status']);
  }
  const res = parseResponse(bytes('HTTP/1.1 99 Low\r\n\r\n'), { requestMethod: 'GET' });
  assert.deepEqual([res.state, res.error.code, res.error.offset, res.error.status], ['error', 'invalid_status_code', 11, 502]);
  // In a response stream too: the error a proxy answers with 502.
  const decoder = new Decoder('response');
  const [event] = decoder.push(bytes('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n'));
  assert.deepEqual([event.type, event.error.code, event.error.status], ['error', 'duplicate_content_length', 502]);
  decoder.free();
});

test('a head cut short is partial; bytes after the head are ignored', () => {
  assert.deepEqual(parseRequest(bytes('GET / HTTP/1.1\r\nHost: a\r\n')), { state: 'partial' });
  assert.deepEqual(parseRequest(new Uint8Array(0)), { state: 'partial' });
  const body = new Uint8Array(300_000).fill(0x78);
  const head = bytes('PUT /big HTTP/1.1\r\nHost: a\r\nContent-Length: 300000\r\n\r\n');
  const input = new Uint8Array(head.length + body.length);
  input.set(head);
  input.set(body, head.length);
  const r = parseRequest(input);
  assert.deepEqual([r.state, r.headLen, r.contentLength], ['complete', head.length, 300_000n]);
});

test('each leniency flag relaxes its rule and only when set', () => {
  const cases = [
    ['bareLf', 'GET / HTTP/1.1\nHost: a\n\n', 'bare_lf'],
    ['obsFold', 'GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n', 'obs_fold'],
    ['spaceBeforeColon', 'GET / HTTP/1.1\r\nHost : a\r\n\r\n', 'whitespace_before_colon'],
    ['requestLineSpaces', 'GET  / HTTP/1.1\r\nHost: a\r\n\r\n', null],
    ['missingHost', 'GET / HTTP/1.1\r\n\r\n', 'missing_host'],
    ['duplicateContentLength', 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx', 'duplicate_content_length'],
    ['unknownVersion', 'GET / HTTP/1.2\r\nHost: a\r\n\r\n', 'unsupported_version'],
    ['targetUnsafeBytes', 'GET /a|b HTTP/1.1\r\nHost: a\r\n\r\n', 'invalid_target'],
  ];
  for (const [flag, text, code] of cases) {
    const strict = parseRequest(bytes(text));
    assert.equal(strict.state, 'error', `${flag}: strict parse of ${JSON.stringify(text)}`);
    if (code !== null) assert.equal(strict.error.code, code, flag);
    const lenient = parseRequest(bytes(text), { lenient: { [flag]: true } });
    assert.equal(lenient.state, 'complete', `${flag}: lenient parse of ${JSON.stringify(text)}`);
    // Every other flag on leaves this rule strict.
    const others = Object.fromEntries(cases.filter(([f]) => f !== flag).map(([f]) => [f, true]));
    assert.equal(parseRequest(bytes(text), { lenient: others }).state, 'error', `${flag}: other flags`);
  }
  // Content-Length with Transfer-Encoding stays an error with every flag on.
  const all = Object.fromEntries(cases.map(([f]) => [f, true]));
  const smuggle = 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n';
  assert.equal(parseRequest(bytes(smuggle), { lenient: all }).state, 'error');
});

test('limits pass through options; bad options throw', () => {
  const input = bytes(REQUEST);
  assert.equal(parseRequest(input, { maxHeadBytes: 64 }).error.code, 'head_too_large');
  assert.equal(parseRequest(input, { maxFieldLines: 3 }).error.code, 'too_many_fields');
  assert.equal(parseRequest(input, { maxFieldLines: 7, maxHeadBytes: 8192, lenient: {} }).state, 'complete');
  assert.equal(parseRequest(input, { lenient: { bareLf: false } }).state, 'complete');
  assert.throws(() => parseRequest(input, { maxHeadBytes: 0 }), RangeError);
  assert.throws(() => parseRequest(input, { maxHeadBytes: 70000 }), RangeError);
  assert.throws(() => parseRequest(input, { maxFieldLines: 1.5 }), RangeError);
  assert.throws(() => parseRequest(input, { maxHedBytes: 10 }), /unknown option maxHedBytes/);
  assert.throws(() => parseRequest(input, { lenient: { bareLF: true } }), /unknown leniency flag options.lenient.bareLF/);
  assert.throws(() => parseRequest(input, { lenient: { bareLf: 1 } }), /must be a boolean/);
  assert.throws(() => parseRequest(input, { lenient: true }), /options.lenient must be an object/);
  assert.throws(() => parseRequest('GET / HTTP/1.1\r\n\r\n'), TypeError);
  assert.throws(() => parseResponse(bytes('HTTP/1.1 200 OK\r\n\r\n')), /requestMethod/);
});

test('the fast path keeps spans in one Uint32Array and decodes on demand', () => {
  const input = bytes(REQUEST);
  const parser = new RequestParser();
  const view = parser.parse(input);
  assert.ok(view.spans instanceof Uint32Array);
  assert.equal(view.spans, parser.spans);
  assert.equal(parser.spans.length, SPANS_LENGTH);
  assert.equal(view.bytes, input);
  assert.deepEqual([view.state, view.method, view.target, view.version, view.fieldCount], ['complete', 'POST', '/v1/items?x=%20', 'HTTP/1.1', 7]);
  assert.equal(view.get('HOST'), 'api.example.com');
  assert.equal(view.get('cookie'), 'a=1', 'the first of two');
  assert.equal(view.get('x-trace'), 't-1', 'not a known header: found by a scan');
  assert.equal(view.get('X-OBS'), 'caf\xe9');
  assert.equal(view.get('accept'), undefined);
  assert.equal(view.get('x-missing'), undefined);
  assert.equal(view.indexOf('content-length'), 3);
  assert.deepEqual(view.getSpan('content-type'), parseRequest(input).fields[1].valueSpan);
  assert.equal(view.fieldName(2), 'X-Trace');
  assert.equal(view.fieldValue(6), 'caf\xe9');
  assert.throws(() => view.fieldName(7), RangeError);
  assert.deepEqual([view.contentLength, view.chunked, view.keepAlive, view.framing], [2n, false, true, 'length']);
  assert.deepEqual(view.toResult(), parseRequest(input));

  const out = new Uint32Array(SPANS_LENGTH);
  const kept = parser.parse(input, out);
  const other = parser.parse(bytes('GET /other HTTP/1.1\r\nHost: b\r\n\r\n'));
  assert.equal(kept.spans, out);
  assert.equal(kept.target, '/v1/items?x=%20', 'a caller-provided array is not overwritten by the next parse');
  assert.equal(other.target, '/other');
  assert.throws(() => parser.parse(input, new Uint32Array(8)), RangeError);

  const failed = parser.parse(bytes('GET / HTTP/1.1\r\nHost: a\r\nX: \x7f\r\n\r\n'));
  assert.deepEqual([failed.state, failed.error.code, failed.error.offset, failed.headLen], ['error', 'invalid_field_value', 28, 0]);
  assert.throws(() => failed.method, /not complete/);
  assert.throws(() => failed.get('host'), /not complete/);
  const partial = parser.parse(bytes('GET / HT'));
  assert.deepEqual([partial.state, partial.error], ['partial', null]);
  parser.free();

  const responses = new ResponseParser({ maxFieldLines: 8 });
  const res = responses.parse(bytes('HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n'), { requestMethod: 'GET' });
  assert.deepEqual([res.status, res.reason, res.get('etag'), res.framing, res.interim, res.switchesProtocols], [304, 'Not Modified', '"x"', 'none', false, false]);
  const head = responses.parse(bytes('HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n'), { requestMethod: 'HEAD' });
  assert.equal(head.framing, 'none');
  assert.equal(responses.parse(bytes('HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n'), { requestMethod: 'GET' }).framing, 'length');
  // The method is required, as parseResponse requires it: a response to HEAD has no body.
  assert.throws(() => responses.parse(bytes('HTTP/1.1 200 OK\r\n\r\n')), /requestMethod/);
  assert.throws(() => responses.parseInput(0, {}), /requestMethod/);
  // The older bare string still reads.
  assert.equal(responses.parse(bytes('HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n'), 'HEAD').framing, 'none');
  // An invalid response is a proxy's 502 (Bad Gateway), whatever the rule it broke.
  const bad = responses.parse(bytes('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n'), { requestMethod: 'GET' });
  assert.deepEqual([bad.error.code, bad.error.status], ['content_length_with_transfer_encoding', 502]);
  assert.equal(bad.toResult().error.status, 502);
  responses.free();
});

const PIPELINE = 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'
  + '4\r\nwiki\r\n5;ext=1\r\npedia\r\n0\r\nChecksum: 9\r\n\r\n'
  + 'GET /b HTTP/1.1\r\nHost: x\r\n\r\n'
  + 'PUT /c HTTP/1.0\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyz';

function collect(decoder, pieces) {
  const seen = [];
  for (const piece of pieces) {
    for (const event of decoder.push(piece)) seen.push(event);
  }
  if (!['closed', 'error'].includes(seen.at(-1)?.type)) seen.push(...decoder.finish());
  // Body data may arrive in any number of ranges: join them per message.
  const summary = [];
  for (const event of seen) {
    if (event.type === 'body') {
      const last = summary.at(-1);
      if (last?.type === 'body') last.data += String.fromCharCode(...event.data);
      else summary.push({ type: 'body', data: String.fromCharCode(...event.data), offset: event.offset });
    } else if (event.type === 'head') {
      summary.push({ type: 'head', offset: event.offset, method: event.head.method, target: event.head.target, length: event.bytes.length });
    } else if (event.type === 'trailers') {
      summary.push({ type: 'trailers', offset: event.offset, fields: event.fields.map((f) => [f.name, f.value]) });
    } else {
      summary.push(event.type === 'error' ? { type: 'error', code: event.error.code, offset: event.error.offset } : event);
    }
  }
  return summary;
}

test('the streaming decoder gives the same events however the stream is split', () => {
  const wire = bytes(PIPELINE);
  const whole = collect(new Decoder('request'), [wire]);
  assert.deepEqual(whole, [
    { type: 'head', offset: 0, method: 'POST', target: '/a', length: 57 },
    { type: 'body', data: 'wikipedia', offset: 60 },
    { type: 'trailers', offset: 85, fields: [['Checksum', '9']] },
    { type: 'end', offset: 100 },
    { type: 'head', offset: 100, method: 'GET', target: '/b', length: 28 },
    { type: 'end', offset: 128 },
    { type: 'head', offset: 128, method: 'PUT', target: '/c', length: 47 },
    { type: 'body', data: 'xyz', offset: 175 },
    { type: 'end', offset: 178 },
    { type: 'closed', offset: 178 },
  ]);
  for (let cut = 1; cut < wire.length; cut++) {
    const split = collect(new Decoder('request'), [wire.subarray(0, cut), wire.subarray(cut)]);
    // A split inside chunk data reports it in two ranges; the joined data and offsets stay.
    assert.deepEqual(split, whole, `split at ${cut}`);
  }
  const bytewise = collect(new Decoder('request'), Array.from(wire, (b) => Uint8Array.of(b)));
  assert.deepEqual(bytewise, whole);
});

test('chunkLines: each chunk line in stream offsets, the same however the stream is split', () => {
  const wire = bytes(PIPELINE);
  const line = (offset, sizeEnd, extEnd, end, size) => ({ type: 'chunk-line', offset, sizeEnd, extEnd, end, size });
  const whole = collect(new Decoder('request', { chunkLines: true }), [wire]);
  assert.deepEqual(whole.slice(0, 8), [
    { type: 'head', offset: 0, method: 'POST', target: '/a', length: 57 },
    line(57, 58, 58, 60, 4n),
    { type: 'body', data: 'wiki', offset: 60 },
    // After the data's CRLF (64 to 66): `5`, `;ext=1`, CRLF.
    line(66, 67, 73, 75, 5n),
    { type: 'body', data: 'pedia', offset: 75 },
    line(82, 83, 83, 85, 0n),
    { type: 'trailers', offset: 85, fields: [['Checksum', '9']] },
    { type: 'end', offset: 100 },
  ]);
  // Without the option the events are the same, less the lines (which keep the data's ranges apart).
  const plain = collect(new Decoder('request'), [wire]);
  const data = (events) => events.filter((e) => e.type === 'body').map((e) => e.data).join('');
  const others = (events) => events.filter((e) => e.type !== 'body' && e.type !== 'chunk-line');
  assert.deepEqual(others(whole), others(plain));
  assert.equal(data(whole), data(plain));
  // (After 'closed', a later push says 'closed' again: no empty last piece.)
  for (let cut = 1; cut < wire.length; cut++) {
    const split = collect(new Decoder('request', { chunkLines: true }), [wire.subarray(0, cut), wire.subarray(cut)]);
    assert.deepEqual(split, whole, `split at ${cut}`);
  }
  const bytewise = collect(new Decoder('request', { chunkLines: true }), Array.from(wire, (b) => Uint8Array.of(b)));
  assert.deepEqual(bytewise, whole);
});

test('chunkLines: bare LF line ends and chunk-sizes past 2^53', () => {
  const head = 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n';
  const wire = bytes(`${head}3\nabc\n0;x="a b"\n\n`);
  const h = head.length;
  const lenient = () => new Decoder('request', { chunkLines: true, lenient: { bareLf: true } });
  const whole = collect(lenient(), [wire]);
  assert.deepEqual(whole.filter((e) => e.type === 'chunk-line' || e.type === 'end'), [
    { type: 'chunk-line', offset: h, sizeEnd: h + 1, extEnd: h + 1, end: h + 2, size: 3n },
    { type: 'chunk-line', offset: h + 6, sizeEnd: h + 7, extEnd: h + 15, end: h + 16, size: 0n },
    { type: 'end', offset: wire.length },
  ]);
  for (let cut = 0; cut <= wire.length; cut++) {
    assert.deepEqual(collect(lenient(), [wire.subarray(0, cut), wire.subarray(cut)]), whole, `split at ${cut}`);
  }
  const huge = new Decoder('request', { chunkLines: true }).push(bytes(`${head}FFFFFFFFFFFFFFFF\r\nab`));
  assert.deepEqual(huge.filter((e) => e.type === 'chunk-line').map((e) => e.size), [2n ** 64n - 1n]);
  assert.throws(() => new Decoder('request', { chunkLines: 1 }), { name: 'TypeError', message: 'options.chunkLines must be a boolean' });
  assert.throws(() => decodeStream(new ReadableStream(), { chunkLines: true }), { name: 'TypeError', message: 'unknown option chunkLines' });
});

test('body events are ranges of the pushed chunk, not copies', () => {
  const decoder = new Decoder('request');
  const chunk = bytes('PUT / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd');
  const body = decoder.push(chunk).find((e) => e.type === 'body');
  assert.equal(body.data.buffer, chunk.buffer);
  assert.deepEqual([body.start, body.end, body.data.byteOffset], [chunk.length - 4, chunk.length, chunk.length - 4]);
  decoder.free();
});

test('resumeOffset: the first unaccepted line of a head, then the position in a body', () => {
  const decoder = new Decoder('request');
  const wire = bytes('GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc');
  const seen = [];
  for (const byte of wire) {
    decoder.push(Uint8Array.of(byte));
    seen.push([decoder.position, decoder.resumeOffset]);
  }
  // 20 bytes in ("GET / HTTP/1.1\r\nHost"): all consumed, the parse resumes at the Host line.
  assert.deepEqual(seen[19], [20, 16]);
  // The head ends at byte 46; in the body, resuming is reading the next byte.
  assert.deepEqual(seen[46], [47, 47]);
  assert.deepEqual(seen.at(-1), [wire.length, wire.length]);
  decoder.free();
});

test('stream errors carry stream offsets; nothing is read after them', () => {
  const decoder = new Decoder('request');
  const first = bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
  assert.deepEqual(decoder.push(first).map((e) => e.type), ['head', 'end']);
  const events = decoder.push(bytes('GET / HTTP/1.1\r\nHost: a\r\nB(d: 1\r\n\r\n'));
  assert.equal(events.length, 1);
  assert.equal(events[0].type, 'error');
  assert.deepEqual([events[0].error.code, events[0].error.offset], ['invalid_field_name', first.length + 26]);
  assert.equal(decoder.push(bytes('GET / HTTP/1.1\r\n')).at(-1).error.code, 'invalid_field_name', 'the error repeats');
  decoder.free();

  const truncated = new Decoder('request');
  assert.deepEqual(truncated.push(bytes('GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab')).map((e) => e.type), ['head', 'body']);
  assert.deepEqual(truncated.finish(), [{ type: 'incomplete' }]);
  const limited = new Decoder('request', { maxBodyBytes: 3 });
  const over = limited.push(bytes('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nabcde'));
  assert.deepEqual([over.at(-1).type, over.at(-1).error.code], ['error', 'body_too_large']);
});

test('response streams match final responses to the queued request methods', () => {
  const decoder = new Decoder('response', { requestMethods: ['HEAD'] });
  decoder.queueRequestMethod('GET');
  const wire = bytes('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n'
    + 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello');
  const events = collect(decoder, [wire]);
  assert.deepEqual(events.map((e) => e.type), ['head', 'end', 'head', 'end', 'head', 'body', 'end', 'closed']);
  assert.equal(events[5].data, 'hello');
  const closing = new Decoder('response');
  const got = closing.push(bytes('HTTP/1.1 101 Switching Protocols\r\nUpgrade: ws\r\n\r\n\x81\x00'));
  assert.deepEqual(got.map((e) => e.type), ['head', 'end', 'closed']);
  assert.equal(got.at(-1).offset, 49, 'bytes after the switch are the caller\'s');
  assert.equal(got[0].head.switchesProtocols, true);
  assert.throws(() => new Decoder('requests'), TypeError);

  // A method queued after the decoder started applies to the response it is waiting for.
  const late = new Decoder('response');
  late.queueRequestMethod('HEAD');
  const head = collect(late, [bytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n')]);
  assert.deepEqual(head.map((e) => e.type), ['head', 'end', 'closed']);
  const get = collect(new Decoder('response'), [bytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n')]);
  assert.deepEqual(get.map((e) => e.type), ['head', 'incomplete']);
});

test('request streams take and ignore request methods, like queueRequestMethod', () => {
  const decoder = new Decoder('request', { requestMethods: ['HEAD'] });
  decoder.queueRequestMethod('CONNECT');
  const events = decoder.push(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
  assert.deepEqual(events.map((e) => e.type), ['head', 'end']);
  assert.equal(events[0].head.method, 'GET');
  decoder.free();
  new Decoder('request', { requestMethods: [] }).free();
  assert.throws(() => new Decoder('response', { requestMethods: 'HEAD' }), /requestMethods must be an array/);
  assert.throws(() => new Decoder('request', { requestMethods: [1] }), TypeError);
});

test('a method queued during a response is the next response\'s', () => {
  const decoder = new Decoder('response');
  assert.deepEqual(decoder.push(bytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab')).map((e) => e.type), ['head', 'body']);
  decoder.queueRequestMethod('HEAD');
  const events = decoder.push(bytes('cdeHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n'));
  assert.deepEqual(events.map((e) => e.type), ['body', 'end', 'head', 'end'], 'the second response answers HEAD');
  assert.deepEqual(decoder.finish(), [{ type: 'closed', offset: decoder.position }]);

  // Interim responses take no method: one queued after a 100 is still the final response's.
  const interim = new Decoder('response');
  assert.deepEqual(interim.push(bytes('HTTP/1.1 100 Continue\r\n\r\n')).map((e) => e.type), ['head', 'end']);
  interim.queueRequestMethod('HEAD');
  assert.deepEqual(collect(interim, [bytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n')]).map((e) => e.type), ['head', 'end', 'closed']);
});

test('finish() after closed or error reports it again, as push does', () => {
  const failed = new Decoder('request');
  const error = failed.push(bytes('GET / HTTP/1.1\r\nHost: a\r\nB(d: 1\r\n\r\n'));
  assert.deepEqual(error.map((e) => e.type), ['error']);
  const again = failed.finish();
  assert.deepEqual(again.map((e) => [e.type, e.error.code, e.error.offset]), [['error', error[0].error.code, error[0].error.offset]]);
  const closed = new Decoder('request');
  const events = closed.push(bytes('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nextra'));
  assert.deepEqual(events.map((e) => e.type), ['head', 'end', 'closed']);
  assert.deepEqual(closed.finish(), [events.at(-1)]);
  assert.deepEqual(closed.push(bytes('more')), [events.at(-1)]);
});

// Any input gives a result or an error with its offset, never an exception or a trap, through
// every entry point; the fast path and the object path agree; and growing the module's memory
// under live parsers changes nothing. Inputs are seeded mutations of the conformance vectors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { initSync } from '../pkg/httpspan_wasm.js';
import { Decoder, RequestParser, ResponseParser, parseRequest, parseResponse } from '../pkg/node.js';
import { generator, mutate } from '../../tests/wasm/mutate.mjs';
import { loadDir } from '../../tests/wasm/vectors.mjs';

const vectors = fileURLToPath(new URL('../../tests/vectors', import.meta.url));

function checkResult(result, input) {
  assert.ok(['complete', 'partial', 'error'].includes(result.state));
  if (result.state === 'error') {
    assert.ok(Number.isInteger(result.error.offset) && result.error.offset >= 0 && result.error.offset <= input.length,
      `offset ${result.error.offset} of ${input.length} bytes`);
    assert.match(result.error.code, /^[a-z0-9_]+$/);
  } else if (result.state === 'complete') {
    assert.ok(result.headLen > 0 && result.headLen <= input.length);
    for (const f of result.fields) assert.ok(f.valueSpan.offset + f.valueSpan.length <= result.headLen);
  }
}

/** A result with every property as plain data, so that two results compare by what they say. */
const plain = (result) => (result.state === 'complete' ? result.toObject() : result);

test('mutated inputs never throw, and the fast path agrees with the object path', () => {
  const random = generator(0x5eed);
  const cases = loadDir(vectors).map((loaded) => loaded.case);
  const requests = new RequestParser();
  const responses = new ResponseParser();
  const methods = ['GET', 'HEAD', 'CONNECT', 'POST'];
  let errors = 0;
  for (let round = 0; round < 3000; round++) {
    const base = cases[random(cases.length)];
    const input = mutate(base.input, random);
    const method = methods[random(methods.length)];
    const asRequest = parseRequest(input);
    const asResponse = parseResponse(input, { requestMethod: method });
    checkResult(asRequest, input);
    checkResult(asResponse, input);
    if (asRequest.state === 'error') errors++;
    assert.deepStrictEqual(plain(requests.parse(input).toResult()), plain(asRequest));
    assert.deepStrictEqual(plain(responses.parse(input, method).toResult()), plain(asResponse));
    // The same bytes parsed in place, from the parsers' input regions (which hold the first
    // 65 544 bytes at most: all that parse(bytes) reads too).
    const region = requests.input(input.length);
    region.set(input.subarray(0, region.length));
    responses.input(input.length).set(input.subarray(0, region.length));
    assert.deepStrictEqual(plain(requests.parseInput(region.length).toResult()), plain(asRequest));
    assert.deepStrictEqual(plain(responses.parseInput(region.length, method).toResult()), plain(asResponse));

    // The same bytes as a stream, in random pieces.
    const decoder = new Decoder(base.kind, base.kind === 'response' ? { requestMethods: [method] } : {});
    let events = [];
    let start = 0;
    while (start < input.length && !['closed', 'error'].includes(events.at(-1)?.type)) {
      const end = Math.min(input.length, start + 1 + random(40));
      events = events.concat(decoder.push(input.subarray(start, end)));
      start = end;
    }
    if (!['closed', 'error'].includes(events.at(-1)?.type)) events = events.concat(decoder.finish());
    const last = events.at(-1);
    assert.ok(['closed', 'error', 'incomplete'].includes(last.type), `ended with ${last.type}`);
    if (last.type === 'error') assert.ok(last.error.offset <= input.length);
    decoder.free();
  }
  assert.ok(errors > 300, `mutations should break many inputs, broke ${errors}`);
});

test('growing the module memory keeps live parsers and their results right', () => {
  const input = new TextEncoder().encode('GET /before HTTP/1.1\r\nHost: a\r\n\r\n');
  const parser = new RequestParser();
  assert.equal(parser.parse(input).target, '/before');
  // Large inputs and decoders make the module allocate, which grows (and detaches) its memory.
  const big = new Uint8Array(4 << 20).fill(0x61);
  big.set(new TextEncoder().encode('PUT /big HTTP/1.1\r\nHost: a\r\nContent-Length: 4194000\r\n\r\n'));
  const decoders = [];
  for (let i = 0; i < 4; i++) {
    const decoder = new Decoder('request');
    const events = decoder.push(big);
    assert.equal(events[0].head.target, '/big');
    decoders.push(decoder);
  }
  assert.equal(parser.parse(input).target, '/before');
  assert.equal(parseRequest(input).target, '/before');
  for (const decoder of decoders) decoder.free();
  parser.free();
});

test('freed parsers and decoders give their memory back to the module', () => {
  // node.js has instantiated the module already, so this returns its exports.
  const { memory } = initSync({ module: new Uint8Array(0) });
  const head = new TextEncoder().encode('PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\n\r\n');
  const piece = new Uint8Array(1 << 20).fill(0x62);
  piece.set(head);
  // Pieces of growing sizes make the input buffers grow through several size classes.
  const cycle = () => {
    for (let i = 0; i < 40; i++) {
      const decoder = new Decoder('request');
      for (const size of [100, 5000, 70000, piece.length]) decoder.push(piece.subarray(0, size));
      decoder.free();
      const parser = new RequestParser({ maxHeadBytes: 100 + i });
      assert.equal(parser.parse(piece).target, '/x');
      parser.free();
    }
  };
  cycle();
  const size = memory.buffer.byteLength;
  cycle();
  cycle();
  assert.equal(memory.buffer.byteLength, size, 'the same blocks serve the same allocations again');
});

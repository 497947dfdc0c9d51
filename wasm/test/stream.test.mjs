// decodeStream: messages with body streams from a ReadableStream or a Node stream, pipelined,
// chunked with trailers; body chunks are views of the source's chunks; the source is read only
// as the consumer asks (backpressure); errors and a stream cut short reach the consumer.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  Decoder, IncompleteMessageError, ParseError, decodeStream, toRequest, toResponse,
} from '../pkg/node.js';
import { generator, mutate } from '../../tests/wasm/mutate.mjs';
import { SUPPORTED_OPTIONS, loadDir } from '../../tests/wasm/vectors.mjs';

const bytes = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const text = (chunks) => chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.length).toString('latin1')).join('');

const PIPELINE = 'POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'
  + '4\r\nwiki\r\n5;ext=1\r\npedia\r\n0\r\nChecksum: 9\r\n\r\n'
  + 'GET /b HTTP/1.1\r\nHost: x\r\n\r\n'
  + 'PUT /c HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello';

/** A ReadableStream of `input` (text or bytes) in pieces cut at `cuts`, counting reads; every piece is its own buffer. */
function source(input, cuts) {
  const all = typeof input === 'string' ? bytes(input) : input;
  const pieces = [];
  let at = 0;
  for (const cut of [...cuts, all.length]) {
    if (cut > at) pieces.push(all.slice(at, cut));
    at = Math.max(at, cut);
  }
  const stats = { pulls: 0, pieces };
  const stream = new ReadableStream({
    pull(controller) {
      stats.pulls++;
      const piece = pieces[stats.pulls - 1];
      if (piece === undefined) controller.close();
      else controller.enqueue(piece);
    },
  }, { highWaterMark: 0 });
  return { stream, stats };
}

async function readAll(body) {
  const chunks = [];
  if (body === null) return chunks;
  for await (const chunk of body) chunks.push(chunk);
  return chunks;
}

async function collect(messages) {
  const out = [];
  for await (const { head, body, trailers } of messages) {
    const chunks = await readAll(body);
    out.push({ start: `${head.method} ${head.target}`, body: body === null ? null : text(chunks), trailers: (await trailers).map((f) => `${f.name}: ${f.value}`) });
  }
  return out;
}

const EXPECTED = [
  { start: 'POST /a', body: 'wikipedia', trailers: ['Checksum: 9'] },
  { start: 'GET /b', body: null, trailers: [] },
  { start: 'PUT /c', body: 'hello', trailers: [] },
];

test('pipelined messages, chunked bodies and trailers, however the stream is cut', async () => {
  const length = PIPELINE.length;
  assert.deepEqual(await collect(decodeStream(source(PIPELINE, []).stream)), EXPECTED);
  for (let cut = 1; cut < length; cut++) {
    assert.deepEqual(await collect(decodeStream(source(PIPELINE, [cut]).stream)), EXPECTED, `cut at ${cut}`);
  }
  const everyByte = Array.from({ length }, (_, i) => i + 1);
  assert.deepEqual(await collect(decodeStream(source(PIPELINE, everyByte).stream)), EXPECTED);
});

test('body chunks are views of the source chunks, not copies', async () => {
  const { stream, stats } = source(PIPELINE, [70, 80, 200]);
  const buffers = new Set(stats.pieces.map((piece) => piece.buffer));
  let seen = 0;
  for await (const { body } of decodeStream(stream)) {
    for (const chunk of await readAll(body)) {
      assert.ok(buffers.has(chunk.buffer), 'the chunk shares its source chunk\'s memory');
      seen++;
    }
  }
  assert.ok(seen >= 3);
});

test('the source is read only as the consumer asks (backpressure)', async () => {
  const head = 'POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n';
  const cuts = [head.length];
  for (let at = head.length + 1000; at < head.length + 100000; at += 1000) cuts.push(at);
  const { stream, stats } = source(head + 'x'.repeat(100000), cuts);
  const messages = decodeStream(stream);
  const { value } = await messages.next();
  assert.ok(stats.pulls <= 2, `${stats.pulls} reads for the head`);
  const reader = value.body.getReader();
  const first = await reader.read();
  assert.equal(first.value.length, 1000);
  // Nothing reads ahead while the consumer waits.
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(stats.pulls <= 3, `${stats.pulls} reads for the head and one body chunk`);
  let total = first.value.length;
  for (let r = await reader.read(); !r.done; r = await reader.read()) total += r.value.length;
  assert.equal(total, 100000);
  assert.deepEqual(await messages.next(), { done: true, value: undefined });
});

test('asking for the next message skips the rest of the body; a reader still on it gets an error', async () => {
  const messages = decodeStream(source(PIPELINE, [60, 64]).stream);
  const first = (await messages.next()).value;
  const reader = first.body.getReader();
  assert.equal(text([(await reader.read()).value]), 'wiki');
  const second = (await messages.next()).value;
  assert.equal(second.head.target, '/b');
  await assert.rejects(reader.read(), /skipped/);
  assert.deepEqual((await first.trailers).map((f) => f.name), ['Checksum']);
  // A body never touched is skipped quietly.
  const third = (await messages.next()).value;
  assert.equal(third.head.target, '/c');
  assert.equal((await messages.next()).done, true);
});

test('an invalid stream rejects the iteration and errors the body being read', async () => {
  const smuggled = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n';
  await assert.rejects(collect(decodeStream(source(smuggled, []).stream)),
    (error) => error instanceof ParseError && error.code === 'content_length_with_transfer_encoding' && error.offset === 45);

  const badChunk = 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nzz\r\n';
  const messages = decodeStream(source(badChunk, [60]).stream);
  const { value } = await messages.next();
  await assert.rejects(readAll(value.body), (error) => error instanceof ParseError && error.code === 'invalid_chunk_size');
  await assert.rejects(value.trailers, ParseError);
  await assert.rejects(messages.next(), ParseError);
});

test('chunk extensions are bounded per body, not only per line', async () => {
  // Three one-byte chunks with 4 bytes of extensions each: 12 in all.
  const body = (last) => 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'
    + '1;abc\r\na\r\n1;abc\r\nb\r\n' + last + '\r\n\r\n';
  const options = { maxBodyChunkExtBytes: 12 };
  const [accepted] = await collect(decodeStream(source(body('0;abc'), [70]).stream, options));
  assert.equal(accepted.body, 'ab');
  await assert.rejects(collect(decodeStream(source(body('0;abcd'), [70]).stream, options)),
    (error) => error instanceof ParseError && error.code === 'chunk_extensions_too_large' && error.offset === 81);
  // The default bound: 256 KiB, reached by a flood of tiny chunks.
  const flood = 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'
    + `1;${'e'.repeat(1000)}\r\nx\r\n`.repeat(300);
  await assert.rejects(collect(decodeStream(source(flood, []).stream)),
    (error) => error instanceof ParseError && error.code === 'chunk_extensions_too_large');
});

test('a stream that ends inside a message is an IncompleteMessageError', async () => {
  const cut = 'PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc';
  const messages = decodeStream(source(cut, []).stream);
  const { value } = await messages.next();
  await assert.rejects(readAll(value.body), IncompleteMessageError);
  await assert.rejects(messages.next(), IncompleteMessageError);
  await assert.rejects(decodeStream(source('GET / HTTP/1.1\r\nHo', []).stream).next(), IncompleteMessageError);
});

test('Node streams, as they are and through Readable.toWeb; responses with their request methods', async () => {
  const node = () => Readable.from([Buffer.from(PIPELINE.slice(0, 50), 'latin1'), Buffer.from(PIPELINE.slice(50), 'latin1')]);
  assert.deepEqual(await collect(decodeStream(node())), EXPECTED);
  assert.deepEqual(await collect(decodeStream(Readable.toWeb(node()))), EXPECTED);

  const answers = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n'
    + 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';
  const responses = decodeStream(source(answers, [10]).stream, { kind: 'response', requestMethods: ['HEAD'] });
  const seen = [];
  for await (const { head, body } of responses) seen.push([head.status, body === null ? null : text(await readAll(body))]);
  assert.deepEqual(seen, [[200, null], [200, 'ok']]);
  assert.throws(() => decodeStream({}), TypeError);
});

test('a decoded message becomes a Request or a Response with its body stream', async () => {
  const messages = decodeStream(source(PIPELINE, [70]).stream);
  const { value } = await messages.next();
  const request = toRequest(value.head, value.body);
  assert.deepEqual([request.method, request.url, await request.text()], ['POST', 'http://x/a', 'wikipedia']);
  const upstream = decodeStream(source('HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n', [50]).stream, { kind: 'response' });
  const answer = (await upstream.next()).value;
  const response = toResponse(answer.head, answer.body);
  assert.deepEqual([response.status, response.headers.get('transfer-encoding'), await response.text()], [201, null, 'hi']);
  await messages.return();
});

/** What the Decoder alone makes of `input`: each message's start and body text, and how it ended. */
function decoded(kind, options, input) {
  const decoder = new Decoder(kind, options);
  const events = [...decoder.push(input), ...decoder.finish()];
  decoder.free();
  const messages = [];
  for (const event of events) {
    if (event.type === 'head') messages.push({ offset: event.offset, body: '' });
    else if (event.type === 'body') messages.at(-1).body += text([event.data]);
  }
  const last = events.at(-1);
  return { messages, end: last.type === 'error' ? last.error.code : last.type };
}

test('decodeStream agrees with the Decoder on the vectors and their mutations, cut at random', async () => {
  const random = generator(0x57ea);
  const cases = loadDir(fileURLToPath(new URL('../../tests/vectors', import.meta.url))).map((loaded) => loaded.case);
  for (let round = 0; round < cases.length + 1000; round++) {
    const base = cases[round % cases.length];
    const input = round < cases.length ? base.input : mutate(base.input, random);
    const lenient = {};
    for (const option of base.options) Object.assign(lenient, SUPPORTED_OPTIONS[option]);
    const options = base.kind === 'response' ? { lenient, requestMethods: base.requestMethods } : { lenient };
    const expected = decoded(base.kind, options, input);
    const cuts = [];
    for (let at = random(40); at < input.length; at += 1 + random(40)) cuts.push(at);
    const messages = [];
    let end = 'closed';
    try {
      for await (const { offset, body } of decodeStream(source(input, cuts).stream, { kind: base.kind, ...options })) {
        const message = { offset, body: '' };
        messages.push(message);
        // A body's error is the iteration's too; the iteration reports it.
        if (body !== null) message.body = text(await readAll(body).catch(() => []));
      }
    } catch (error) {
      assert.ok(error instanceof ParseError || error instanceof IncompleteMessageError, error.stack);
      end = error instanceof ParseError ? error.code : 'incomplete';
    }
    const id = `${base.id}${round < cases.length ? '' : ` mutated (round ${round})`}`;
    assert.equal(end, expected.end, id);
    assert.deepEqual(messages.map((m) => m.offset), expected.messages.map((m) => m.offset), id);
    // A body that failed midway is cut short in both.
    if (end === 'closed') assert.deepEqual(messages, expected.messages, id);
  }
});

// Compiled with tsc --noEmit by types.test.mjs: the published types describe the API, and
// misuse is a type error (each @ts-expect-error fails the check if the error goes away).
import {
  Decoder, ParseError, RequestParser, ResponseParser, SPANS_LENGTH, StaleViewError, buildInfo, init,
  parseRequest, parseResponse,
  type ErrorCode, type Field, type RequestHead, type ResponseHead, type Span,
} from '../../pkg/index.js';

await init();
const bytes = new TextEncoder().encode('GET / HTTP/1.1\r\nHost: a\r\n\r\n');

const result = parseRequest(bytes, { maxHeadBytes: 4096, lenient: {} });
if (result.state === 'complete') {
  const head: RequestHead = result;
  const method: string = head.method;
  const span: Span = head.targetSpan;
  const offset: number = span.offset + span.length + head.headLen;
  const version: 'HTTP/1.0' | 'HTTP/1.1' = head.version;
  const length: bigint | null = head.contentLength;
  const bitmap: bigint = head.knownBitmap;
  const first: number | undefined = head.knownIndex['host'];
  const field: Field = head.fields[0];
  const known: string | null = field.known;
  const framing: 'none' | 'length' | 'chunked' | 'until-close' = head.framing;
  console.log(method, offset, version, length, bitmap, first, known, framing, field.valueSpan.offset);
  // @ts-expect-error a request has no status
  console.log(head.status);
} else if (result.state === 'error') {
  const error: ParseError = result.error;
  const code: ErrorCode = error.code;
  const where: number = error.offset;
  const status: 400 | 413 | 414 | 431 | 505 = error.status;
  console.log(code, where, status, error.rfc, error.message);
} else {
  const partial: 'partial' = result.state;
  console.log(partial);
  // @ts-expect-error a partial result has no method
  console.log(result.method);
}

const response = parseResponse(bytes, { requestMethod: 'HEAD' });
if (response.state === 'complete') {
  const head: ResponseHead = response;
  const status: number = head.status;
  const flags: boolean = head.interim || head.switchesProtocols;
  console.log(status, flags, head.reason);
}
// @ts-expect-error parseResponse needs the request method
parseResponse(bytes);
// @ts-expect-error bytes, not a string
parseRequest('GET / HTTP/1.1');
// @ts-expect-error limits are numbers
parseRequest(bytes, { maxHeadBytes: '8k' });

const parser = new RequestParser();
const view = parser.parse(bytes, new Uint32Array(SPANS_LENGTH));
const words: Uint32Array = view.spans;
const host: string | undefined = view.get('host');
const state: 'complete' | 'partial' | 'error' = view.state;
console.log(words, host, state, view.method, view.fieldCount, view.fieldSpan(0, 1).length);
const responses = new ResponseParser();
console.log(responses.parse(bytes, 'GET').status);

const decoder = new Decoder('request', { maxBodyBytes: null });
for (const event of decoder.push(bytes)) {
  if (event.type === 'head') {
    const target: string = event.head.target;
    const start: number = event.offset;
    console.log(target, start, event.bytes.length);
  } else if (event.type === 'body') {
    const data: Uint8Array = event.data;
    console.log(data, event.offset);
  } else if (event.type === 'error') {
    console.log(event.error.code);
  }
}
const responseDecoder = new Decoder('response', { requestMethods: ['GET'] });
for (const event of responseDecoder.finish()) {
  if (event.type === 'head') console.log(event.head.status);
}
const simd: boolean = buildInfo().simd128;
console.log(simd);

// Zero-copy input and the plain copies of heads.
const region: Uint8Array = parser.input(4096);
region.set(bytes);
const inPlace = parser.parseInput(bytes.length);
const target: string = inPlace.target;
const kept = inPlace.toResult();
if (kept.state === 'complete') {
  const plain = kept.toObject();
  const name: string = plain.fields[0].name;
  const copy: { name: string; known: string | null } = kept.fields[0].toJSON();
  console.log(copy);
  const length: bigint | null = plain.contentLength;
  console.log(target, name, length, JSON.stringify(kept.toJSON()));
}
console.log(responses.parseInput(responses.input(64).length, 'HEAD').status, decoder.pushInput(decoder.input(16).length));
try {
  console.log(inPlace.fieldKnown(0));
} catch (error) {
  if (error instanceof StaleViewError) console.log(error.name);
}
// @ts-expect-error parseInput takes the length written, not the bytes
parser.parseInput(bytes);

// Compiled with tsc --strict --noEmit by types.test.mjs, under lib ["ES2022", "DOM"] and under
// lib ["ES2022"] with @cloudflare/workers-types: the published types describe the API, and
// misuse is a type error (each @ts-expect-error fails the check if the error goes away).
import {
  Decoder, FetchConversionError, ParseError, RequestParser, RequestSpans, ResponseParser, SPANS_LENGTH,
  StaleViewError, buildInfo, decodeStream, init, parseRequest, parseResponse, toHeaders, toNodeHeaders, toRequest, toResponse,
  type BuildInfo, type ErrorCode, type Field, type KnownHeaderName, type RequestHead, type ResponseHead, type Span,
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
  const known: KnownHeaderName | null = field.known;
  const framing: 'none' | 'length' | 'chunked' | 'until-close' = head.framing;
  console.log(method, offset, version, length, bitmap, first, known, framing, field.valueSpan.offset);
  // The object heads have every accessor of the views.
  const host: string | undefined = head.get('host');
  const cookies: string[] = head.getSetCookie().concat(head.getAll('cookie'));
  console.log(host, cookies, head.indexOf('x-id'), head.fieldCount, head.fieldName(0), head.toResult().method);
  const json: string | null = head.toJSON().contentLength;
  const plain: bigint = head.toObject().knownBitmap;
  console.log(json, plain);
  // @ts-expect-error a request has no status
  console.log(head.status);
  // @ts-expect-error 'x-nope' is not a known header name
  const unknown: KnownHeaderName = 'x-nope';
  console.log(unknown);
} else if (result.state === 'error') {
  const error: ParseError = result.error;
  const code: ErrorCode = error.code;
  const where: number = error.offset;
  const status: 400 | 413 | 414 | 431 | 505 | 502 = error.status;
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
  const converted = toResponse(head, null, { dropHopByHop: true });
  console.log(converted.status, toHeaders(head).get('content-type'), toNodeHeaders(head)['set-cookie']?.length);
}
// @ts-expect-error parseResponse needs the request method
parseResponse(bytes);
// @ts-expect-error bytes, not a string
parseRequest('GET / HTTP/1.1');
// @ts-expect-error limits are numbers
parseRequest(bytes, { maxHeadBytes: '8k' });

// The fast path's views are unions on `state`.
const parser = new RequestParser();
const view = parser.parse(bytes, new Uint32Array(SPANS_LENGTH));
const words: Uint32Array = view.spans;
if (view.state === 'complete') {
  const host: string | undefined = view.get('host');
  console.log(words, host, view.method, view.fieldCount, view.fieldSpan(0, 1).length, view.getAll('host'));
  const request = toRequest(view, null, { base: 'https://example.com' });
  console.log(request.url, request.method, request.headers.get('host'));
} else if (view.state === 'error') {
  const code: ErrorCode = view.error.code;
  console.log(code);
} else {
  const error: null = view.error;
  console.log(error);
  // @ts-expect-error a partial view has no target
  console.log(view.target);
}
// @ts-expect-error toRequest needs a complete head
toRequest(view);
console.log(view instanceof RequestSpans);

const responses = new ResponseParser();
const answered = responses.parse(bytes, { requestMethod: 'GET' });
if (answered.state === 'complete') console.log(answered.status);
// @ts-expect-error the method is required, as parseResponse requires it
responses.parse(bytes);

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
const framing = new Decoder('request', { chunkLines: true });
for (const event of framing.push(bytes)) {
  if (event.type === 'chunk-line') {
    const size: bigint = event.size;
    const parts: number[] = [event.offset, event.sizeEnd, event.extEnd, event.end];
    console.log(size === 0n ? 'last chunk' : size, parts);
  } else if (event.type === 'end') {
    const end: number = event.offset;
    console.log(end);
  }
}
const responseDecoder = new Decoder('response', { requestMethods: ['GET'] });
for (const event of responseDecoder.finish()) {
  if (event.type === 'head') console.log(event.head.status);
}
const info: BuildInfo = buildInfo();
const file: string | null = info.file;
const build: 'simd128' | 'baseline' | 'given' = info.build;
console.log(info.simd128, file, build);

// Zero-copy input and the plain copies of heads.
const region: Uint8Array = parser.input(4096);
region.set(bytes);
const inPlace = parser.parseInput(bytes.length);
const kept = inPlace.toResult();
if (kept.state === 'complete') {
  const plain = kept.toObject();
  const name: string = plain.fields[0].name;
  const copy: { name: string; known: string | null } = kept.fields[0].toJSON();
  console.log(copy);
  const length: bigint | null = plain.contentLength;
  console.log(kept.target, name, length, JSON.stringify(kept.toJSON()));
}
const inPlaceResponse = responses.parseInput(responses.input(64).length, { requestMethod: 'HEAD' });
console.log(inPlaceResponse.state, decoder.pushInput(decoder.input(16).length));
try {
  if (inPlace.state === 'complete') console.log(inPlace.fieldKnown(0));
} catch (error) {
  if (error instanceof StaleViewError) console.log(error.name, error.reason);
  if (error instanceof FetchConversionError) console.log(error.code);
}
// @ts-expect-error parseInput takes the length written, not the bytes
parser.parseInput(bytes);

// Streams: messages with body streams, into Requests and Responses.
declare const upstream: ReadableStream<Uint8Array>;
for await (const message of decodeStream(upstream, { maxBodyBytes: 1 << 20 })) {
  const target: string = message.head.target;
  const request = toRequest(message.head, message.body);
  const trailers: Field[] = await message.trailers;
  console.log(target, request.method, trailers.length);
}
const answers = decodeStream(upstream, { kind: 'response', requestMethods: ['GET'] });
answers.queueRequestMethod('HEAD');
for await (const { head, body } of answers) {
  if (!head.interim) console.log(toResponse(head, body).status);
}
// @ts-expect-error request streams take no request methods to queue
decodeStream(upstream).queueRequestMethod('GET');

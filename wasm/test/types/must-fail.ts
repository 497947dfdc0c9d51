// Misuse that must not type-check: types.test.mjs compiles this file and expects an error on
// exactly the lines that end with a must-fail comment, and on no other line.
import { Decoder, RequestParser, decodeStream, parseRequest, parseResponse, toRequest, toResponse } from '../../pkg/index.js';

declare const bytes: Uint8Array;
const view = new RequestParser().parse(bytes);
console.log(view.target); // must fail: the view may be partial or failed
const result = parseRequest(bytes);
console.log(result.error.code); // must fail: only a failed result has an error
parseResponse(bytes, {}); // must fail: the request method is required
const head = parseResponse(bytes, { requestMethod: 'GET' });
if (head.state === 'complete') {
  toRequest(head); // must fail: a response head is not a request
  console.log(head.method); // must fail: a response has no method
}
if (result.state === 'complete') {
  toResponse(result); // must fail: a request head is not a response
  const code: 400 = result.error; // must fail: a complete head has no error
  console.log(code);
}
for (const event of new Decoder('request', { chunkLines: true }).push(bytes)) {
  if (event.type === 'chunk-line') {
    const size: number = event.size; // must fail: a chunk-size may exceed 2^53, so it is a bigint
    console.log(size);
  }
}
declare const source: Parameters<typeof decodeStream>[0];
decodeStream(source, { chunkLines: true }); // must fail: chunk lines are a Decoder option

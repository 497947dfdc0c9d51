// A Cloudflare Worker that inspects raw HTTP/1.1: POST a message (a request, or a response with
// ?response&method=HEAD) as the body, get back what httpspan read as JSON, or the error with its
// byte offset, code and RFC rule (status 422). POST to /stream a connection's worth of pipelined
// requests (chunked bodies and trailers too) to get each one's head, body length and trailers,
// read from the request body as it streams in. GET /build says which module is loaded.
import { ParseError, buildInfo, decodeStream, parseRequest, parseResponse } from '@httpspan/wasm';

// A complete head's toJSON() decodes every property and writes its bigints as decimal strings
// (JSON has no bigint); an error's gives its code, message, offset, RFC section and status.
function describe(result) {
  return result.state === 'partial' ? result : result.state === 'error' ? { state: 'error', error: result.error.toJSON() } : result.toJSON();
}

/** Each request of the stream: its head, its body's length and its trailers; or the error. */
async function describeStream(body) {
  const messages = [];
  try {
    for await (const message of decodeStream(body)) {
      let bodyLength = 0;
      if (message.body !== null) for await (const chunk of message.body) bodyLength += chunk.length;
      const trailers = (await message.trailers).map((field) => [field.name, field.value]);
      messages.push({ offset: message.offset, head: message.head.toJSON(), bodyLength, trailers });
    }
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return Response.json({ messages, error: error.toJSON() }, { status: 422 });
  }
  return Response.json({ messages });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/build') return Response.json(buildInfo());
    if (request.method !== 'POST') return new Response('POST raw HTTP/1.1 bytes to /\n', { status: 405 });
    if (url.pathname === '/stream') return describeStream(request.body);
    const bytes = new Uint8Array(await request.arrayBuffer());
    const result = url.searchParams.has('response')
      ? parseResponse(bytes, { requestMethod: url.searchParams.get('method') ?? 'GET' })
      : parseRequest(bytes);
    return Response.json(describe(result), { status: result.state === 'error' ? 422 : 200 });
  },
};

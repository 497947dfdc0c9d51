// A Cloudflare Worker that inspects raw HTTP/1.1: POST a message (a request, or a response with
// ?response&method=HEAD) as the body, get back what httpspan read as JSON, or the error with its
// byte offset, code and RFC rule (status 422). GET /build says which module is loaded.
import { buildInfo, parseRequest, parseResponse } from '@httpspan/wasm';

// A complete head's toJSON() decodes every property and writes its bigints as decimal strings
// (JSON has no bigint); an error's gives its code, message, offset, RFC section and status.
function describe(result) {
  return result.state === 'partial' ? result : result.state === 'error' ? { state: 'error', error: result.error.toJSON() } : result.toJSON();
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/build') return Response.json(buildInfo());
    if (request.method !== 'POST') return new Response('POST raw HTTP/1.1 bytes to /\n', { status: 405 });
    const bytes = new Uint8Array(await request.arrayBuffer());
    const result = url.searchParams.has('response')
      ? parseResponse(bytes, { requestMethod: url.searchParams.get('method') ?? 'GET' })
      : parseRequest(bytes);
    return Response.json(describe(result), { status: result.state === 'error' ? 422 : 200 });
  },
};

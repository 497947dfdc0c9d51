// A Worker that speaks HTTP/1.1 to an upstream over a raw TCP socket (cloudflare:sockets) and
// streams the decoded answer back as its Response. httpspan decodes the upstream's bytes: an
// answer shaped for smuggling (Content-Length with Transfer-Encoding, bare LF, ...) or cut short
// becomes a 502 with the error and its byte offset, never a guess at where the body ends.
// env.UPSTREAM is the upstream's host:port.
import { connect } from 'cloudflare:sockets';
import { ParseError, decodeStream, toResponse } from '@httpspan/wasm';

const encoder = new TextEncoder();

/** The request line and fields sent upstream; the body goes with a Content-Length. */
function requestHead(request, upstream, bodyLength) {
  const url = new URL(request.url);
  const lines = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${upstream}`, 'Connection: close'];
  const type = request.headers.get('content-type');
  if (type !== null) lines.push(`Content-Type: ${type}`);
  if (bodyLength > 0) lines.push(`Content-Length: ${bodyLength}`);
  return encoder.encode(`${lines.join('\r\n')}\r\n\r\n`);
}

function badGateway(error) {
  return Response.json({ error }, { status: 502 });
}

export default {
  async fetch(request, env) {
    const body = request.body === null ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
    const socket = connect(env.UPSTREAM);
    const writer = socket.writable.getWriter();
    await writer.write(requestHead(request, env.UPSTREAM, body.length));
    if (body.length > 0) await writer.write(body);
    writer.releaseLock();

    // Iterated by hand, not with for await: leaving such a loop would cancel the socket that
    // the returned body still reads from.
    const answers = decodeStream(socket.readable, { kind: 'response', requestMethods: [request.method] });
    try {
      for (;;) {
        const { done, value } = await answers.next();
        if (done) return badGateway({ code: 'no_response', message: 'the upstream closed without an answer' });
        // An interim 1xx answer (103 Early Hints, ...) comes before the final one.
        if (value.head.interim) continue;
        if (value.head.switchesProtocols) return badGateway({ code: 'switched_protocols', message: 'the upstream switched protocols' });
        // The socket closes once the body has been read, or failed.
        value.trailers.finally(() => socket.close()).catch(() => {});
        if (value.body === null) socket.close();
        return toResponse(value.head, value.body);
      }
    } catch (error) {
      socket.close();
      // ParseError.status is 502 for an invalid response.
      if (error instanceof ParseError) return Response.json({ error: error.toJSON() }, { status: error.status });
      throw error;
    }
  },
};

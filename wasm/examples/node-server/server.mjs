// A Node net server that reads HTTP/1.1 with @httpspan/wasm instead of Node's own parser:
// keep-alive, pipelined requests, chunked bodies and trailers. Each request is answered with
// JSON saying what httpspan read; an invalid request gets the status its error calls for (400,
// 413, 431, 505) and the error with its byte offset, and the connection closes.
//   PORT=8080 node server.mjs
import net from 'node:net';
import { ParseError, decodeStream, toNodeHeaders } from '@httpspan/wasm';

const REASONS = {
  200: 'OK', 400: 'Bad Request', 413: 'Content Too Large', 414: 'URI Too Long',
  431: 'Request Header Fields Too Large', 505: 'HTTP Version Not Supported',
};

function answer(socket, status, value, close) {
  const json = JSON.stringify(value);
  socket.write(`HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json\r\n`
    + `Content-Length: ${Buffer.byteLength(json)}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${json}`);
}

async function serve(socket) {
  try {
    // The iteration ends by itself after a request that closes the connection.
    for await (const { head, body, trailers } of decodeStream(socket, { maxBodyBytes: 1 << 20 })) {
      let bodyLength = 0;
      if (body !== null) for await (const chunk of body) bodyLength += chunk.length;
      answer(socket, 200, {
        method: head.method,
        target: head.target,
        headers: toNodeHeaders(head),
        bodyLength,
        trailers: (await trailers).map((field) => [field.name, field.value]),
      }, !head.keepAlive);
    }
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    answer(socket, error.status, { error: error.toJSON() }, true);
  }
  socket.end();
}

const server = net.createServer((socket) => {
  serve(socket).catch(() => socket.destroy());
});
server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});

// Network helpers shared by the wasm package's tests and benchmarks.
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (for a server started by a child process). */
export async function freePort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * One request of Node's http client to 127.0.0.1:`port` through `agent`; `body` is the pieces
 * to write, or a function that writes and ends the request itself. Resolves with the status,
 * headers, text and socket of the response.
 */
export function httpRequest(agent, port, options, body = []) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, agent, ...options }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { data += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, data, socket: req.socket }));
    });
    req.setTimeout(5000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    if (typeof body === 'function') {
      body(req);
    } else {
      for (const piece of body) req.write(piece);
      req.end();
    }
  });
}

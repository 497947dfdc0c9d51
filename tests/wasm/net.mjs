// Network helpers shared by the wasm package's tests and benchmarks.
import { once } from 'node:events';
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

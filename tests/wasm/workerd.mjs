// Runs workerd (the npm package `workerd` in wasm/node_modules) on 127.0.0.1 for the wasm
// package's tests and benchmarks.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from './net.mjs';

const workerd = fileURLToPath(new URL('../../wasm/node_modules/.bin/workerd', import.meta.url));

/**
 * Serves `config` (its socket named `http`) on a free port and waits until `path` answers.
 * Returns the base URL and `stop()`. `env`: extra environment variables for the config's
 * `fromEnvironment` bindings.
 */
export async function serveWorkerd(config, { path = '/', env = {} } = {}) {
  const port = await freePort();
  // The binary itself, not a wrapper, so that its pid is the one stopped.
  const child = spawn(workerd, ['serve', config, '--socket-addr', `http=127.0.0.1:${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill();
      await once(child, 'exit');
    }
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      await fetch(`${base}${path}`);
      return { base, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await stop();
  throw new Error(`workerd did not start: ${stderr}`);
}

// Benchmark (not a test): the contenders of contenders.mjs in headless Chromium. Serves a page
// (cross-origin isolated, so that performance.now() has its finest resolution) that loads the
// package's web entry, undici's llhttp modules and the bench inputs, runs the interleaved
// rounds, and posts the rows back; this script prints them as bench.mjs does.
//
// Usage: node wasm/bench/chromium.mjs [DIR] [--rounds N]   (make bench-wasm-chromium)
// CHROMIUM=/path/to/chromium overrides /usr/bin/chromium.

import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadInputs, llhttpModules } from './bench.mjs';
import { format } from './contenders.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const pkg = fileURLToPath(new URL('../pkg/', import.meta.url));
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 40;
const dir = args[0] ?? fileURLToPath(new URL('../../../shared/bench-inputs', import.meta.url));
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';

const inputs = loadInputs(dir).map(({ name, response, bytes }) => ({ name, response, bytes: Array.from(bytes) }));
const llhttp = llhttpModules();

const PAGE = `<!doctype html><meta charset="utf-8"><title>httpspan wasm bench</title>
<script type="module">
import * as api from '/pkg/web.js';
import * as wasm from '/pkg/httpspan_wasm.js';
import { shortText } from '/pkg/text.js';
import { SHORT_STRING, contenders, run } from '/bench/contenders.mjs';
const report = (body) => fetch('/result', { method: 'POST', body: JSON.stringify(body) });
try {
  await api.init();
  const data = await (await fetch('/data.json')).json();
  const module = async (name) => WebAssembly.compile(await (await fetch('/llhttp/' + name)).arrayBuffer());
  const list = contenders({
    api, wasm,
    llhttp: { simd: await module('simd.wasm'), plain: await module('plain.wasm') },
    llhttpType: data.type,
    // One string per callback: the package's own way for short ranges, else String.fromCharCode
    // over the bytes (faster than a TextDecoder call per range in Chromium).
    latin1: (u8, start, end) => end - start < SHORT_STRING ? shortText(u8, start, end - start)
      : String.fromCharCode.apply(null, u8.subarray(start, end)),
  });
  const inputs = data.inputs.map((i) => ({ ...i, bytes: Uint8Array.from(i.bytes) }));
  const now = () => performance.now() * 1e6;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 0));
  const rows = await run({ api, inputs, list, rounds: data.rounds, now, pause });
  await report({ rows, userAgent: navigator.userAgent, isolated: crossOriginIsolated, build: api.buildInfo() });
} catch (error) {
  await report({ error: String(error && error.stack || error) });
}
</script>`;

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

function serve(request, response, done) {
  const send = (status, body, type = 'text/plain') => {
    // Cross-origin isolation: performance.now() is then coarsened to 5 us instead of 100 us.
    response.writeHead(status, {
      'Content-Type': type, 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp',
    });
    response.end(body);
  };
  const url = new URL(request.url, 'http://localhost');
  if (request.method === 'POST' && url.pathname === '/result') {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      send(204, '');
      done(JSON.parse(body));
    });
    return;
  }
  if (url.pathname === '/') return send(200, PAGE, 'text/html');
  if (url.pathname === '/data.json') return send(200, JSON.stringify({ inputs, rounds: ROUNDS, type: llhttp.type }), 'application/json');
  if (url.pathname === '/llhttp/simd.wasm') return send(200, llhttp.simd, TYPES['.wasm']);
  if (url.pathname === '/llhttp/plain.wasm') return send(200, llhttp.plain, TYPES['.wasm']);
  const file = url.pathname.startsWith('/pkg/') ? join(pkg, url.pathname.slice(5))
    : url.pathname === '/bench/contenders.mjs' ? join(here, 'contenders.mjs') : null;
  if (file === null || file.includes('..')) return send(404, 'not found');
  try {
    return send(200, readFileSync(file), TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream');
  } catch {
    return send(404, 'not found');
  }
}

const profile = mkdtempSync(join(os.tmpdir(), 'httpspan-bench-chromium-'));
let browser = null;
let server = null;
const finished = new Promise((resolve) => {
  server = http.createServer((request, response) => serve(request, response, resolve));
  server.listen(0, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${server.address().port}/`;
    browser = spawn(chromium, [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic', `--user-data-dir=${profile}`, url,
    ], { stdio: 'ignore' });
    browser.on('exit', (code) => resolve({ error: `chromium exited (${code}) before reporting` }));
  });
});
const timeout = setTimeout(() => {
  console.error('error: no result from Chromium within 15 minutes');
  browser?.kill();
  process.exit(1);
}, 15 * 60 * 1000);

const result = await finished;
clearTimeout(timeout);
server.close();
// Chromium writes to its profile until it has exited.
if (browser !== null && browser.exitCode === null) {
  const exited = once(browser, 'exit');
  browser.kill();
  await exited;
}
// Its helper processes may still be writing for a moment.
try {
  rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 200 });
} catch (error) {
  console.error(`note: could not remove ${profile}: ${error.message}`);
}
if (result.error) {
  console.error(`error: ${result.error}`);
  process.exit(1);
}
console.log(`${result.userAgent}; cross-origin isolated: ${result.isolated}; httpspan module ${result.build.file} (simd128: ${result.build.simd128})`);
console.log(`command: node wasm/bench/chromium.mjs ${process.argv.slice(2).join(' ')} (${ROUNDS} interleaved rounds of ~2 ms batches); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
console.log(format(result.rows));

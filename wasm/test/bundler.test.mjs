// A bundler takes the package as an installed dependency: Vite resolves '@httpspan/wasm' to the
// web entry through the package's exports, and ships both modules (found through their
// `new URL(..., import.meta.url)` literals) byte for byte beside the bundle that refers to them.
// Then a browser (headless Chromium, from Debian's package) loads the built page from
// 127.0.0.1 and parses with it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'vite';

const pkg = fileURLToPath(new URL('../pkg', import.meta.url));

test('Vite bundles the web entry with both modules, and Chromium runs the page', async () => {
  const root = mkdtempSync(join(tmpdir(), 'httpspan-vite-'));
  try {
    mkdirSync(join(root, 'node_modules/@httpspan'), { recursive: true });
    symlinkSync(pkg, join(root, 'node_modules/@httpspan/wasm'), 'dir');
    writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n');
    writeFileSync(join(root, 'main.js'), `import { Decoder, RequestParser, StaleViewError, buildInfo, decodeStream, init, parseRequest, toRequest } from '@httpspan/wasm';
await init();
const result = parseRequest(new TextEncoder().encode('GET /in-the-browser HTTP/1.1\\r\\nHost: a\\r\\nX: \\x01\\r\\n\\r\\n'));
const ok = parseRequest(new TextEncoder().encode('GET /in-the-browser HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n'));
// Zero-copy in and out in the browser: parsed in place, a Latin-1 value decoded with the head,
// a view that throws once the memory grew, body data that is a view of the decoder's region.
const wire = Uint8Array.from('POST /in-place HTTP/1.1\\r\\nHost: a\\r\\nX-Obs: caf\\xe9 au lait, noir\\r\\nContent-Length: 3\\r\\n\\r\\nabc', (c) => c.charCodeAt(0));
const parser = new RequestParser();
parser.input(wire.length).set(wire);
const view = parser.parseInput(wire.length);
const inPlace = [view.target, view.get('x-obs')];
const decoder = new Decoder('request');
decoder.input(4 << 20);
let stale = false;
try { view.target; } catch (error) { stale = error instanceof StaleViewError; }
decoder.input(wire.length).set(wire);
const body = decoder.pushInput(wire.length).find((e) => e.type === 'body');
// Read now: body data are views of the decoder's region, which a later decoder may detach.
const bodyRead = [String.fromCharCode(...body.data), body.data.byteOffset > 0];
// The browser's own Request (which drops the headers scripts may not set, Host among them), and
// decodeStream over the browser's ReadableStream.
const request = toRequest(ok, null, { base: 'https://edge.example' });
const pipelined = new ReadableStream({ start(controller) {
  controller.enqueue(new TextEncoder().encode('POST /a HTTP/1.1\\r\\nHost: x\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n3\\r\\nabc\\r\\n0\\r\\n\\r\\nGET /b HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n'));
  controller.close();
} });
const streamed = [];
for await (const message of decodeStream(pipelined)) streamed.push([message.head.target, message.body === null ? null : await new Response(message.body).text()]);
document.body.textContent = JSON.stringify({ ...buildInfo(), target: ok.target, error: result.error.code, offset: result.error.offset,
  inPlace, stale, body: bodyRead[0], bodyIsView: bodyRead[1],
  request: [request.url, request.method, request.headers.get('host')], streamed });
`);
    await build({ root, logLevel: 'silent', build: { outDir: join(root, 'dist'), target: 'es2022' } });
    const assets = join(root, 'dist/assets');
    const files = readdirSync(assets);
    const bundle = files.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n');
    for (const name of ['httpspan_wasm_bg', 'httpspan_wasm_baseline_bg']) {
      const emitted = files.find((f) => f.startsWith(`${name}-`) && f.endsWith('.wasm'));
      assert.ok(emitted, `${name} in ${files}`);
      assert.deepEqual(readFileSync(join(assets, emitted)), readFileSync(join(pkg, `${name}.wasm`)));
      assert.ok(bundle.includes(emitted), `the bundle refers to ${emitted}`);
    }
    assert.ok(bundle.includes('@httpspan/wasm is not loaded yet'), 'the web entry was bundled');
    assert.ok(!bundle.includes('readFileSync'), 'not the Node entry');

    const body = await inBrowser(join(root, 'dist'));
    const shown = JSON.parse(body.match(/<body>(.*)<\/body>/s)[1]);
    assert.deepEqual(shown, {
      build: 'simd128', file: shown.file, simd128: true, backend: 'simd128', target: '/in-the-browser', error: 'invalid_field_value', offset: 42,
      inPlace: ['/in-place', 'caf\xe9 au lait, noir'], stale: true, body: 'abc', bodyIsView: true,
      request: ['https://edge.example/in-the-browser', 'GET', null], streamed: [['/a', 'abc'], ['/b', null]],
    });
    assert.match(shown.file, /^httpspan_wasm_bg-.*\.wasm$/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

// Serves `dir` on 127.0.0.1 and returns the DOM headless Chromium renders from it.
async function inBrowser(dir) {
  const server = http.createServer((req, res) => {
    const path = normalize(join(dir, req.url === '/' ? 'index.html' : req.url.split('?')[0]));
    try {
      const data = readFileSync(path);
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' });
      res.end(data);
    } catch {
      res.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const profile = mkdtempSync(join(tmpdir(), 'httpspan-chromium-'));
  try {
    const { stdout } = await promisify(execFile)('chromium', [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`,
      '--virtual-time-budget=10000', '--dump-dom', `http://127.0.0.1:${server.address().port}/`,
    ], { timeout: 60_000 });
    return stdout;
  } finally {
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// Benchmark (not a test): the contenders of contenders.mjs in workerd (npm package `workerd`).
//
// A Worker cannot time itself: workerd's clocks stand still while JavaScript runs (they move
// only at I/O, against timing side channels). So the Worker runs one contender N times per
// request, and this script times the requests from outside: a batch's time per parse is (the
// request's time - the fastest empty request's time) / N, with N sized so a batch takes about
// 20 ms. Contenders are interleaved, one batch each per round, and the fastest batch is kept.
//
// Usage: node wasm/bench/workerd.mjs [DIR] [--rounds N]   (make bench-wasm)

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadInputs, llhttpModules } from './bench.mjs';
import { format } from './contenders.mjs';
import { freePort } from '../../tests/wasm/net.mjs';

const wasmDir = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 20;
const dir = args[0] ?? join(wasmDir, '../../shared/bench-inputs');
const BATCH_NS = 20e6;

const WORKER = `import * as api from './httpspan/workerd.js';
import * as wasm from './httpspan/httpspan_wasm.js';
import simd from './llhttp_simd.wasm';
import plain from './llhttp.wasm';
import { shortText } from './httpspan/text.js';
import { SHORT_STRING, contenders, fieldCount } from './contenders.mjs';
import data from './data.js';

const list = contenders({
  api, wasm, llhttp: { simd, plain }, llhttpType: data.type,
  latin1: (u8, start, end) => end - start < SHORT_STRING ? shortText(u8, start, end - start)
    : String.fromCharCode.apply(null, u8.subarray(start, end)),
});
const inputs = data.inputs.map((i) => ({ ...i, bytes: Uint8Array.from(i.bytes) }));
// The contenders of an input are made when it is first asked for, as bench.mjs does, input by input.
const made = new Map();

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/names') return Response.json({ names: list.map(([name]) => name), build: api.buildInfo() });
    const i = Number(url.searchParams.get('input'));
    const n = Number(url.searchParams.get('n'));
    if (n === 0) return new Response('ok');
    if (!made.has(i)) {
      const fields = fieldCount(api, inputs[i]);
      made.set(i, list.map(([, make]) => make(inputs[i], fields)));
    }
    const run = made.get(i)[Number(url.searchParams.get('contender'))];
    for (let k = 0; k < n; k++) run();
    return new Response('ok');
  },
};
`;

function config(port) {
  const pkg = (name) => `(name = "httpspan/${name}", esModule = embed "${name}")`;
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .bench)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const bench :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    ${['workerd.js', 'api.js', 'layout.js', 'module.js', 'errors.js', 'text.js', 'limits.js', 'words.js', 'views.js', 'heads.js', 'parsers.js', 'shared.js', 'decoder.js', 'fetch.js', 'stream.js', 'httpspan_wasm.js'].map(pkg).join(',\n    ')},
    (name = "httpspan/httpspan_wasm_bg.wasm", wasm = embed "httpspan_wasm_bg.wasm"),
    (name = "contenders.mjs", esModule = embed "contenders.mjs"),
    (name = "data.js", esModule = embed "data.js"),
    (name = "llhttp_simd.wasm", wasm = embed "llhttp_simd.wasm"),
    (name = "llhttp.wasm", wasm = embed "llhttp.wasm"),
  ],
  compatibilityDate = "2026-11-01",
);
`;
}

const inputs = loadInputs(dir);
const llhttp = llhttpModules();
const work = mkdtempSync(join(os.tmpdir(), 'httpspan-bench-workerd-'));
for (const name of ['workerd.js', 'api.js', 'layout.js', 'module.js', 'errors.js', 'text.js', 'limits.js', 'words.js', 'views.js', 'heads.js', 'parsers.js', 'shared.js', 'decoder.js', 'fetch.js', 'stream.js', 'httpspan_wasm.js', 'httpspan_wasm_bg.wasm']) {
  copyFileSync(join(wasmDir, 'pkg', name), join(work, name));
}
copyFileSync(join(wasmDir, 'bench/contenders.mjs'), join(work, 'contenders.mjs'));
writeFileSync(join(work, 'llhttp_simd.wasm'), llhttp.simd);
writeFileSync(join(work, 'llhttp.wasm'), llhttp.plain);
const data = { type: llhttp.type, inputs: inputs.map(({ name, response, bytes }) => ({ name, response, bytes: Array.from(bytes) })) };
writeFileSync(join(work, 'data.js'), `export default ${JSON.stringify(data)};\n`);
writeFileSync(join(work, 'worker.js'), WORKER);
const port = await freePort();
writeFileSync(join(work, 'config.capnp'), config(port));

// The binary itself, not a wrapper, so that its pid is the one stopped below.
const child = spawn(join(wasmDir, 'node_modules/.bin/workerd'), ['serve', join(work, 'config.capnp')], { stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}`;
try {
  let names = null;
  for (let tries = 0; names === null && tries < 150 && child.exitCode === null; tries++) {
    names = await fetch(`${base}/names`).then((r) => r.json(), () => null);
    if (names === null) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (names === null) throw new Error('workerd did not start');
  const ask = async (input, contender, n) => {
    const start = process.hrtime.bigint();
    const response = await fetch(`${base}/run?input=${input}&contender=${contender}&n=${n}`);
    const body = await response.text();
    if (body !== 'ok') throw new Error(`workerd: ${names.names[contender]} on input ${input}: ${body}`);
    return Number(process.hrtime.bigint() - start);
  };
  const rows = [];
  for (let i = 0; i < inputs.length; i++) {
    const list = names.names.map((name, c) => ({ name, c, n: 0, samples: [] }));
    for (const entry of list) {
      await ask(i, entry.c, 2000);
      const perOp = (await ask(i, entry.c, 2000)) / 2000;
      entry.n = Math.max(100, Math.round(BATCH_NS / perOp));
    }
    const empties = [];
    for (let round = 0; round < ROUNDS; round++) {
      empties.push(await ask(i, 0, 0));
      for (const entry of list) entry.samples.push(await ask(i, entry.c, entry.n));
    }
    const empty = Math.min(...empties);
    const perOp = (entry, pick) => (pick(entry.samples) - empty) / entry.n;
    const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
    rows.push({
      input: `${inputs[i].name} (${inputs[i].bytes.length} B)`,
      ns: Object.fromEntries(list.map((e) => [e.name, perOp(e, (s) => Math.min(...s))])),
      med: Object.fromEntries(list.map((e) => [e.name, perOp(e, median)])),
    });
  }
  console.log(`workerd (npm workerd); httpspan module ${names.build.file} (simd128: ${names.build.simd128})`);
  console.log(`command: node wasm/bench/workerd.mjs ${process.argv.slice(2).join(' ')} (${ROUNDS} interleaved rounds of ~20 ms batches, timed per request from outside); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  console.log(format(rows));
} finally {
  child.kill();
  if (child.exitCode === null) await once(child, 'exit');
  rmSync(work, { recursive: true, force: true });
}

// Benchmark (not a test): the heads in ../shared/bench-inputs/*.http parsed by
//   - httpspan wasm, fast path (RequestParser/ResponseParser: spans in one Uint32Array),
//   - httpspan wasm, object path (parseRequest/parseResponse: every string decoded),
//   - httpspan wasm, parse only: the module's parse export on input already in its memory (no
//     copy, no span words read), to show how much of the fast path is the parse itself,
//   - llhttp wasm from the undici package, SIMD and non-SIMD builds, with callbacks that only
//     record each span (offset and length) in an Int32Array, as undici's own parser does first,
//   - Node's native parser (llhttp in C++, through _http_common.HTTPParser) when reachable.
// Every timed iteration copies the input into the parser's memory (both wasm parsers need
// that) and checks the result. Contenders are interleaved: each round times one short batch of
// each. The fastest batch is reported (on a shared machine, slower batches measure the other
// processes), with the median beside it.
//
// Usage: node wasm/bench/bench.mjs [DIR] [--rounds N]   (make bench-wasm)

import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HeadParser, initSync } from '../pkg/httpspan_wasm.js';
import { RequestParser, ResponseParser, buildInfo, parseRequest, parseResponse } from '../pkg/node.js';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 40;
const dir = args[0] ?? join(root, '../shared/bench-inputs');
const BATCH_NS = 2e6;

const inputs = readdirSync(dir).filter((f) => f.endsWith('.http')).sort().map((file) => {
  const bytes = new Uint8Array(readFileSync(join(dir, file)));
  return { name: file.replace(/\.http$/, ''), response: file.startsWith('response'), bytes };
});

// What every contender must find in an input: the number of field lines.
function fieldCount(input) {
  const r = input.response ? parseResponse(input.bytes, { requestMethod: 'GET' }) : parseRequest(input.bytes);
  if (r.state !== 'complete') throw new Error(`${input.name}: ${r.state}`);
  return r.fields.length;
}

function httpspanFast(input, fields) {
  const parser = input.response ? new ResponseParser() : new RequestParser();
  return () => {
    const view = parser.parse(input.bytes);
    // spans[0] is the state (1: complete), spans[10] the field count.
    if (view.spans[0] !== 1 || view.spans[10] !== fields) throw new Error('httpspan fast path: wrong result');
  };
}

function httpspanObjects(input, fields) {
  const options = { requestMethod: 'GET' };
  return input.response
    ? () => { if (parseResponse(input.bytes, options).fields.length !== fields) throw new Error('wrong'); }
    : () => { if (parseRequest(input.bytes).fields.length !== fields) throw new Error('wrong'); };
}

function httpspanParseOnly(input) {
  // The package already instantiated the module; initSync returns its exports.
  const { memory } = initSync();
  const parser = new HeadParser(input.response, []);
  const len = input.bytes.length;
  new Uint8Array(memory.buffer).set(input.bytes, parser.input(len));
  return () => {
    // parse returns the number of span words written: more than 3 only for a complete head.
    if (parser.parse(len) <= 3) throw new Error('httpspan parse only: wrong result');
  };
}

function llhttpWasm(file) {
  const module = new WebAssembly.Module(require(`undici/lib/llhttp/${file}`));
  const spans = new Int32Array(512);
  let count = 0;
  let base = 0;
  const record = (p, at, len) => {
    spans[count++] = at - base;
    spans[count++] = len;
    return 0;
  };
  const none = () => 0;
  const instance = new WebAssembly.Instance(module, {
    env: {
      wasm_on_url: record, wasm_on_status: record, wasm_on_header_field: record, wasm_on_header_value: record,
      wasm_on_message_begin: none, wasm_on_headers_complete: none, wasm_on_body: none, wasm_on_message_complete: none,
    },
  });
  const llhttp = instance.exports;
  llhttp._initialize?.();
  return (input, fields) => {
    const { TYPE } = require('undici/lib/llhttp/constants.js');
    const parser = llhttp.llhttp_alloc(input.response ? TYPE.RESPONSE : TYPE.REQUEST);
    const len = input.bytes.length;
    const buffer = llhttp.malloc(len);
    base = buffer;
    const expected = 2 * (2 * fields + 1);
    return () => {
      new Uint8Array(llhttp.memory.buffer, buffer, len).set(input.bytes);
      llhttp.llhttp_reset(parser);
      count = 0;
      const errno = llhttp.llhttp_execute(parser, buffer, len);
      if (errno !== 0 || count !== expected) throw new Error(`llhttp: error ${errno}, ${count} span words`);
    };
  };
}

function nodeNative() {
  let HTTPParser;
  try {
    ({ HTTPParser } = require('_http_common'));
  } catch {
    return null;
  }
  return (input, fields) => {
    const parser = new HTTPParser();
    let headers = null;
    parser[HTTPParser.kOnHeadersComplete] = (major, minor, list) => {
      headers = list;
      return 0;
    };
    parser[HTTPParser.kOnHeaders] = () => {};
    parser[HTTPParser.kOnBody] = () => {};
    parser[HTTPParser.kOnMessageComplete] = () => {};
    parser[HTTPParser.kOnExecute] = () => {};
    const buffer = Buffer.from(input.bytes);
    const type = input.response ? HTTPParser.RESPONSE : HTTPParser.REQUEST;
    return () => {
      parser.initialize(type, {});
      headers = null;
      const result = parser.execute(buffer);
      if (result instanceof Error || headers === null || headers.length !== 2 * fields) throw new Error('node: wrong result');
    };
  };
}

const CONTENDERS = [
  ['httpspan fast', (input, fields) => httpspanFast(input, fields)],
  ['httpspan objects', (input, fields) => httpspanObjects(input, fields)],
  ['httpspan parse only', (input) => httpspanParseOnly(input)],
  ['llhttp simd', llhttpWasm('llhttp_simd-wasm.js')],
  ['llhttp', llhttpWasm('llhttp-wasm.js')],
  ['node native', nodeNative()],
].filter(([, make]) => make !== null);

function timeBatch(run, iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) run();
  return Number(process.hrtime.bigint() - start) / iterations;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${os.cpus().length} cores; httpspan module ${buildInfo().file} (simd128: ${buildInfo().simd128})`);
console.log(`command: node wasm/bench/bench.mjs ${process.argv.slice(2).join(' ')} (${ROUNDS} interleaved rounds of ~2 ms batches); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);

const rows = [];
for (const input of inputs) {
  const fields = fieldCount(input);
  const runs = CONTENDERS.map(([name, make]) => {
    const run = make(input, fields);
    // Warm up, then size a batch to about BATCH_NS.
    const perOp = timeBatch(run, 2000);
    return { name, run, iterations: Math.max(100, Math.round(BATCH_NS / perOp)), samples: [] };
  });
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of runs) c.samples.push(timeBatch(c.run, c.iterations));
  }
  const ns = Object.fromEntries(runs.map((c) => [c.name, Math.min(...c.samples)]));
  const med = Object.fromEntries(runs.map((c) => [c.name, median(c.samples)]));
  rows.push({ input: `${input.name} (${input.bytes.length} B, ${fields} fields)`, ns, med });
}

const names = CONTENDERS.map(([name]) => name);
const pad = (s, n) => String(s).padStart(n);
console.log(`${'input'.padEnd(34)}${names.map((n) => pad(n, 20)).join('')}   llhttp simd / httpspan fast`);
for (const { input, ns } of rows) {
  const cells = names.map((n) => pad(`${ns[n].toFixed(0)} ns`, 20)).join('');
  console.log(`${input.padEnd(34)}${cells}   ${(ns['llhttp simd'] / ns['httpspan fast']).toFixed(2)}x`);
}
console.log('\nmedian batches');
for (const { input, med } of rows) {
  console.log(`${input.padEnd(34)}${names.map((n) => pad(`${med[n].toFixed(0)} ns`, 20)).join('')}   ${(med['llhttp simd'] / med['httpspan fast']).toFixed(2)}x`);
}
console.log('\nratios of the fastest batches (contender ns / httpspan fast ns; above 1: httpspan fast is faster)');
for (const { input, ns } of rows) {
  const ratios = names.slice(1).map((n) => `${n} ${(ns[n] / ns['httpspan fast']).toFixed(2)}x`).join(', ');
  console.log(`${input.padEnd(34)}${ratios}`);
}

// Benchmark (not a test): the heads in ../shared/bench-inputs/*.http parsed in Node by
//   - httpspan zero-copy: RequestParser/ResponseParser.parseInput on bytes already written into
//     the parser's input view, span words read in place;
//   - httpspan fast (copy): parse(bytes), which copies the bytes into the module first;
//   - httpspan objects: parseRequest/parseResponse with the start line and every field name
//     and value read as strings;
//   - parse only: the module's parse export on input in its memory (no view, no wrapper);
//   - empty call: an export that only returns a number (the boundary's fixed cost);
//   - llhttp simd and llhttp: undici's wasm builds with callbacks that count spans, and llhttp
//     simd strings, whose callbacks build each span's string (Buffer#latin1Slice);
//   - node native: Node's own llhttp (C), through _http_common.HTTPParser, when reachable.
// The contenders and the interleaved loop are in contenders.mjs (shared with chromium.mjs).
//
// Usage: node wasm/bench/bench.mjs [DIR] [--rounds N]   (make bench-wasm)

import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as wasm from '../pkg/httpspan_wasm.js';
import * as api from '../pkg/node.js';
import { shortText } from '../pkg/text.js';
import { SHORT_STRING, contenders, format, run } from './contenders.mjs';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 40;
const dir = args[0] ?? join(root, '../shared/bench-inputs');

/** The bench inputs: every *.http file of `dir`, responses named response*. */
export function loadInputs(from) {
  return readdirSync(from).filter((f) => f.endsWith('.http')).sort().map((file) => {
    const bytes = new Uint8Array(readFileSync(join(from, file)));
    return { name: file.replace(/\.http$/, ''), response: file.startsWith('response'), bytes };
  });
}

/** undici's llhttp wasm modules (their files export the module bytes) and its parser types. */
export function llhttpModules() {
  const bytes = (file) => require(`undici/lib/llhttp/${file}`);
  const { TYPE } = require('undici/lib/llhttp/constants.js');
  return { simd: bytes('llhttp_simd-wasm.js'), plain: bytes('llhttp-wasm.js'), type: { REQUEST: TYPE.REQUEST, RESPONSE: TYPE.RESPONSE } };
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const modules = llhttpModules();
  // Node's fastest way from bytes to a string: Buffer's latin1Slice (over a Buffer of llhttp's
  // memory, made again when that memory grows), or the package's own way for short ranges.
  let over = null;
  let overOf = null;
  const latin1 = (u8, start, end) => {
    if (end - start < SHORT_STRING) return shortText(u8, start, end - start);
    if (overOf !== u8) {
      over = Buffer.from(u8.buffer);
      overOf = u8;
    }
    return over.latin1Slice(start, end);
  };
  const list = contenders({
    api, wasm, latin1,
    llhttp: { simd: new WebAssembly.Module(modules.simd), plain: new WebAssembly.Module(modules.plain) },
    llhttpType: modules.type,
  });
  const native = nodeNative();
  if (native !== null) list.push(['node native', native]);
  const info = api.buildInfo();
  console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${os.cpus().length} cores; httpspan module ${info.file} (simd128: ${info.simd128})`);
  console.log(`command: node wasm/bench/bench.mjs ${process.argv.slice(2).join(' ')} (${ROUNDS} interleaved rounds of ~2 ms batches); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  const now = () => Number(process.hrtime.bigint());
  const rows = await run({ api, inputs: loadInputs(dir), list, rounds: ROUNDS, now });
  console.log(format(rows));
}

#!/usr/bin/env node
// The conformance runner for the wasm package: reads every `*.jsonl` vector file under the
// directories given, feeds each case's input through the package's streaming Decoder all at
// once, one byte at a time, and at seeded random split points, and compares the outcomes with
// the case's `expect`, exactly as the native runner (cargo run -p conformance) does.
//
// Usage: node tests/wasm/run-vectors.mjs [--filter TEXT] DIR...
//
// Prints `FAIL id: what differed` for each failing case and closes with `N passed, N failed`.
// Exits with status 1 if any case failed, 2 on a usage error. Needs the package built
// (make wasm-build).

import { existsSync, statSync } from 'node:fs';
import { loadDir, runCase } from './vectors.mjs';

const entry = new URL('../../wasm/pkg/node.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('error: the wasm package is not built; run make wasm-build first');
  process.exit(2);
}
const api = await import(entry);

const usage = 'usage: node tests/wasm/run-vectors.mjs [--filter TEXT] DIR...';
const dirs = [];
let filter = null;
const args = process.argv.slice(2);
while (args.length > 0) {
  const arg = args.shift();
  if (arg === '--filter') filter = args.shift() ?? null;
  else if (arg === '-h' || arg === '--help') {
    console.log(usage);
    process.exit(0);
  } else dirs.push(arg);
}
if (dirs.length === 0) {
  console.error(usage);
  process.exit(2);
}

let passed = 0;
let failed = 0;
for (const dir of dirs) {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) {
    console.error(`error: ${dir} is not a directory`);
    process.exit(2);
  }
  for (const loaded of loadDir(dir)) {
    if (loaded.problem) {
      console.log(`FAIL ${loaded.problem.id}: invalid vector: ${loaded.problem.message}`);
      failed += 1;
      continue;
    }
    const testCase = loaded.case;
    if (filter !== null && !testCase.id.includes(filter)) continue;
    const why = runCase(api, testCase);
    if (why === null) passed += 1;
    else {
      console.log(`FAIL ${testCase.id}: ${why}`);
      failed += 1;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;

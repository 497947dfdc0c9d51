// Records a run of the wasm benchmark in Node (wasm/bench/bench.mjs) as data: runs it, reads
// the table it prints (ns per parse of the fastest batch, then the median batches) and writes
// native-bench/results/wasm-node.json, which `tables --render-doc docs/performance.md` turns
// into the doc's wasm table, as `tables --record` does for the native one.
//
// Usage: node native-bench/record-wasm.mjs [--rounds N] [--note TEXT]   (make bench-wasm-record)

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const rounds = Number(option('--rounds', '40'));
const note = option('--note', '');
if (args.length > 0 || !(rounds > 0)) {
  console.error('usage: node native-bench/record-wasm.mjs [--rounds N] [--note TEXT]');
  process.exit(2);
}

const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
const loadBefore = os.loadavg()[0].toFixed(2);
const output = execFileSync('node', ['wasm/bench/bench.mjs', '--rounds', String(rounds)], { cwd: root, encoding: 'utf8' });
const loadAfter = os.loadavg()[0].toFixed(2);
process.stdout.write(output);

// The bench's first line names the module; then a table whose columns are at least two spaces
// apart: `input`, one column per contender (`123 ns`), one per ratio (`a/b`, `1.23x`).
const lines = output.split('\n');
const module = /httpspan module (\S+) \(simd128: (\w+)\)/.exec(lines[0]);
if (module === null) throw new Error(`unexpected first line of the bench: ${lines[0]}`);
const headAt = lines.findIndex((l) => l.startsWith('input '));
const head = lines[headAt].trim().split(/\s{2,}/).slice(1);
const contenders = head.filter((h) => !h.includes('/'));
const ratios = head.filter((h) => h.includes('/')).map((h) => h.split('/'));
const medianAt = lines.indexOf('median batches');
const table = (from, to) => lines.slice(from, to).filter((l) => l.trim() !== '').map((l) => {
  const cells = l.trim().split(/\s{2,}/);
  const ns = {};
  contenders.forEach((name, i) => {
    const value = Number.parseFloat(cells[1 + i]);
    if (Number.isFinite(value)) ns[name] = value;
  });
  // The ratios as the bench printed them, from its unrounded times.
  const ratioCells = cells.slice(1 + contenders.length).map((c) => Number.parseFloat(c));
  return { input: cells[0], ns, ratios: ratioCells };
});
const fastest = table(headAt + 1, medianAt);
const median = table(medianAt + 1, lines.length);
if (fastest.length === 0 || fastest.length !== median.length) throw new Error('could not read the bench table');

const record = {
  platform: 'wasm',
  runtime: `node ${process.version}`,
  cpu: `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores`,
  module: `${module[1]} (simd128: ${module[2]})`,
  date: new Date().toISOString().slice(0, 10),
  commit: git('rev-parse', 'HEAD') + (dirty ? '+dirty' : ''),
  load_average: [loadBefore, loadAfter],
  rounds,
  note,
  contenders,
  ratios,
  rows: fastest.map((row, i) => ({ input: row.input, min_ns: row.ns, median_ns: median[i].ns, ratios: row.ratios })),
};
const file = 'native-bench/results/wasm-node.json';
writeFileSync(new URL(`../${file}`, import.meta.url), `${JSON.stringify(record, null, 2)}\n`);
console.error(`recorded in ${file}`);

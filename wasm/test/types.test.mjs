// The TypeScript types, with tsc --strict: test/types/check.ts uses every part of the API and
// must compile (its @ts-expect-error lines included: misuse must stay a type error) under the
// DOM library and under @cloudflare/workers-types without it; bare.ts needs only ES2022;
// must-fail.ts must fail, on exactly its marked lines; and globals.ts shows, by failing on
// exactly its marked lines, that the types add nothing to a consumer's global scope.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { KNOWN_HEADERS } from '../pkg/node.js';

const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const types = new URL('./types/', import.meta.url);

function compile(config) {
  const run = spawnSync(process.execPath, [tsc, '-p', fileURLToPath(new URL(config, types))], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

for (const [config, libraries] of [
  ['tsconfig.json', 'lib ES2022 and DOM'],
  ['tsconfig.workers.json', 'lib ES2022 and @cloudflare/workers-types'],
  ['tsconfig.bare.json', 'lib ES2022 alone'],
]) {
  test(`index.d.ts types the API under tsc --strict with ${libraries}`, () => {
    const { status, output } = compile(config);
    assert.equal(status, 0, output);
  });
}

for (const [name, file] of [
  ['misuse fails to type-check', 'must-fail'],
  ['the package adds no globals: platform names stay undeclared under lib ES2022 alone', 'globals'],
]) {
  test(`${name}, on exactly the lines marked so`, () => {
    const { status, output } = compile(`tsconfig.${file}.json`);
    assert.notEqual(status, 0, `${file}.ts compiled`);
    const source = readFileSync(new URL(`${file}.ts`, types), 'utf8').split('\n');
    const marked = source.flatMap((line, i) => (line.includes('// must fail') ? [i + 1] : []));
    const errors = [...output.matchAll(new RegExp(`${file}\\.ts\\((\\d+),\\d+\\): error`, 'g'))];
    const failed = [...new Set(errors.map((m) => Number(m[1])))];
    assert.deepEqual(failed.sort((a, b) => a - b), marked, output);
  });
}

test('the known header names of the types are the module\'s, in order', () => {
  const declared = readFileSync(new URL('../pkg/index.d.ts', import.meta.url), 'utf8')
    .match(/export type KnownHeaderName =([^;]*);/)[1];
  assert.deepEqual([...declared.matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1]), KNOWN_HEADERS);
});

// The wasm build against the native one: identical outcomes on every vector in tests/vectors
// (messages field by field, errors with code and offset), and a vector runner that prints
// exactly what the native runner prints, failures included.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as api from '../pkg/node.js';
import { decodeStream, loadDir, randomCuts } from '../../tests/wasm/vectors.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const vectors = join(root, 'tests/vectors');

function cargo(args) {
  const run = spawnSync('cargo', ['run', '-q', '--release', '-p', 'conformance', ...args], {
    cwd: root, encoding: 'utf8', maxBuffer: 256 << 20,
  });
  assert.equal(run.error, undefined);
  return run;
}

// The native outcomes in the JSON shape of tests/examples/outcomes.rs.
function wasmOutcomes(testCase) {
  return decodeStream(api, testCase, []).map((outcome) => {
    if (typeof outcome !== 'object' || 'reject' in outcome) return outcome;
    const { content_length: length, ...rest } = outcome;
    return { ...rest, content_length: length === null ? null : length.toString() };
  });
}

test('wasm and native outcomes are identical on every vector', () => {
  const run = cargo(['--example', 'outcomes', '--', vectors]);
  assert.equal(run.status, 0, run.stderr);
  const native = new Map(run.stdout.trim().split('\n').map((line) => {
    const entry = JSON.parse(line);
    return [entry.id, entry];
  }));
  const cases = loadDir(vectors).map((loaded) => loaded.case);
  assert.ok(cases.every(Boolean), 'every vector loads');
  assert.equal(cases.length, native.size);
  assert.ok(cases.length > 3000);
  const differ = [];
  for (const testCase of cases) {
    const expected = native.get(testCase.id);
    assert.ok(expected, `native has ${testCase.id}`);
    const got = wasmOutcomes(testCase);
    try {
      assert.deepStrictEqual(got, expected.outcomes);
    } catch {
      differ.push(`${testCase.id}: wasm ${JSON.stringify(got)}, native ${JSON.stringify(expected.outcomes)}`);
    }
    assert.deepEqual(randomCuts(testCase.id, 0, testCase.input.length), expected.cuts, `cuts of ${testCase.id}`);
  }
  assert.deepEqual(differ.slice(0, 10), [], `${differ.length} cases differ`);
});

// Cases that pass and cases that fail in each way the runners report.
const CASES = [
  { id: 'pass/request', kind: 'request', input: 'GET / HTTP/1.1\r\nHost: a\r\n\r\n', expect: [{ method: 'GET', target: '/', keep_alive: true, content_length: null }] },
  { id: 'pass/response-head', kind: 'response', input: 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nHTTP/1.1 204 No\r\n\r\n', request_method: ['HEAD'], expect: [{ status: 200, body: '' }, { status: 204, reason: 'No' }] },
  { id: 'fail/method', kind: 'request', input: 'GET / HTTP/1.1\r\nHost: a\r\n\r\n', expect: [{ method: 'PUT', version: 'HTTP/1.0', chunked: true, keep_alive: false, status: 200 }] },
  { id: 'fail/headers', kind: 'request', input: 'GET / HTTP/1.1\r\nHost: a\r\nX: \xff\r\n\r\n', expect: [{ headers: [['Host', 'a'], ['X', 'y']] }] },
  { id: 'fail/body-and-length', kind: 'request', input: 'PUT / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi', expect: [{ body: 'ho"\\\t', content_length: 3 }] },
  { id: 'fail/trailers', kind: 'request', input: 'PUT / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\n\r\n', expect: [{ trailers: [] }] },
  { id: 'fail/reject-expected', kind: 'request', input: 'GET / HTTP/1.1\r\nHost: a\r\n\r\n', expect: 'reject' },
  { id: 'fail/message-expected', kind: 'request', input: 'GET / HTTP/1.1\r\nHost: a\r\nX : 1\r\n\r\n', expect: [{ method: 'GET' }] },
  { id: 'fail/incomplete', kind: 'response', input: 'HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc', expect: [{ status: 200 }] },
  { id: 'fail/extra', kind: 'request', input: 'GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n', expect: [{ target: '/a' }] },
  { id: 'fail/nothing', kind: 'request', input: 'GET /a HTTP/1.1\r\nHost: a\r\n\r\n', expect: [{ target: '/a' }, 'incomplete'] },
  { id: 'fail/bad-expectations', kind: 'request', input: 'GET / HTTP/1.1\r\nHost: a\r\n\r\n', expect: [{ method: 5, headers: 'x', colour: 'red' }] },
  { id: 'fail/long', kind: 'request', input: `GET /${'x'.repeat(100)} HTTP/1.1\r\nHost: a\r\n\r\n`, expect: [{ target: '/' }] },
  { id: 'invalid/kind', kind: 'requests', input: '', expect: 'reject' },
  { id: 'invalid/key', kind: 'request', input: '', expect: 'reject', extra: 1 },
  { id: 'invalid/outcome', kind: 'request', input: '', expect: ['maybe'] },
  { id: 'invalid/methods', kind: 'response', input: '', expect: 'reject', request_method: 'GET' },
  { id: 'invalid/no-kind', input: '', expect: 'reject' },
  { id: 'invalid/expect', kind: 'request', input: '', expect: { a: [1, true, null, 'x'] } },
  { id: 'invalid/expect-number', kind: 'request', input: '', expect: 3 },
];

test('the wasm runner prints exactly what the native runner prints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'httpspan-vectors-'));
  try {
    writeFileSync(join(dir, 'a.jsonl'), `${CASES.slice(0, 9).map((c) => JSON.stringify(c)).join('\n')}\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${CASES.slice(9).map((c) => JSON.stringify(c)).join('\r\n')}\n\n{"kind": "request"}\n`);
    const native = cargo(['--', dir]);
    const wasm = spawnSync(process.execPath, [join(root, 'tests/wasm/run-vectors.mjs'), dir], { encoding: 'utf8' });
    assert.equal(wasm.stdout, native.stdout);
    assert.deepEqual([wasm.status, native.status], [1, 1]);
    assert.match(wasm.stdout, /^2 passed, 19 failed$/m);
    const filtered = spawnSync(process.execPath, [join(root, 'tests/wasm/run-vectors.mjs'), '--filter', 'pass/', dir], { encoding: 'utf8' });
    assert.equal(filtered.stdout, cargo(['--', '--filter', 'pass/', dir]).stdout);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('vector options turn on leniency; an unknown option fails instead of running strict', () => {
  const dir = mkdtempSync(join(tmpdir(), 'httpspan-vectors-'));
  try {
    const lenient = { id: 'lenient/bare-lf', kind: 'request', input: 'GET / HTTP/1.1\nHost: a\n\n', options: ['bare_lf'], expect: [{ method: 'GET' }] };
    const strict = { ...lenient, id: 'strict/bare-lf', options: [], expect: 'reject' };
    const unknown = { ...lenient, id: 'unknown/bare-lf', options: ['bare_LF'] };
    writeFileSync(join(dir, 'options.jsonl'), [lenient, strict, unknown].map((c) => JSON.stringify(c)).join('\n') + '\n');
    const run = spawnSync(process.execPath, [join(root, 'tests/wasm/run-vectors.mjs'), dir], { encoding: 'utf8' });
    assert.equal(run.stdout, 'FAIL unknown/bare-lf: options not supported: bare_LF\n2 passed, 1 failed\n');
    assert.equal(run.status, 1);
    const usage = spawnSync(process.execPath, [join(root, 'tests/wasm/run-vectors.mjs')], { encoding: 'utf8' });
    assert.equal(usage.status, 2);
    const missing = spawnSync(process.execPath, [join(root, 'tests/wasm/run-vectors.mjs'), join(dir, 'nope')], { encoding: 'utf8' });
    assert.deepEqual([missing.status, missing.stderr.trim()], [2, `error: ${join(dir, 'nope')} is not a directory`]);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

// Which module is loaded: the SIMD128 build on engines that have SIMD128 (all current ones), and
// the baseline build, compiled without it, where they do not.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildInfo, parseRequest } from '../pkg/node.js';
import { FILES, chooseBuild } from '../pkg/select.js';

const pkg = new URL('../pkg/', import.meta.url);

// The features a module was compiled with, from its `target_features` custom section:
// a vector of (prefix byte, name), where prefix '+' means used.
function targetFeatures(bytes) {
  let p = 8;
  const leb = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[p++];
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return result;
    }
  };
  const name = () => {
    const len = leb();
    const s = new TextDecoder().decode(bytes.subarray(p, p + len));
    p += len;
    return s;
  };
  while (p < bytes.length) {
    const id = bytes[p++];
    const size = leb();
    const end = p + size;
    if (id === 0 && name() === 'target_features') {
      const features = [];
      for (let n = leb(); n > 0; n--) {
        const prefix = String.fromCharCode(bytes[p++]);
        features.push(prefix + name());
      }
      return features;
    }
    p = end;
  }
  return null;
}

test('the loaded module is the SIMD128 build', () => {
  assert.equal(chooseBuild(), 'simd128', 'Node 20 has SIMD128');
  // A RUSTFLAGS in the build's environment would have dropped +simd128 silently: the module
  // says what it was compiled with.
  assert.deepEqual(buildInfo(), { build: 'simd128', file: FILES.simd128, simd128: true, backend: 'simd128' });
  const features = targetFeatures(readFileSync(new URL(FILES.simd128, pkg)));
  assert.ok(features.includes('+simd128'), `target_features: ${features}`);
});

// The package's size target (issue 5): each module at most 25 KB (25 000 bytes) gzipped.
const MAX_GZIPPED = 25_000;

test('each wasm module is at most 25 KB gzipped', () => {
  for (const file of [FILES.simd128, FILES.baseline]) {
    const gzipped = gzipSync(readFileSync(new URL(file, pkg)), { level: 9 }).length;
    assert.ok(gzipped <= MAX_GZIPPED, `${file}: ${gzipped} bytes gzipped, above ${MAX_GZIPPED}`);
  }
});

test('the baseline build has no SIMD128 and is chosen where the engine lacks it', () => {
  assert.equal(chooseBuild({ validate: () => false }), 'baseline');
  const features = targetFeatures(readFileSync(new URL(FILES.baseline, pkg)));
  assert.ok(features !== null && !features.includes('+simd128'), `target_features: ${features}`);
  const script = `import { buildInfo, parseRequest } from './node.js';
    const r = parseRequest(new TextEncoder().encode('GET /x HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n'));
    console.log(JSON.stringify({ ...buildInfo(), target: r.target }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: pkg,
    env: { ...process.env, HTTPSPAN_WASM_BUILD: 'baseline' },
  });
  assert.deepEqual(JSON.parse(out), { build: 'baseline', file: FILES.baseline, simd128: false, backend: 'swar', target: '/x' });
  assert.equal(parseRequest(new TextEncoder().encode('GET /x HTTP/1.1\r\nHost: a\r\n\r\n')).target, '/x');
});

test('the web entry loads on init(), and says so when used before', () => {
  const script = `import { readFileSync, readdirSync } from 'node:fs';
    import { buildInfo, init, parseRequest } from './web.js';
    const input = new TextEncoder().encode('GET /w HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n');
    let before;
    try { parseRequest(input); } catch (e) { before = e.message; }
    await init(readFileSync('./httpspan_wasm_bg.wasm'));
    await init();
    console.log(JSON.stringify({ before, ...buildInfo(), target: parseRequest(input).target }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: pkg });
  assert.deepEqual(JSON.parse(out), {
    before: '@httpspan/wasm is not loaded yet: await init() first', build: 'given', file: null, simd128: true, backend: 'simd128', target: '/w',
  });
});

test('the published package holds every file of the build', () => {
  // npm publishes what package.json's `files` lists: a module left out would break every import.
  const dir = fileURLToPath(pkg);
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const published = packed.files.map((f) => f.path).sort();
  assert.deepEqual(published, readdirSync(dir).sort());
});

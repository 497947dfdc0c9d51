// Conformance vectors (shared/conformance/FORMAT.md) run through the wasm package's streaming
// Decoder. A line-for-line counterpart of tests/src/lib.rs, the native runner: the same loading,
// the same three ways of feeding (all at once, byte by byte, seeded random splits with the same
// cut points), the same comparison and the same wording of every difference.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** How many random splittings each case is fed in. */
export const RANDOM_SPLITS = 4;

/** Vector `options` (tests/vectors-gen/README.md), mapped to the package's `lenient` flags. */
export const SUPPORTED_OPTIONS = {
  bare_lf: { bareLf: true },
  obs_fold: { obsFold: true },
  space_before_colon: { spaceBeforeColon: true },
  request_line_spaces: { requestLineSpaces: true },
  missing_host: { missingHost: true },
  duplicate_content_length: { duplicateContentLength: true },
  unknown_version: { unknownVersion: true },
  target_unsafe_bytes: { targetUnsafeBytes: true },
};

/** A field value as httpspan::unfold presents it: each obs-fold (with the whitespace around it)
 * becomes one SP. Values without CR or LF are unchanged. */
function unfold(value) {
  return value.replace(/[ \t\r\n]*[\r\n][ \t\r\n]*/g, ' ');
}

/** Every `*.jsonl` file under `dir`, recursively, sorted by path component by component. */
export function vectorFiles(dir) {
  const files = [];
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop();
    let entries;
    try {
      entries = readdirSync(current);
    } catch {
      continue;
    }
    for (const name of entries) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) stack.push(path);
      else if (name.endsWith('.jsonl')) files.push(path);
    }
  }
  const parts = (path) => path.split('/');
  return files.sort((a, b) => {
    const [pa, pb] = [parts(a), parts(b)];
    for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
      if (pa[i] !== pb[i]) return Buffer.compare(Buffer.from(pa[i]), Buffer.from(pb[i]));
    }
    return pa.length - pb.length;
  });
}

/** Every case under `dir`, in file and line order: `{ case }` or `{ problem: { id, message } }`. */
export function loadDir(dir) {
  const cases = [];
  for (const file of vectorFiles(dir)) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      cases.push({ problem: { id: file, message: e.message } });
      continue;
    }
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    lines.forEach((raw, n) => {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.trim() === '') return;
      const parsed = parseCase(line);
      if (parsed.case) cases.push(parsed);
      else cases.push({ problem: { id: parsed.id ?? `${file}:${n + 1}`, message: parsed.message } });
    });
  }
  return cases;
}

/** A string whose code points are bytes (U+0000..U+00FF), as bytes; throws above U+00FF. */
export function latin1Bytes(s) {
  const bytes = [];
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (c > 0xff) throw new Error(`code point U+${c.toString(16).toUpperCase().padStart(4, '0')} above U+00FF`);
    bytes.push(c);
  }
  return Uint8Array.from(bytes);
}

function latin1String(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
  return s;
}

// Content-Length values above 2^53 would lose digits in JSON.parse: keep them as exact text.
const BIG_LENGTH = /("content_length"\s*:\s*)(\d{16,})/g;

function parseCase(line) {
  let obj;
  try {
    obj = JSON.parse(line.replace(BIG_LENGTH, '$1{"exact":"$2"}'));
  } catch (e) {
    return { message: `not JSON: ${e.message}` };
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return { message: 'not a JSON object' };
  if (typeof obj.id !== 'string') return { message: 'no string `id`' };
  const id = obj.id;
  const bad = (message) => ({ id, message });
  if (obj.kind !== 'request' && obj.kind !== 'response') {
    const kind = typeof obj.kind === 'string' ? `Some(${JSON.stringify(obj.kind)})` : 'None';
    return bad(`\`kind\` must be "request" or "response", not ${kind}`);
  }
  if (typeof obj.input !== 'string') return bad('no string `input`');
  let input;
  try {
    input = latin1Bytes(obj.input);
  } catch (e) {
    return bad(`input: ${e.message}`);
  }
  const requestMethods = [];
  if ('request_method' in obj) {
    if (!Array.isArray(obj.request_method)) return bad('`request_method` must be a list');
    for (const m of obj.request_method) {
      if (typeof m !== 'string') return bad('`request_method` entries must be strings');
      try {
        requestMethods.push(latin1String(latin1Bytes(m)));
      } catch (e) {
        return bad(e.message);
      }
    }
  }
  let expect;
  if (obj.expect === 'reject') expect = ['reject'];
  else if (Array.isArray(obj.expect)) {
    expect = [];
    for (const item of obj.expect) {
      if (item === 'reject' || item === 'incomplete') expect.push(item);
      else if (item !== null && typeof item === 'object' && !Array.isArray(item)) expect.push(item);
      else return bad(`unknown outcome ${JSON.stringify(item)}`);
    }
  } else {
    const expect = 'expect' in obj ? `Some(${debugValue(obj.expect)})` : 'None';
    return bad(`\`expect\` must be "reject" or a list, not ${expect}`);
  }
  let options = [];
  if ('options' in obj) {
    if (!Array.isArray(obj.options) || obj.options.some((o) => typeof o !== 'string')) {
      return bad('`options` must be a list of strings');
    }
    options = obj.options;
  }
  for (const key of Object.keys(obj)) {
    if (!['id', 'kind', 'input', 'request_method', 'expect', 'why', 'options'].includes(key)) {
      return bad(`unknown key \`${key}\``);
    }
  }
  return { case: { id, kind: obj.kind, input, requestMethods, expect, options } };
}

// A JSON value as the native runner's messages show it (serde_json's Debug format).
function debugValue(value) {
  if (value === null) return 'Null';
  if (typeof value === 'boolean') return `Bool(${value})`;
  if (typeof value === 'number') return `Number(${value})`;
  if (typeof value === 'string') return `String(${JSON.stringify(value)})`;
  if (Array.isArray(value)) return `Array [${value.map(debugValue).join(', ')}]`;
  const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}: ${debugValue(value[k])}`);
  return `Object {${entries.join(', ')}}`;
}

function pairsOf(fields) {
  return fields.map((f) => [f.name, unfold(f.value)]);
}

function captureHead(head) {
  const message = {
    method: '', target: '', version: head.version, status: 0, reason: '',
    headers: pairsOf(head.fields), body: '', trailers: [],
    content_length: head.contentLength, chunked: head.chunked, keep_alive: head.keepAlive, interim: false,
  };
  if ('method' in head) {
    message.method = head.method;
    message.target = head.target;
  } else {
    message.status = head.status;
    message.reason = head.reason;
    message.interim = head.interim;
  }
  return message;
}

function emptyMessage() {
  return {
    method: '', target: '', version: '', status: 0, reason: '', headers: [], body: '', trailers: [],
    content_length: null, chunked: false, keep_alive: false, interim: false,
  };
}

/** Decoder options for a case's vector `options`, or an Error naming those not supported. */
function decoderOptions(testCase) {
  const unsupported = testCase.options.filter((o) => !(o in SUPPORTED_OPTIONS));
  if (unsupported.length > 0) return new Error(`options not supported: ${unsupported.join(', ')}`);
  const lenient = {};
  for (const o of testCase.options) Object.assign(lenient, SUPPORTED_OPTIONS[o]);
  return testCase.options.length > 0 ? { lenient } : {};
}

/**
 * Feeds a case's input to a fresh Decoder from `api` (the package's exports) in pieces ending at
 * `cuts`, and returns the outcomes: messages, `{ reject: { code, offset } }` or 'incomplete'.
 * Throws an Error describing a protocol violation by the decoder.
 */
export function decodeStream(api, testCase, cuts) {
  const options = decoderOptions(testCase);
  if (options instanceof Error) throw options;
  if (testCase.kind === 'response') options.requestMethods = testCase.requestMethods;
  const decoder = new api.Decoder(testCase.kind, options);
  try {
    const outcomes = [];
    let current = emptyMessage();
    // Returns true when nothing more is read.
    const apply = (events, pieceLength, fromFinish) => {
      for (const event of events) {
        switch (event.type) {
          case 'head':
            current = captureHead(event.head);
            break;
          case 'body':
            if (event.end > pieceLength || event.data.length !== event.end - event.start) {
              throw new Error(`body range ${event.start}..${event.end} outside the input`);
            }
            current.body += latin1String(event.data);
            break;
          case 'trailers':
            current.trailers = pairsOf(event.fields);
            break;
          case 'end':
            outcomes.push(current);
            current = emptyMessage();
            break;
          case 'closed':
            return true;
          case 'incomplete':
            if (!fromFinish) throw new Error('decode returned Incomplete');
            outcomes.push('incomplete');
            return true;
          case 'error':
            outcomes.push({ reject: { code: event.error.code, offset: event.error.offset } });
            return true;
          default:
            throw new Error(`unexpected event ${event.type}`);
        }
      }
      return false;
    };
    let start = 0;
    for (const end of [...cuts, testCase.input.length]) {
      const piece = testCase.input.subarray(start, end);
      start = end;
      if (apply(decoder.push(piece), piece.length, false)) return outcomes;
    }
    apply(decoder.finish(), 0, true);
    return outcomes;
  } finally {
    decoder.free();
  }
}

const MASK = (1n << 64n) - 1n;

/** Seeded random cut points for `len` bytes: the same as the native runner's `random_cuts`. */
export function randomCuts(id, seed, len) {
  let hash = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(id)) hash = ((hash ^ BigInt(b)) * 0x100000001b3n) & MASK;
  let state = hash ^ ((BigInt(seed) * 0xa24baed4963ee407n) & MASK);
  const next = () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  };
  const maxPiece = BigInt(Math.max(Math.floor(len / 3), 1));
  const cuts = [];
  let pos = 0;
  for (;;) {
    pos += 1 + Number(next() % maxPiece);
    if (pos >= len) return cuts;
    cuts.push(pos);
  }
}

/** A canonical text of outcomes, for comparing two runs. */
export function outcomesKey(outcomes) {
  return JSON.stringify(outcomes, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
}

function formatCuts(cuts) {
  return `[${cuts.join(', ')}]`;
}

/** Runs one case in every feeding mode; returns null when it passes, else what differed. */
export function runCase(api, testCase) {
  const options = decoderOptions(testCase);
  if (options instanceof Error) return options.message;
  let whole;
  const attempt = (label, cuts) => {
    try {
      return decodeStream(api, testCase, cuts);
    } catch (e) {
      throw new Error(`${label}: ${e.message}`);
    }
  };
  try {
    whole = attempt('all at once', []);
    const wholeKey = outcomesKey(whole);
    const byteCuts = Array.from({ length: Math.max(testCase.input.length - 1, 0) }, (_, i) => i + 1);
    const bytewise = attempt('byte by byte', byteCuts);
    if (outcomesKey(bytewise) !== wholeKey) {
      return `byte by byte gave ${describeAll(bytewise)}, all at once gave ${describeAll(whole)}`;
    }
    for (let seed = 0; seed < RANDOM_SPLITS; seed++) {
      const cuts = randomCuts(testCase.id, seed, testCase.input.length);
      const split = attempt(`split at ${formatCuts(cuts)}`, cuts);
      if (outcomesKey(split) !== wholeKey) {
        return `split at ${formatCuts(cuts)} gave ${describeAll(split)}, all at once gave ${describeAll(whole)}`;
      }
    }
  } catch (e) {
    return e.message;
  }
  return compare(testCase, whole);
}

function isMessage(outcome) {
  return typeof outcome === 'object' && !('reject' in outcome);
}

function compare(testCase, got) {
  const problems = [];
  for (let i = 0; i < testCase.expect.length; i++) {
    const expected = testCase.expect[i];
    const n = i + 1;
    const outcome = got[i];
    if (outcome === undefined) {
      problems.push(`message ${n}: expected ${describeExpected(expected)}, got nothing`);
      break;
    }
    if ((expected === 'reject' && typeof outcome === 'object' && 'reject' in outcome) || (expected === 'incomplete' && outcome === 'incomplete')) {
      continue;
    }
    if (typeof expected === 'object' && isMessage(outcome)) {
      // serde_json keeps object keys sorted: compare in the same order.
      for (const key of Object.keys(expected).sort()) {
        const diff = compareField(key, expected[key], outcome);
        if (diff !== null) problems.push(`message ${n}: ${diff}`);
      }
      continue;
    }
    problems.push(`message ${n}: expected ${describeExpected(expected)}, got ${describe(outcome)}`);
    break;
  }
  if (got.length > testCase.expect.length && problems.length === 0) {
    const extra = got.slice(testCase.expect.length).map(describe);
    problems.push(`${extra.length} more outcome(s) than expected: ${extra.join(', ')}`);
  }
  return problems.length === 0 ? null : problems.join('; ');
}

function jsonText(value) {
  if (value !== null && typeof value === 'object' && typeof value.exact === 'string') return value.exact;
  return JSON.stringify(value);
}

function wantPairs(want) {
  if (!Array.isArray(want)) return null;
  const pairs = [];
  for (const pair of want) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return null;
    try {
      pairs.push([latin1String(latin1Bytes(pair[0])), latin1String(latin1Bytes(pair[1]))]);
    } catch {
      return null;
    }
  }
  return pairs;
}

function compareField(key, want, msg) {
  const bytesField = (got) => {
    let w;
    try {
      if (typeof want !== 'string') throw new Error();
      w = latin1String(latin1Bytes(want));
    } catch {
      return `${key}: the vector's value is not a Latin-1 string`;
    }
    return w === got ? null : `${key}: expected ${escape(w)}, got ${escape(got)}`;
  };
  const pairsField = (got) => {
    const w = wantPairs(want);
    if (w === null) return `${key}: the vector's value is not a list of [name, value]`;
    return outcomesKey(w) === outcomesKey(got) ? null : `${key}: expected ${describePairs(w)}, got ${describePairs(got)}`;
  };
  switch (key) {
    case 'method': return bytesField(msg.method);
    case 'target': return bytesField(msg.target);
    case 'reason': return bytesField(msg.reason);
    case 'body': return bytesField(msg.body);
    case 'version': return want === msg.version ? null : `version: expected ${jsonText(want)}, got ${msg.version}`;
    case 'status': return Number.isInteger(want) && want >= 0 && want === msg.status ? null : `status: expected ${jsonText(want)}, got ${msg.status}`;
    case 'headers': return pairsField(msg.headers);
    case 'trailers': return pairsField(msg.trailers);
    case 'content_length': {
      const got = msg.content_length;
      let same;
      if (want === null) same = got === null;
      else if (typeof want === 'number') same = Number.isInteger(want) && want >= 0 && got === BigInt(want);
      else if (typeof want === 'object' && typeof want.exact === 'string') same = got === BigInt(want.exact);
      else same = false;
      return same ? null : `content_length: expected ${jsonText(want)}, got ${got === null ? 'null' : got}`;
    }
    case 'chunked': return want === msg.chunked ? null : `chunked: expected ${jsonText(want)}, got ${msg.chunked}`;
    case 'keep_alive': return want === msg.keep_alive ? null : `keep_alive: expected ${jsonText(want)}, got ${msg.keep_alive}`;
    default: return `unknown expectation \`${key}\``;
  }
}

/** Bytes (a Latin-1 string) as a quoted string with \r, \n, \t and \xNN escapes, cut at 80 bytes. */
export function escape(s) {
  let out = '"';
  for (let i = 0; i < Math.min(s.length, 80); i++) {
    const b = s.charCodeAt(i);
    if (b === 0x0d) out += '\\r';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x09) out += '\\t';
    else if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += '\\\\';
    else if (b >= 0x20 && b <= 0x7e) out += s[i];
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  if (s.length > 80) out += `...(${s.length} bytes)`;
  return `${out}"`;
}

function describePairs(pairs) {
  return `[${pairs.map(([n, v]) => `[${escape(n)}, ${escape(v)}]`).join(', ')}]`;
}

function describe(outcome) {
  if (outcome === 'incomplete') return 'incomplete';
  if ('reject' in outcome) return `reject (${outcome.reject.code} at byte ${outcome.reject.offset})`;
  if (outcome.status !== 0) return `response ${outcome.status} ${escape(outcome.reason)}`;
  return `request ${escape(outcome.method)} ${escape(outcome.target)}`;
}

function describeAll(outcomes) {
  return `[${outcomes.map(describe).join(', ')}]`;
}

function describeExpected(expected) {
  return typeof expected === 'string' ? expected : 'a message';
}

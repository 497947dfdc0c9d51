// The byte view's rows: rebuilt where a cell changed, reused (the same object) elsewhere, and
// always equal to rows built from scratch.
import { describe, expect, test } from 'vitest';
import { analyze, type Analysis } from '../../src/lib/analysis.ts';
import { ByteRows, ROW, buildRow, describeByte, type ByteRow, type ByteRowsInput } from '../../src/lib/byte-rows.ts';
import type { ParseOptions } from '../../src/lib/types.ts';
import { rng } from './random.ts';

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const REQ: ParseOptions = { mode: 'request', requestMethod: 'GET', lenient: [] };

function inputOf(a: Analysis, over: Partial<ByteRowsInput> = {}): ByteRowsInput {
  return {
    bytes: a.bytes,
    classes: a.classes,
    owners: a.owners,
    parts: a.parts,
    rows: 256,
    fed: a.fed,
    errAt: a.error?.offset ?? -1,
    litPart: null,
    current: null,
    selected: null,
    resume: a.finished ? -1 : a.resumeOffset,
    ...over,
  };
}

/** The rows built from scratch, for comparison. */
function fresh(input: ByteRowsInput): ByteRow[] {
  const count = Math.min(input.rows, Math.ceil(input.bytes.length / ROW));
  return Array.from({ length: count }, (_, r) => buildRow(input, r));
}

/** Indices of the rows of `next` that are not the objects of `prev`. */
function rebuilt(prev: ByteRow[], next: ByteRow[]): number[] {
  return next.flatMap((row, r) => (prev[r] === row ? [] : [r]));
}

const CHUNKED = bytes(
  'POST /up HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n' +
    '5\r\nhello\r\n10;ext=1\r\n0123456789abcdef\r\n0\r\nX-Sum: 1\r\n\r\n',
);

describe('a cell shows its byte', () => {
  test('class, part, error and fed state, and its accessible name', () => {
    const a = analyze(bytes('GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\x01b\r\n\r\n'), REQ);
    const input = inputOf(a);
    const row = buildRow(input, 2); // bytes 32..47: the error's byte is 33
    const err = row.cells.find((c) => c.i === 33)!;
    expect(err).toMatchObject({ hex: '01', glyph: '␁', err: true, unfed: false });
    expect(err.label).toBe(`01: ${describeByte(input, 33)}`);
    expect(err.label).toContain('the error is here');
    expect(row.cells.find((c) => c.i === 34)!.cls).toBe('unread');
    // The lines before the error's were accepted.
    expect(buildRow(input, 0).cells[0]).toMatchObject({ hex: '47', glyph: 'G', cls: 'accepted', lit: false, cur: false });
    const ok = inputOf(analyze(CHUNKED, REQ));
    expect(buildRow(ok, 0).cells[0]).toMatchObject({ cls: 'method', unfed: false, err: false });
    expect(buildRow(ok, 0).cells[0].label).toBe('50: byte 0 · 0x50 P · method · method POST (RFC 9112 3.1)');
  });

  test('bytes not fed yet say so', () => {
    const a = analyze(CHUNKED, REQ, { fed: 10, piece: 1, finish: false });
    const cell = buildRow(inputOf(a), 0).cells[12];
    expect(cell.unfed).toBe(true);
    expect(cell.label).toContain('not fed yet');
  });
});

describe('an update rebuilds only the rows that changed', () => {
  test('the first update builds every row; the same input again builds none', () => {
    const a = analyze(CHUNKED, REQ);
    const cache = new ByteRows();
    const first = cache.update(inputOf(a));
    expect(cache.built).toBe(Math.ceil(CHUNKED.length / ROW));
    expect(first).toEqual(fresh(inputOf(a)));
    const again = cache.update(inputOf(analyze(CHUNKED, REQ)));
    expect(cache.built).toBe(0);
    expect(rebuilt(first, again)).toEqual([]);
  });

  test('a forward step through a body rebuilds the row of the new byte only', () => {
    const message = bytes(`PUT /u HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n${'x'.repeat(1000)}`);
    const step = (fed: number) => inputOf(analyze(message, REQ, { fed, piece: 1, finish: false }));
    const cache = new ByteRows();
    let prev = cache.update(step(200));
    for (let fed = 201; fed <= 900; fed++) {
      const input = step(fed);
      const next = cache.update(input);
      expect(rebuilt(prev, next)).toEqual([Math.floor((fed - 1) / ROW)]);
      expect(next[Math.floor((fed - 1) / ROW)]).toEqual(buildRow(input, Math.floor((fed - 1) / ROW)));
      prev = next;
    }
    expect(prev).toEqual(fresh(step(900)));
  });

  test('stepping through a chunked message: reused rows are exactly as built from scratch', () => {
    const cache = new ByteRows();
    let prevInput = inputOf(analyze(CHUNKED, REQ, { fed: 0, piece: 1, finish: false }));
    let prev = cache.update(prevInput);
    let reused = 0;
    for (let fed = 1; fed <= CHUNKED.length; fed++) {
      const input = inputOf(analyze(CHUNKED, REQ, { fed, piece: 1, finish: false }));
      const next = cache.update(input);
      expect(next).toEqual(fresh(input));
      for (let r = 0; r < next.length; r++) {
        if (prev[r] === next[r]) {
          expect(buildRow(prevInput, r)).toEqual(buildRow(input, r));
          reused++;
        }
      }
      prev = next;
      prevInput = input;
    }
    // Most steps change one or two rows of the eight.
    expect(reused).toBeGreaterThan(CHUNKED.length * 4);
  });

  test('stepping past an error: only the fed frame moves over the bytes not read', () => {
    const message = bytes('GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\x01b\r\n\r\nGET / HTTP/1.1\r\n\r\n');
    const step = (fed: number) => inputOf(analyze(message, REQ, { fed, piece: 1, finish: false }));
    const cache = new ByteRows();
    let prev = cache.update(step(40));
    for (let fed = 41; fed <= message.length; fed++) {
      const input = step(fed);
      const next = cache.update(input);
      expect(input.classes[fed - 1]).toBe('unread');
      expect(rebuilt(prev, next)).toEqual([Math.floor((fed - 1) / ROW)]);
      expect(next).toEqual(fresh(input));
      prev = next;
    }
  });

  test('pointing at a part rebuilds the rows of its bytes only', () => {
    const a = analyze(CHUNKED, REQ);
    const cache = new ByteRows();
    const before = cache.update(inputOf(a));
    const host = a.fields[0].part;
    const lit = cache.update(inputOf(a, { litPart: host, current: a.parts[host].start }));
    const rowsOfPart = new Set<number>();
    for (let i = a.parts[host].start; i < a.parts[host].end; i++) rowsOfPart.add(Math.floor(i / ROW));
    expect(rebuilt(before, lit)).toEqual([...rowsOfPart]);
    expect(lit.flatMap((r) => r.cells).filter((c) => c.lit).map((c) => c.i)).toEqual(
      Array.from({ length: a.parts[host].end - a.parts[host].start }, (_, k) => a.parts[host].start + k),
    );
    // Selecting a byte frames it and makes it the tab stop: its row only.
    const selected = cache.update(inputOf(a, { litPart: host, current: 70, selected: 70 }));
    expect(rebuilt(lit, selected).sort()).toEqual([...new Set([Math.floor(a.parts[host].start / ROW), Math.floor(70 / ROW)])].sort());
    expect(selected[Math.floor(70 / ROW)].cells[70 % ROW]).toMatchObject({ cur: true, selected: true });
  });

  test('a part renamed under the same id rebuilds the rows it owns', () => {
    const a = analyze(CHUNKED, REQ);
    const cache = new ByteRows();
    const before = cache.update(inputOf(a));
    const host = a.fields[0].part;
    const parts = a.parts.map((p) => (p.id === host ? { ...p, label: 'renamed' } : p));
    const after = cache.update(inputOf(a, { parts }));
    expect(rebuilt(before, after).length).toBeGreaterThan(0);
    expect(after.flatMap((r) => r.cells).filter((c) => c.label.includes('renamed')).length).toBe(a.parts[host].end - a.parts[host].start);
  });

  test('new bytes rebuild every row; more rows shown build only the new ones', () => {
    const cache = new ByteRows();
    const small = inputOf(analyze(CHUNKED, REQ), { rows: 3 });
    const three = cache.update(small);
    expect(three).toHaveLength(3);
    const more = cache.update({ ...small, rows: 5 });
    expect(cache.built).toBe(2);
    expect(rebuilt(three, more)).toEqual([3, 4]);
    const other = CHUNKED.slice();
    other[0] = 0x50; // 'P' → 'P', but another array
    cache.update(inputOf(analyze(other, REQ), { rows: 5 }));
    expect(cache.built).toBe(5);
  });

  test('random sequences of inputs: always equal to rows built from scratch', () => {
    const rand = rng(14);
    const cache = new ByteRows();
    let prev: ByteRow[] = [];
    let prevInput: ByteRowsInput | null = null;
    for (let k = 0; k < 300; k++) {
      const fed = Math.floor(rand() * (CHUNKED.length + 1));
      const piece = 1 + Math.floor(rand() * 4);
      const a = rand() < 0.2 ? analyze(CHUNKED, REQ) : analyze(CHUNKED, REQ, { fed, piece, finish: false });
      const pick = () => (rand() < 0.5 ? null : Math.floor(rand() * CHUNKED.length));
      const litPart = rand() < 0.5 || a.parts.length === 0 ? null : Math.floor(rand() * a.parts.length);
      const input = inputOf(a, { litPart, current: pick(), selected: pick(), rows: 2 + Math.floor(rand() * 6) });
      const next = cache.update(input);
      expect(next).toEqual(fresh(input));
      // A reused row is one whose cells were all equal before.
      if (prevInput !== null) {
        for (let r = 0; r < next.length; r++) {
          if (prev[r] === next[r]) expect(buildRow(prevInput, r)).toEqual(buildRow(input, r));
        }
      }
      prev = next;
      prevInput = input;
    }
  });
});

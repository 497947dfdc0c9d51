// The editor's mirror: class runs in characters, the text split only at the lit part and the
// error's byte, the span-per-run fallback, and the highlight ranges moved only where a run changed.
import { describe, expect, test } from 'vitest';
import { analyze } from '../../src/lib/analysis.ts';
import type { ByteClass } from '../../src/lib/types.ts';
import { firstWhere } from '../../src/lib/search.ts';
import {
  HighlightSync,
  UNCOLOURED,
  classRuns,
  sameSegments,
  segments,
  spanRuns,
  type ClassRun,
  type HighlightTarget,
  type MirrorInput,
  windowRuns,
} from '../../src/lib/mirror.ts';
import type { ParseOptions } from '../../src/lib/types.ts';
import { charStarts, render } from '../../src/state/playground.svelte.ts';
import { rng } from './random.ts';

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const REQ: ParseOptions = { mode: 'request', requestMethod: 'GET', lenient: [] };

function mirrorOf(input: Uint8Array, feed: { fed?: number; piece?: number; finish?: boolean } = {}, litPart: number | null = null): MirrorInput {
  const a = analyze(input, REQ, feed);
  return {
    text: render(input, 'raw'),
    starts: charStarts(input, 'raw'),
    classes: a.classes,
    owners: a.owners,
    errAt: a.error?.offset ?? -1,
    litPart,
  };
}

/** The class of each character, as the runs say (null where no run covers it). */
function paint(runs: readonly ClassRun[], length: number): (ByteClass | null)[] {
  const out = new Array<ByteClass | null>(length).fill(null);
  for (const r of runs) for (let c = r.from; c < r.to; c++) out[c] = r.cls;
  return out;
}

const MESSAGE = bytes('POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello');

describe('class runs', () => {
  test('cover each character with its byte class, except the uncoloured classes and the error byte', () => {
    const m = mirrorOf(bytes('GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\x01b\r\n\r\n'));
    expect(m.errAt).toBe(33);
    const runs = classRuns(m);
    const painted = paint(runs, m.text.length);
    for (let i = 0; i < m.classes.length; i++) {
      for (let c = m.starts[i]; c < m.starts[i + 1]; c++) {
        expect(painted[c]).toBe(i === m.errAt || UNCOLOURED.has(m.classes[i]) ? null : m.classes[i]);
      }
    }
    // Runs are maximal: neighbours differ in class or are apart.
    for (let k = 1; k < runs.length; k++) expect(runs[k - 1].cls !== runs[k].cls || runs[k - 1].to < runs[k].from).toBe(true);
  });

  test('count characters: CR and LF are two characters each in the raw view (glyph, then a layout break after LF)', () => {
    const m = mirrorOf(MESSAGE);
    const eol = classRuns(m).find((r) => r.cls === 'eol')!;
    // "POST /a HTTP/1.1" then ␍ and ␊ + newline: three characters.
    expect(eol).toEqual({ cls: 'eol', from: 16, to: 19 });
    expect(m.text.slice(eol.from, eol.to)).toBe('␍␊\n');
  });
});

describe('segments: the text split only where a part is lit or the error is', () => {
  test('no part lit and no error: one piece, the same on every step', () => {
    const steps = [50, 51, 52].map((fed) => segments(mirrorOf(MESSAGE, { fed, piece: 1, finish: false })));
    expect(steps[0]).toEqual([{ text: render(MESSAGE, 'raw'), lit: false, err: false }]);
    expect(sameSegments(steps[0], steps[1])).toBe(true);
    expect(sameSegments(steps[1], steps[2])).toBe(true);
  });

  test('a lit part and the error byte get pieces of their own; the pieces add up to the text', () => {
    const input = bytes('GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\x01b\r\n\r\n');
    const a = analyze(input, REQ);
    const host = a.owners[16];
    const m = mirrorOf(input, {}, host);
    const pieces = segments(m);
    expect(pieces.map((p) => p.text).join('')).toBe(m.text);
    // Before the error's line, the lines accepted are one part.
    expect(pieces.filter((p) => p.lit).map((p) => p.text)).toEqual(['GET / HTTP/1.1␍␊\nHost: a␍␊\n']);
    expect(pieces.filter((p) => p.err)).toEqual([{ text: '␁', lit: false, err: true }]);
    expect(sameSegments(pieces, segments(mirrorOf(input)))).toBe(false);
    // A field line of a complete head.
    const field = analyze(MESSAGE, REQ).fields[0].part;
    expect(segments(mirrorOf(MESSAGE, {}, field))).toEqual([
      { text: 'POST /a HTTP/1.1␍␊\n', lit: false, err: false },
      { text: 'Host: x␍␊\n', lit: true, err: false },
      { text: 'Content-Length: 5␍␊\n␍␊\nhello', lit: false, err: false },
    ]);
  });

  test('an error at the end of the input is a piece past the text', () => {
    const input = bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: b\r\nX: 1');
    const m = mirrorOf(input);
    // Ended inside a head: where its error points depends on the decoder; make it the end here.
    const atEnd = { ...m, errAt: input.length };
    expect(segments(atEnd).at(-1)).toEqual({ text: ' ', lit: false, err: true });
    expect(spanRuns(atEnd).at(-1)).toMatchObject({ text: ' ', err: true });
  });
});

test('span runs (no highlights): one per class and owner, adding up to the text', () => {
  const input = bytes('GET / HTTP/1.1\r\nHost: a\r\nX-Bad: a\x01b\r\n\r\n');
  const a = analyze(input, REQ);
  const m = mirrorOf(input, {}, a.owners[16]);
  const runs = spanRuns(m);
  expect(runs.map((r) => r.text).join('')).toBe(m.text);
  expect(runs.filter((r) => r.err).map((r) => r.text)).toEqual(['␁']);
  expect(runs.filter((r) => r.lit).map((r) => r.text).join('')).toBe('GET / HTTP/1.1␍␊\nHost: a␍␊\n');
  expect(runs[0]).toMatchObject({ cls: 'accepted', text: 'GET / HTTP/1.1␍␊\nHost: a␍␊\n' });
  const complete = spanRuns(mirrorOf(MESSAGE));
  expect(complete.slice(0, 3).map((r) => [r.cls, r.text])).toEqual([['method', 'POST'], ['ws', ' '], ['target', '/a']]);
});

/** A fake target: each highlight a map of ranges to their bounds, and a count of calls. */
class Recorder implements HighlightTarget<number> {
  next = 0;
  bounds = new Map<number, [number, number]>();
  members = new Map<ByteClass, Set<number>>();
  calls = { create: 0, move: 0, drop: 0 };

  private set(cls: ByteClass): Set<number> {
    let s = this.members.get(cls);
    if (s === undefined) this.members.set(cls, (s = new Set()));
    return s;
  }
  create(cls: ByteClass, from: number, to: number): number {
    this.calls.create++;
    const id = this.next++;
    this.bounds.set(id, [from, to]);
    this.set(cls).add(id);
    return id;
  }
  move(range: number, was: ByteClass, cls: ByteClass, from: number, to: number) {
    this.calls.move++;
    expect(this.set(was).has(range)).toBe(true);
    this.set(was).delete(range);
    this.bounds.set(range, [from, to]);
    this.set(cls).add(range);
  }
  drop(range: number, cls: ByteClass) {
    this.calls.drop++;
    expect(this.set(cls).delete(range)).toBe(true);
    this.bounds.delete(range);
  }
  /** What is highlighted: the runs, sorted. */
  state(): ClassRun[] {
    const out: ClassRun[] = [];
    for (const [cls, ids] of this.members) for (const id of ids) out.push({ cls, from: this.bounds.get(id)![0], to: this.bounds.get(id)![1] });
    return out.sort((x, y) => x.from - y.from);
  }
}

describe('HighlightSync', () => {
  test('a forward step through a body moves one range: the body run grows', () => {
    const body = 400;
    const input = bytes(`PUT /u HTTP/1.1\r\nHost: a\r\nContent-Length: ${body}\r\n\r\n${'x'.repeat(body)}`);
    const rec = new Recorder();
    const sync = new HighlightSync(rec);
    const start = input.length - body + 10;
    sync.update(classRuns(mirrorOf(input, { fed: start, piece: 1, finish: false })));
    const created = rec.calls.create;
    expect(created).toBeGreaterThan(10);
    for (let fed = start + 1; fed <= input.length; fed++) {
      const runs = classRuns(mirrorOf(input, { fed, piece: 1, finish: false }));
      sync.update(runs);
      expect(sync.changed).toBe(1);
      expect(rec.state()).toEqual(runs);
    }
    expect(rec.calls).toEqual({ create: created, move: body - 10, drop: 0 });
  });

  test('random sequences of runs: the highlights always hold exactly the runs', () => {
    const rand = rng(7);
    const input = bytes(
      'POST /up HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-Sum: 1\r\n\r\nGET / HTTP/1.1\r\nHost: b\r\n\r\n',
    );
    const rec = new Recorder();
    const sync = new HighlightSync(rec);
    for (let k = 0; k < 400; k++) {
      const feed = rand() < 0.2 ? {} : { fed: Math.floor(rand() * (input.length + 1)), piece: 1 + Math.floor(rand() * 3), finish: false };
      const runs = classRuns(mirrorOf(input, feed));
      sync.update(runs);
      expect(rec.state()).toEqual(runs);
      if (rand() < 0.05) {
        // The text nodes were replaced: every range is placed again.
        for (const ids of rec.members.values()) ids.clear();
        rec.bounds.clear();
        sync.reset();
        sync.update(runs);
        expect(sync.changed).toBe(runs.length);
        expect(rec.state()).toEqual(runs);
      }
    }
  });

  test('runs that did not change are not touched', () => {
    const rec = new Recorder();
    const sync = new HighlightSync(rec);
    const runs = classRuns(mirrorOf(MESSAGE));
    sync.update(runs);
    sync.update(runs.map((r) => ({ ...r })));
    expect(sync.changed).toBe(0);
    // One run of another class: one move, which changes the range's highlight.
    const other = runs.map((r, k) => (k === 0 ? { ...r, cls: 'unread' as ByteClass } : r));
    sync.update(other);
    expect(sync.changed).toBe(1);
    expect(rec.state()).toEqual(other);
    // Fewer runs: the extra ranges are dropped.
    sync.update(other.slice(0, 3));
    expect(rec.calls.drop).toBe(runs.length - 3);
    expect(rec.state()).toEqual(other.slice(0, 3));
  });
});

describe('many runs: only those near what the editor shows', () => {
  test('firstWhere finds the first index where a monotonic predicate holds', () => {
    const xs = [1, 3, 3, 7, 9];
    for (let v = 0; v <= 10; v++) expect(firstWhere(0, xs.length, (i) => xs[i] >= v)).toBe(xs.findIndex((x) => x >= v) === -1 ? xs.length : xs.findIndex((x) => x >= v));
    expect(firstWhere(2, 2, () => true)).toBe(2);
  });

  test('windowRuns: the runs meeting the window, cut to it, equal to painting then cutting', () => {
    let body = '';
    for (let k = 0; k < 60; k++) body += `3\r\nabc\r\n`;
    const input = bytes(`POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${body}0\r\n\r\n`);
    const m = mirrorOf(input);
    const runs = classRuns(m);
    const all = paint(runs, m.text.length);
    const rand = rng(3);
    for (let k = 0; k < 200; k++) {
      const a = Math.floor(rand() * (m.text.length + 10));
      const b = Math.floor(rand() * (m.text.length + 10));
      const [from, to] = a <= b ? [a, b] : [b, a];
      const cut = windowRuns(runs, from, to);
      const painted = paint(cut, m.text.length);
      for (let c = 0; c < m.text.length; c++) expect(painted[c]).toBe(c >= from && c < to ? all[c] : null);
      for (const r of cut) expect(r.from < r.to).toBe(true);
    }
    expect(windowRuns(runs, 0, m.text.length)).toEqual(runs);
    for (let c = 0; c <= m.text.length; c++) expect(windowRuns(runs, c, c)).toEqual([]);
  });
});

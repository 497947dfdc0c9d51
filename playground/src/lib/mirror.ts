// The editor's mirror: the coloured copy of the text behind the textarea.
//
// Colouring the mirror with a span per run of one class made every step in step mode change the
// spans around the fed position, and the browser then laid out the whole paragraph again (a
// 100 KiB body is one line of 100 KiB). Where the engine has the CSS Custom Highlight API, the
// mirror's text is split only where the pointer lights a part or an error marks a byte (neither
// changes when a step is taken), and the classes' colours are highlights: ranges over that text,
// painted without any layout. `HighlightSync` moves only the ranges whose bounds or class changed,
// so a step through a body moves one range (the body's end). When the runs are many, only those
// near the lines the editor shows get ranges (`windowRuns`).

import type { ByteClass } from './types.ts';
import { firstWhere } from './search.ts';

/** Characters `from`..`to` of the text (the editor's characters, not bytes) are of class `cls`. */
export interface ClassRun {
  cls: ByteClass;
  from: number;
  to: number;
}

/** A piece of the mirror's text: a span when lit or the error's byte, else plain text. */
export interface Segment {
  text: string;
  lit: boolean;
  err: boolean;
}

/** A run of the span-per-run mirror (engines without highlights). */
export interface SpanRun {
  text: string;
  cls: string;
  part: number;
  err: boolean;
  lit: boolean;
}

/** What the mirror is drawn from. */
export interface MirrorInput {
  text: string;
  /** For each byte its first character, and at `bytes.length` the text's length. */
  starts: Int32Array;
  classes: readonly ByteClass[];
  owners: Int32Array;
  /** The error's byte (may be `bytes.length`: the end of the input), or -1. */
  errAt: number;
  /** The part lit by the pointer or focus, or null. */
  litPart: number | null;
}

function byteCount(m: MirrorInput): number {
  return m.starts.length - 1;
}

/** Classes the mirror leaves uncoloured (their colour is the text's, and the mirror's text is transparent). */
export const UNCOLOURED: ReadonlySet<ByteClass> = new Set(['pending', 'unread']);

/**
 * The runs of one class, in characters, of the classes the mirror colours. The error's byte is
 * left out: its own span colours it.
 */
export function classRuns(m: MirrorInput): ClassRun[] {
  const n = byteCount(m);
  const out: ClassRun[] = [];
  let i = 0;
  while (i < n) {
    if (i === m.errAt) {
      i++;
      continue;
    }
    const cls = m.classes[i];
    let j = i + 1;
    while (j < n && j !== m.errAt && m.classes[j] === cls) j++;
    if (!UNCOLOURED.has(cls)) out.push({ cls, from: m.starts[i], to: m.starts[j] });
    i = j;
  }
  return out;
}

/** The mirror's text, split where the lit part and the error's byte start and end. */
export function segments(m: MirrorInput): Segment[] {
  const n = byteCount(m);
  const out: Segment[] = [];
  const lit = (i: number) => m.litPart !== null && m.owners[i] === m.litPart;
  let i = 0;
  while (i < n) {
    const err = i === m.errAt;
    const l = lit(i);
    let j = i + 1;
    if (!err) while (j < n && j !== m.errAt && lit(j) === l) j++;
    out.push({ text: m.text.slice(m.starts[i], m.starts[j]), lit: l, err });
    i = j;
  }
  // An error at the end of the input points past the last byte.
  if (m.errAt === n) out.push({ text: ' ', lit: false, err: true });
  return out;
}

export function sameSegments(a: readonly Segment[], b: readonly Segment[]): boolean {
  return a.length === b.length && a.every((s, k) => s.text === b[k].text && s.lit === b[k].lit && s.err === b[k].err);
}

/** The span-per-run mirror of engines without highlights: runs of one class and owner. */
export function spanRuns(m: MirrorInput): SpanRun[] {
  const n = byteCount(m);
  const out: SpanRun[] = [];
  let i = 0;
  while (i < n) {
    const cls = m.classes[i];
    const part = m.owners[i];
    const err = i === m.errAt;
    let j = i + 1;
    while (j < n && j !== m.errAt && !err && m.classes[j] === cls && m.owners[j] === part) j++;
    out.push({ text: m.text.slice(m.starts[i], m.starts[j]), cls, part, err, lit: m.litPart !== null && part === m.litPart });
    i = j;
  }
  if (m.errAt === n) out.push({ text: ' ', cls: '', part: -1, err: true, lit: false });
  return out;
}

/**
 * Beyond this many runs, only the runs near what the editor shows get a range. (The engine
 * rebuilds its marks for every range of every highlight whenever the document changed, so a
 * chunked body of thousands of runs would cost tens of milliseconds a frame.)
 */
export const WINDOW_RUNS = 400;

/** The runs that meet characters `from`..`to`, cut to them. */
export function windowRuns(runs: readonly ClassRun[], from: number, to: number): ClassRun[] {
  const out: ClassRun[] = [];
  for (let k = firstWhere(0, runs.length, (i) => runs[i].to > from); k < runs.length && runs[k].from < to; k++) {
    const r = runs[k];
    const a = Math.max(r.from, from);
    const b = Math.min(r.to, to);
    if (a < b) out.push({ cls: r.cls, from: a, to: b });
  }
  return out;
}

/** Where highlight ranges live: the DOM (`Range`s in `CSS.highlights`), or a test's record. */
export interface HighlightTarget<R> {
  /** A new range over characters `from`..`to` of the mirror's text, in the highlight of `cls`. */
  create(cls: ByteClass, from: number, to: number): R;
  /** Moves `range` to `from`..`to` and into the highlight of `cls` (which may be its own). */
  move(range: R, was: ByteClass, cls: ByteClass, from: number, to: number): void;
  /** Takes `range` out of the highlight of `cls`. */
  drop(range: R, cls: ByteClass): void;
}

/**
 * The highlight ranges of the mirror, kept between updates: the k-th run keeps the k-th range,
 * which is touched only when that run's bounds or class changed.
 */
export class HighlightSync<R> {
  private runs: (ClassRun & { range: R })[] = [];
  /** Ranges created, moved and dropped by the last update. */
  changed = 0;

  constructor(private readonly target: HighlightTarget<R>) {}

  /** Forgets every range (the text nodes under them were replaced): the next update creates them all. */
  reset() {
    this.runs = [];
  }

  update(next: readonly ClassRun[]) {
    const t = this.target;
    const kept: (ClassRun & { range: R })[] = [];
    this.changed = 0;
    for (let k = 0; k < next.length; k++) {
      const run = next[k];
      const old = this.runs[k];
      if (old === undefined) {
        kept.push({ ...run, range: t.create(run.cls, run.from, run.to) });
        this.changed++;
      } else if (old.cls !== run.cls || old.from !== run.from || old.to !== run.to) {
        t.move(old.range, old.cls, run.cls, run.from, run.to);
        kept.push({ ...run, range: old.range });
        this.changed++;
      } else {
        kept.push(old);
      }
    }
    for (let k = next.length; k < this.runs.length; k++) {
      t.drop(this.runs[k].range, this.runs[k].cls);
      this.changed++;
    }
    this.runs = kept;
  }
}

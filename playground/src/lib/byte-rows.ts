// The byte view's rows, rebuilt only where what they show changed.
//
// Every cell of the byte view (a hex cell and its text twin) shows its byte's class, whether its
// part is lit, whether it is the error's byte, not yet fed, where a resumed parse starts, the byte
// pointed at or selected, and an accessible name built from its part. A step in step mode makes a
// new analysis, yet on most rows none of that changed: `ByteRows.update` hands back the row
// object of the previous update for such rows, so that the view (a keyed each block over the
// rows) leaves their DOM alone, and builds new objects only for the rows that differ.

import { BYTE_CLASSES, type Part } from './analysis.ts';
import type { ByteClass } from './types.ts';

export const ROW = 16;

/** What the byte view draws, for one update. */
export interface ByteRowsInput {
  bytes: Uint8Array;
  classes: readonly ByteClass[];
  owners: Int32Array;
  parts: readonly Part[];
  /** Rows drawn (the first `rows` rows of the input). */
  rows: number;
  /** Bytes fed: cells from here are "not fed yet". */
  fed: number;
  /** The error's byte, or -1. */
  errAt: number;
  /** The part lit by the pointer or focus, or null. */
  litPart: number | null;
  /** The byte pointed at or selected (its cell is framed), or null. */
  current: number | null;
  /** The selected byte (the grid's tab stop), or null. */
  selected: number | null;
  /** Where a resumed parse starts (step mode), or -1. */
  resume: number;
}

export interface ByteCell {
  i: number;
  hex: string;
  glyph: string;
  cls: ByteClass;
  lit: boolean;
  err: boolean;
  unfed: boolean;
  resume: boolean;
  cur: boolean;
  selected: boolean;
  /** The hex cell's accessible name: its visible text, then what `describeByte` says. */
  label: string;
}

export interface ByteRow {
  r: number;
  /** The row's first offset, in hex. */
  offset: string;
  cells: ByteCell[];
}

export function hex(b: number): string {
  return b.toString(16).padStart(2, '0');
}

/** How the text column shows a byte. */
export function glyph(b: number): string {
  if (b === 0x0d) return '␍';
  if (b === 0x0a) return '␊';
  if (b === 0x09) return '␉';
  if (b === 0x20) return '·';
  if (b < 0x20) return String.fromCharCode(0x2400 + b);
  if (b === 0x7f) return '␡';
  if (b >= 0x80) return '.';
  return String.fromCharCode(b);
}

const CLASS_LABELS = new Map(BYTE_CLASSES.map((c) => [c.cls, c.label]));

/** One line about byte `i`: offset, value, class, part (with its RFC section), the error. */
export function describeByte(
  a: Pick<ByteRowsInput, 'bytes' | 'classes' | 'owners' | 'parts' | 'fed' | 'errAt'>,
  i: number,
): string {
  const b = a.bytes[i];
  const part = a.owners[i] >= 0 ? a.parts[a.owners[i]] : null;
  const cls = CLASS_LABELS.get(a.classes[i]) ?? a.classes[i];
  const where = part ? `${part.label} (${part.rfc})` : i >= a.fed ? 'not fed yet' : 'no part';
  const err = i === a.errAt ? ' · the error is here' : '';
  return `byte ${i} · 0x${hex(b)} ${glyph(b)} · ${cls} · ${where}${err}`;
}

function cell(a: ByteRowsInput, i: number): ByteCell {
  const b = a.bytes[i];
  return {
    i,
    hex: hex(b),
    glyph: glyph(b),
    cls: a.classes[i],
    lit: a.litPart !== null && a.owners[i] === a.litPart,
    err: i === a.errAt,
    unfed: i >= a.fed,
    resume: i === a.resume && i < a.fed,
    cur: i === a.current,
    selected: i === a.selected,
    label: `${hex(b)}: ${describeByte(a, i)}`,
  };
}

/** Row `r` built from scratch. */
export function buildRow(a: ByteRowsInput, r: number): ByteRow {
  const end = Math.min(a.bytes.length, (r + 1) * ROW);
  const cells: ByteCell[] = [];
  for (let i = r * ROW; i < end; i++) cells.push(cell(a, i));
  return { r, offset: (r * ROW).toString(16).padStart(6, '0'), cells };
}

/** Whether byte `i` looks the same (every field of its cell) under `p` and `a`. */
function sameCell(p: ByteRowsInput, a: ByteRowsInput, i: number): boolean {
  const owner = a.owners[i];
  if (p.classes[i] !== a.classes[i] || p.owners[i] !== owner) return false;
  if (owner >= 0) {
    const pp = p.parts[owner];
    const ap = a.parts[owner];
    if (pp === undefined || pp.label !== ap.label || pp.rfc !== ap.rfc) return false;
  }
  return (
    (i >= p.fed) === (i >= a.fed) &&
    (i === p.errAt) === (i === a.errAt) &&
    (p.litPart !== null && owner === p.litPart) === (a.litPart !== null && owner === a.litPart) &&
    (i === p.resume && i < p.fed) === (i === a.resume && i < a.fed) &&
    (i === p.current) === (i === a.current) &&
    (i === p.selected) === (i === a.selected)
  );
}

/** The rows of the byte view, kept between updates: unchanged rows keep their object. */
export class ByteRows {
  private prev: ByteRowsInput | null = null;
  private rows: ByteRow[] = [];
  /** Rows built (not reused) by the last update. */
  built = 0;

  update(a: ByteRowsInput): ByteRow[] {
    const count = Math.max(0, Math.min(a.rows, Math.ceil(a.bytes.length / ROW)));
    const p = this.prev;
    const out: ByteRow[] = new Array(count);
    this.built = 0;
    for (let r = 0; r < count; r++) {
      const old = this.rows[r];
      let reuse = p !== null && p.bytes === a.bytes && old !== undefined;
      if (reuse) {
        const end = Math.min(a.bytes.length, (r + 1) * ROW);
        for (let i = r * ROW; i < end; i++) {
          if (!sameCell(p!, a, i)) {
            reuse = false;
            break;
          }
        }
      }
      if (reuse) {
        out[r] = old;
      } else {
        out[r] = buildRow(a, r);
        this.built++;
      }
    }
    this.prev = a;
    this.rows = out;
    return out;
  }
}

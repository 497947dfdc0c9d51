// Framing across parsers: what request smuggling turns on. Each parser's reading of a stream is
// boiled down to how it frames it (rejects; or how many messages, each with its framing and body
// length); parsers with the same reading form a group, and the groups say which pairs disagree.
// The compare view's framing sentence, the smuggling presets' disagreement lines and the
// gallery's cells all come from here.

import { FRAMING_TEXT, type CompareColumn, type PeerResult } from './compare.ts';
import type { Mode } from './types.ts';

/** A gallery cell: the parser rejects, accepts as most accepting parsers do, or frames differently. */
export type Verdict = 'reject' | 'accept' | 'different';

/**
 * How a parser frames the stream: rejects, or the messages read with their body lengths.
 * Equal keys mean equal framing (llhttp does not say which framing it chose, so the framing
 * names are left out of the key and added to the words by `framingReading`).
 */
export function framingKey(r: PeerResult): string {
  if (r.status === 'error') return 'rejects';
  const bodies = r.messages.filter((m) => m.complete).map((m) => m.bodyLength);
  return `${r.status} ${bodies.join(',')}`;
}

/** `framingKey` in words, with the framing names where `r` reports them. */
export function framingReading(r: PeerResult, mode: Mode): string {
  if (r.status === 'error') return 'rejects';
  const noun = mode === 'request' ? 'request' : 'response';
  const done = r.messages.filter((m) => m.complete);
  const parts = done.map((m) => (m.framing && m.framing !== 'none' ? `${FRAMING_TEXT[m.framing]} ${m.bodyLength}` : `body ${m.bodyLength}`));
  const read = `reads ${done.length} ${noun}${done.length === 1 ? '' : 's'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
  return r.status === 'partial' ? `${read}, then waits for more` : read;
}

/** Columns grouped by framing, largest group first (ties: column order); the words come from the first member that names its framing. */
export function groupByReading(columns: readonly CompareColumn[], mode: Mode): { reading: string; columns: CompareColumn[] }[] {
  const groups: { key: string; columns: CompareColumn[] }[] = [];
  for (const c of columns) {
    const key = framingKey(c.result);
    const g = groups.find((x) => x.key === key);
    if (g) g.columns.push(c);
    else groups.push({ key, columns: [c] });
  }
  return groups
    .sort((a, b) => b.columns.length - a.columns.length)
    .map((g) => {
      const named = g.columns.find((c) => c.result.messages.some((m) => m.framing !== undefined)) ?? g.columns[0];
      return { reading: framingReading(named.result, mode), columns: g.columns };
    });
}

/** The columns the framing comparisons are about: one per parser (httpspan strict, not its leniency options). */
export function parserColumns(columns: readonly CompareColumn[]): CompareColumn[] {
  return columns.filter((c) => c.kind === 'strict' || c.kind === 'llhttp' || c.kind === 'external');
}

/**
 * One line saying which parsers disagree on framing: 'httpspan strict, llhttp: rejects |
 * httparse 1.10.1, Go net/http: reads 2 requests (...)', or that all agree. Rejections at
 * different bytes are agreement.
 */
export function disagreementLine(columns: readonly CompareColumn[], mode: Mode, name: (c: CompareColumn) => string = (c) => c.label): string {
  const groups = groupByReading(parserColumns(columns), mode);
  if (groups.length <= 1) return `All agree: ${groups[0]?.reading ?? 'nothing read'}.`;
  return groups.map((g) => `${g.columns.map(name).join(', ')}: ${g.reading}`).join(' | ');
}

/** The compare view's framing sentence: each parser's reading where they differ, with error offsets. */
export function framingSentence(columns: readonly CompareColumn[], mode: Mode): string | null {
  const parsers = parserColumns(columns);
  if (groupByReading(parsers, mode).length <= 1) return null;
  const phrase = (c: CompareColumn): string =>
    c.result.status === 'error' ? `${c.label} rejects at byte ${c.result.error!.offset}` : `${c.label} ${framingReading(c.result, mode)}`;
  return `Framing differs: ${parsers.map(phrase).join('; ')}.`;
}

/** The gallery's verdict for each parser column (in `parserColumns` order). */
export function verdicts(columns: readonly CompareColumn[], mode: Mode): Verdict[] {
  const parsers = parserColumns(columns);
  const accepting = groupByReading(parsers.filter((c) => c.result.status !== 'error'), mode);
  const usual = accepting[0]?.columns[0];
  return parsers.map((c) => {
    if (c.result.status === 'error') return 'reject';
    return usual && framingKey(c.result) === framingKey(usual.result) ? 'accept' : 'different';
  });
}

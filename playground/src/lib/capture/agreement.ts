// The other parsers' reading of each message of a capture: the message's bytes through httpspan
// strict, llhttp, httparse, picohttpparser and Go, boiled down to the gallery's verdicts (accepts
// as most do, other framing, rejects) and its disagreement line.

import { parseWithHttpspan, type CompareColumn } from '../compare.ts';
import { disagreementLine, verdicts, type Verdict } from '../framing.ts';
import type { Llhttp } from '../llhttp.ts';
import type { ExternalParser } from '../parsers/common.ts';
import { shortName } from '../preset-disagreements.ts';
import type { Mode } from '../types.ts';

/** The parsers a capture is checked with (those loaded; llhttp may be missing). */
export interface CaptureParsers {
  llhttp: Llhttp | null;
  llhttpLabel: string;
  external: readonly ExternalParser[];
}

export interface Agreement {
  /** One per parser, in `parsers` order (httpspan strict first). */
  verdicts: Verdict[];
  /** Whether the parsers frame the message in more than one way. */
  disagree: boolean;
  /** 'All agree: reads 1 request (...).' or 'httpspan, llhttp: rejects | Go: reads 2 requests'. */
  line: string;
}

/** The short names of the parsers' columns, in the order of `Agreement.verdicts`. */
export function parserNames(parsers: CaptureParsers): string[] {
  return ['httpspan', ...(parsers.llhttp ? ['llhttp'] : []), ...parsers.external.map((p) => shortName({ id: p.id, label: p.label } as CompareColumn))];
}

/** How the parsers read `bytes` (one message, and what follows it when httpspan rejects it). */
export function messageAgreement(bytes: Uint8Array, mode: Mode, requestMethod: string, parsers: CaptureParsers): Agreement {
  const column = (id: string, label: string, kind: CompareColumn['kind'], parse: () => CompareColumn['result']): CompareColumn => ({
    id, label, kind, flags: [], result: parse(), disagrees: false, sameAsStrict: false, disagreements: [], notes: [],
  });
  const columns = [column('strict', 'httpspan strict', 'strict', () => parseWithHttpspan(bytes, mode, requestMethod))];
  const llhttp = parsers.llhttp;
  if (llhttp) columns.push(column('llhttp', parsers.llhttpLabel, 'llhttp', () => llhttp.parse(bytes, mode, requestMethod)));
  for (const p of parsers.external) columns.push(column(p.id, p.label, 'external', () => p.parse(bytes, mode, requestMethod)));
  const line = disagreementLine(columns, mode, shortName);
  return { verdicts: verdicts(columns, mode), disagree: !line.startsWith('All agree'), line };
}

// The connections view's filters: errors only, disagreements only, and a text that must appear
// in a request's Host or target (a response matches through the request it answers).

import type { Agreement } from './agreement.ts';
import type { CaptureMessage } from './messages.ts';
import type { CaptureReport } from './report.ts';

export interface CaptureFilter {
  errorsOnly: boolean;
  disagreementsOnly: boolean;
  /** Case-insensitive; empty matches everything. */
  text: string;
}

export const NO_FILTER: CaptureFilter = { errorsOnly: false, disagreementsOnly: false, text: '' };

/** The ids (indexes in `report.messages`) of the messages that pass the filter. */
export function filterMessages(report: CaptureReport, agreements: ReadonlyMap<number, Agreement>, f: CaptureFilter): Set<number> {
  const text = f.text.trim().toLowerCase();
  const requestOf = new Map<string, CaptureMessage>();
  for (const m of report.messages) if (m.direction === 'request') requestOf.set(`${m.connection}:${m.index}`, m);
  const matchesText = (m: CaptureMessage): boolean => {
    if (!text) return true;
    const req = m.direction === 'request' ? m : m.request !== undefined ? requestOf.get(`${m.connection}:${m.request}`) : undefined;
    return !!req && `${req.host ?? ''} ${req.target ?? ''}`.toLowerCase().includes(text);
  };
  const out = new Set<number>();
  report.messages.forEach((m, id) => {
    if (f.errorsOnly && m.outcome === 'complete') return;
    if (f.disagreementsOnly && !agreements.get(id)?.disagree) return;
    if (matchesText(m)) out.add(id);
  });
  return out;
}

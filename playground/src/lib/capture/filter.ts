// The connections view's filters: errors only, disagreements only, and a text that must appear
// in a request's Host or target (a response matches through the request it answers).

import type { Agreement } from './agreement.ts';
import type { CaptureMessage } from './messages.ts';

export interface CaptureFilter {
  errorsOnly: boolean;
  disagreementsOnly: boolean;
  /** Case-insensitive; empty matches everything. */
  text: string;
}

export const NO_FILTER: CaptureFilter = { errorsOnly: false, disagreementsOnly: false, text: '' };

/** The indexes in `messages` (a report's) of the messages that pass the filter. */
export function filterMessages(messages: readonly CaptureMessage[], agreements: ReadonlyMap<number, Agreement>, f: CaptureFilter): Set<number> {
  const text = f.text.trim().toLowerCase();
  if (!text && !f.errorsOnly && !f.disagreementsOnly) return new Set(messages.keys());
  const requestOf = new Map<string, CaptureMessage>();
  for (const m of messages) if (m.direction === 'request') requestOf.set(`${m.connection}:${m.index}`, m);
  const matchesText = (m: CaptureMessage): boolean => {
    if (!text) return true;
    const req = m.direction === 'request' ? m : m.request !== undefined ? requestOf.get(`${m.connection}:${m.request}`) : undefined;
    return !!req && `${req.host ?? ''} ${req.target ?? ''}`.toLowerCase().includes(text);
  };
  const out = new Set<number>();
  messages.forEach((m, id) => {
    if (f.errorsOnly && m.outcome === 'complete') return;
    if (f.disagreementsOnly && !agreements.get(id)?.disagree) return;
    if (matchesText(m)) out.add(id);
  });
  return out;
}

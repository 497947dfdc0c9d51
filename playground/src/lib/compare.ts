// The compare view's logic: the same bytes through httpspan (strict, each leniency flag alone,
// all of them) and llhttp, side by side, with the places where they disagree.
//
// Request smuggling is two parsers framing the same bytes differently: one sees two requests
// where the other sees one, or a body of 4 bytes where the other sees none, or one accepts what
// the other rejects. So the comparison is about framing and acceptance, measured against
// httpspan strict:
// - the outcome: complete, partial (the input ends inside a message) or rejected;
// - the number of messages read to their end;
// - for each message: its start line (method, target, version; status for responses), its
//   field lines, its trailer fields and its body length;
// - where reading stopped, when neither rejects (an upgrade or a closing message leaves the
//   rest of the input unread).
// What does not count: how an error is named or where it is reported. Both parsers rejecting
// is agreement, whatever the codes say (llhttp's HPE_* names and httpspan's snake_case codes
// are different vocabularies, and each reports a different byte of the same fault); such
// differences are recorded as notes. Field values are compared without the whitespace around
// them, which httpspan trims and llhttp keeps (RFC 9112 5: it is not part of the value).

import { Decoder, ParseError, type RequestHead, type ResponseHead } from '@httpspan/wasm';
import { decoderOptions } from './analysis.ts';
import type { Llhttp, PeerMessage, PeerResult } from './llhttp.ts';
import { LENIENCY_FLAGS, type LeniencyFlag, type Mode, type RequestMethods } from './types.ts';
import { concatBytes } from './bytes.ts';
import type { ExternalParser } from './parsers/common.ts';

export type { PeerMessage, PeerResult };

/** Which parser and options a column shows. */
export type ColumnKind = 'strict' | 'lenient' | 'all-lenient' | 'llhttp' | 'external';

/** One column of the table: a parser (and its options) and what it made of the input. */
export interface CompareColumn {
  /** 'strict', 'lenient:<flag>' (e.g. 'lenient:bareLf'), 'all-lenient' or 'llhttp'. */
  id: string;
  /** 'httpspan strict', 'httpspan + bareLf', 'httpspan all lenient', the llhttp label. */
  label: string;
  kind: ColumnKind;
  /** The httpspan leniency flags turned on (none for strict and llhttp). */
  flags: LeniencyFlag[];
  result: PeerResult;
  /** Whether the column disagrees with httpspan strict (the rules are at the top of compare.ts). */
  disagrees: boolean;
  /**
   * httpspan columns other than strict: the result is identical to strict's, error code and
   * offset included, so the UI may collapse the column. Always false for strict and llhttp.
   */
  sameAsStrict: boolean;
  /** The disagreements with strict, as sentences (those of `Comparison.summary` for this column). */
  disagreements: string[];
  /** Differences that are not disagreements: both reject, with another error or at another byte. */
  notes: string[];
  /** External parsers: how the module was built. */
  builtFrom?: string;
  /** External parsers: what the column shows that its caller, not the parser, decides. */
  derived?: string;
}

/** One cell of the table. */
export interface CompareCell {
  /** What to show; '—' when the column has nothing for this row. */
  text: string;
  /** Whether this cell differs from the strict column's (always false in the strict column). */
  differs: boolean;
  /** A detail worth a tooltip: which field differs, or that an error is reported elsewhere. */
  note?: string;
}

/** One row of the table: one fact, with a cell per column (in `Comparison.columns` order). */
export interface CompareRow {
  /** 'status', 'messages', 'read', 'error', or 'message-<i>-start|headers|trailers|body' (i from 1). */
  id: string;
  label: string;
  /** The message (1-based) the row is about, or null. */
  message: number | null;
  cells: CompareCell[];
}

/** Everything the compare view shows. */
export interface Comparison {
  mode: Mode;
  requestMethod: RequestMethods;
  /** Bytes of the input. */
  length: number;
  /** httpspan strict first, then one column per leniency flag, all lenient, and llhttp when given. */
  columns: CompareColumn[];
  rows: CompareRow[];
  /** Every disagreement with httpspan strict, as plain sentences; empty when all columns agree. */
  summary: string[];
}

/** Options of `compare`. */
export interface CompareOptions {
  /** The llhttp column's label, e.g. `llhttp (undici ${undiciVersion})`. */
  llhttpLabel?: string;
  /** httparse, picohttpparser, Go: columns after llhttp (those loaded so far). */
  external?: readonly ExternalParser[];
}

const STRICT_LABEL = 'httpspan strict';
const DEFAULT_LLHTTP_LABEL = 'llhttp (undici wasm)';

/**
 * Parses `bytes` with httpspan's `Decoder` as a whole stream: all of it pushed at once, then
 * `finish()`. `requestMethod` (responses): the method of the requests every response answers, or
 * one per request in order.
 */
export function parseWithHttpspan(
  bytes: Uint8Array,
  mode: Mode,
  requestMethod: RequestMethods,
  lenient: readonly LeniencyFlag[] = [],
): PeerResult {
  const options = decoderOptions({ mode, requestMethod: typeof requestMethod === 'string' ? requestMethod : 'GET', lenient: [...lenient] }, bytes.length);
  if (mode === 'response' && typeof requestMethod !== 'string') {
    // The Decoder matches final responses to its queue in order, as methodOf does; past the list, the last repeats.
    options.requestMethods = (options.requestMethods ?? []).map((_, k) => requestMethod[Math.min(k, requestMethod.length - 1)] ?? 'GET');
  }
  const decoder = new Decoder(mode, options);
  const messages: PeerMessage[] = [];
  const pieces: Uint8Array[][] = [];
  let status: PeerResult['status'] = 'complete';
  let error: PeerResult['error'] = null;
  let consumed = bytes.length;
  try {
    let events = decoder.push(bytes);
    // finish() repeats a 'closed' or 'error' that push already reported: only ask when needed.
    if (!events.some((e) => e.type === 'closed' || e.type === 'error')) events = events.concat(decoder.finish());
    loop: for (const event of events) {
      const current = messages[messages.length - 1];
      switch (event.type) {
        case 'head': {
          const head = event.head as RequestHead | ResponseHead;
          messages.push({
            ...('method' in head ? { method: head.method, target: head.target } : { status: head.status }),
            version: head.version,
            headers: head.fields.map((f): [string, string] => [f.name, f.value]),
            trailers: [],
            bodyLength: 0,
            body: new Uint8Array(0),
            keepAlive: head.keepAlive,
            // httpspan stops after a 101 or a 2xx to CONNECT; a request's Upgrade is only an
            // offer (the server may decline), so the Decoder goes on reading requests.
            upgrade: 'switchesProtocols' in head && head.switchesProtocols,
            offset: event.offset,
            complete: false,
            framing: head.framing === 'length' ? 'content-length' : head.framing,
          });
          pieces.push([]);
          break;
        }
        case 'body':
          // event.data is a view of the caller's `bytes`: copy, so the result does not alias them.
          pieces[pieces.length - 1].push(event.data.slice());
          break;
        case 'trailers':
          current.trailers = event.fields.map((f): [string, string] => [f.name, f.value]);
          break;
        case 'end':
          current.complete = true;
          current.end = event.offset;
          break;
        case 'closed':
          consumed = event.offset;
          break loop;
        case 'incomplete':
          status = 'partial';
          break loop;
        case 'error':
          status = 'error';
          error = { code: event.error.code, reason: event.error.message, offset: event.error.offset };
          consumed = event.error.offset;
          break loop;
      }
    }
  } catch (thrown) {
    // The Decoder reports errors as events; a thrown ParseError would be a limit of the wrapper.
    if (!(thrown instanceof ParseError)) throw thrown;
    status = 'error';
    error = { code: thrown.code, reason: thrown.message, offset: thrown.offset };
    consumed = thrown.offset;
  } finally {
    decoder.free();
  }
  messages.forEach((m, i) => {
    m.body = concatBytes(pieces[i]);
    m.bodyLength = m.body.length;
  });
  return { status, messages, error, consumed };
}

/**
 * Runs the input through every parser of the compare view and finds where each disagrees with
 * httpspan strict (see the top of this file for what counts as a disagreement).
 *
 * `requestMethod` (responses): the method of the request the responses answer (HEAD and
 * CONNECT change framing), or one per request in order. `llhttp`: null leaves its column out (while it loads, or if it
 * cannot be loaded).
 */
export function compare(
  bytes: Uint8Array,
  mode: Mode,
  requestMethod: RequestMethods,
  llhttp: Llhttp | null,
  options: CompareOptions = {},
): Comparison {
  const column = (id: string, label: string, kind: ColumnKind, flags: LeniencyFlag[], result: PeerResult): CompareColumn => ({
    id, label, kind, flags, result, disagrees: false, sameAsStrict: false, disagreements: [], notes: [],
  });
  const columns: CompareColumn[] = [column('strict', STRICT_LABEL, 'strict', [], parseWithHttpspan(bytes, mode, requestMethod))];
  for (const flag of LENIENCY_FLAGS) {
    columns.push(column(`lenient:${flag}`, `httpspan + ${flag}`, 'lenient', [flag], parseWithHttpspan(bytes, mode, requestMethod, [flag])));
  }
  columns.push(column('all-lenient', 'httpspan all lenient', 'all-lenient', [...LENIENCY_FLAGS], parseWithHttpspan(bytes, mode, requestMethod, LENIENCY_FLAGS)));
  if (llhttp) {
    columns.push(column('llhttp', options.llhttpLabel ?? DEFAULT_LLHTTP_LABEL, 'llhttp', [], llhttp.parse(bytes, mode, requestMethod)));
  }
  for (const parser of options.external ?? []) {
    const col = column(parser.id, parser.label, 'external', [], parser.parse(bytes, mode, requestMethod));
    col.builtFrom = parser.builtFrom;
    col.derived = parser.derived;
    columns.push(col);
  }

  const strict = columns[0];
  for (const col of columns.slice(1)) {
    const found = diff(strict, col, mode, bytes.length);
    col.disagreements = found.disagreements;
    col.notes = found.notes;
    col.disagrees = found.disagreements.length > 0;
    col.sameAsStrict = (col.kind === 'lenient' || col.kind === 'all-lenient') && identical(strict.result, col.result);
  }

  return {
    mode,
    requestMethod,
    length: bytes.length,
    columns,
    rows: buildRows(columns, mode, bytes.length),
    summary: columns.flatMap((c) => c.disagreements),
  };
}

// ---------------------------------------------------------------------------------------------
// What is compared.

/**
 * The messages whose framing two parsers can be held to: those read to their end, and, when the
 * input ends inside a message, that last one too (its head and its body so far). A message
 * begun before an error is left out: parsers find a fault at different points (llhttp checks
 * Transfer-Encoding after the head, httpspan while reading it), and both reject the message.
 */
function comparable(result: PeerResult): PeerMessage[] {
  const done = result.messages.filter((m) => m.complete);
  const last = result.messages[result.messages.length - 1];
  if (result.status === 'partial' && last && !last.complete) done.push(last);
  return done;
}

/** Messages read to their end. */
function completeCount(result: PeerResult): number {
  return result.messages.filter((m) => m.complete).length;
}

const OWS = /^[ \t]+|[ \t]+$/g;

/** A field line as compared: the name as sent, the value without surrounding whitespace. */
function fieldKey([name, value]: [string, string]): string {
  return `${name}\u0000${value.replace(OWS, '')}`;
}

function sameFields(a: readonly [string, string][], b: readonly [string, string][]): boolean {
  return a.length === b.length && a.every((f, i) => fieldKey(f) === fieldKey(b[i]));
}

/** The start line as compared and shown: 'POST /x HTTP/1.1' or 'HTTP/1.1 200'. */
function startLine(m: PeerMessage): string {
  return m.status !== undefined ? `${m.version} ${m.status}` : `${m.method} ${m.target} ${m.version}`;
}

/** Whether two results are the same in every respect (for `sameAsStrict`). */
function identical(a: PeerResult, b: PeerResult): boolean {
  if (a.status !== b.status || a.consumed !== b.consumed || a.messages.length !== b.messages.length) return false;
  if (a.error?.code !== b.error?.code || a.error?.offset !== b.error?.offset) return false;
  return a.messages.every((m, i) => {
    const n = b.messages[i];
    return (
      startLine(m) === startLine(n) &&
      JSON.stringify(m.headers) === JSON.stringify(n.headers) &&
      JSON.stringify(m.trailers) === JSON.stringify(n.trailers) &&
      m.bodyLength === n.bodyLength &&
      m.body.every((byte, j) => byte === n.body[j]) &&
      m.keepAlive === n.keepAlive &&
      m.upgrade === n.upgrade &&
      m.offset === n.offset &&
      m.complete === n.complete
    );
  });
}

/** The disagreements and notes of `col` against `strict`. */
function diff(strict: CompareColumn, col: CompareColumn, mode: Mode, length: number): { disagreements: string[]; notes: string[] } {
  const s = strict.result;
  const r = col.result;
  const disagreements: string[] = [];
  const notes: string[] = [];
  const noun = mode === 'request' ? 'request' : 'response';

  // Acceptance and framing of the whole stream: one sentence says how each reads it.
  const sMessages = comparable(s);
  const rMessages = comparable(r);
  const stopsElsewhere = s.status !== 'error' && r.status !== 'error' && s.consumed !== r.consumed;
  if (s.status !== r.status || completeCount(s) !== completeCount(r) || sMessages.length !== rMessages.length || stopsElsewhere) {
    disagreements.push(`${col.label} ${describe(r, mode, length)} where ${strict.label} ${describe(s, mode, length)}.`);
  }

  // The messages both read: start line, fields, body length.
  const n = Math.min(sMessages.length, rMessages.length);
  for (let i = 0; i < n; i++) {
    const a = sMessages[i];
    const b = rMessages[i];
    const which = `${noun} ${i + 1}`;
    if (startLine(a) !== startLine(b)) {
      disagreements.push(`${col.label} reads ${which} as "${show(startLine(b))}" where ${strict.label} reads "${show(startLine(a))}".`);
    }
    // Go moves Host and the framing fields out of its header map and keeps no order, and
    // picohttpparser's caller skips trailers: their field lists are shown, not held against strict.
    const fieldsComparable = col.kind !== 'external';
    for (const [what, x, y] of fieldsComparable ? ([['field line', a.headers, b.headers], ['trailer field', a.trailers, b.trailers]] as const) : []) {
      const d = fieldDifference(x, y, what, which);
      if (d) disagreements.push(`${col.label} ${d.other} where ${strict.label} ${d.strict}.`);
    }
    if (a.bodyLength !== b.bodyLength) {
      const sofar = a.complete && b.complete ? '' : ' so far';
      disagreements.push(
        `${col.label} reads a body of ${bytesText(b.bodyLength)} in ${which}${sofar} where ${strict.label} reads ${bytesText(a.bodyLength)}.`,
      );
    }
  }

  // Both reject: agreement, but say so when the error is reported differently.
  if (s.error && r.error && (s.error.code !== r.error.code || s.error.offset !== r.error.offset)) {
    notes.push(
      `Both reject the input: ${col.label} at byte ${r.error.offset} (${r.error.code}), ${strict.label} at byte ${s.error.offset} (${s.error.code}).`,
    );
  }
  return { disagreements, notes };
}

/**
 * How two field lists differ, as the two halves of a sentence ('reads field line 2 of request 1
 * as "..."', 'reads "..."'), or null when they agree. `where` ('request 1') may be empty.
 */
function fieldDifference(
  strict: readonly [string, string][],
  other: readonly [string, string][],
  what: string,
  where: string,
): { strict: string; other: string } | null {
  if (sameFields(strict, other)) return null;
  const i = strict.findIndex((f, k) => k >= other.length || fieldKey(f) !== fieldKey(other[k]));
  const at = i < 0 ? strict.length : i;
  if (at >= Math.min(strict.length, other.length)) {
    // The lists agree as far as the shorter goes: one has more lines.
    return { other: `reads ${count(other.length, what)}${where ? ` in ${where}` : ''}`, strict: `reads ${strict.length}` };
  }
  return {
    other: `reads ${what} ${at + 1}${where ? ` of ${where}` : ''} as "${show(fieldText(other[at]))}"`,
    strict: `reads "${show(fieldText(strict[at]))}"`,
  };
}

function fieldText([name, value]: [string, string]): string {
  return `${name}: ${value.replace(OWS, '')}`;
}

/** What a parser made of the whole input, as the second half of a sentence. */
function describe(r: PeerResult, mode: Mode, length: number): string {
  const noun = mode === 'request' ? 'request' : 'response';
  const done = completeCount(r);
  const read = done === 0 ? '' : `reads ${count(done, noun)}, then `;
  switch (r.status) {
    case 'error':
      return `${read}rejects the input at byte ${r.error!.offset} (${r.error!.code})`;
    case 'partial':
      return `${read}waits for more bytes: the input ends inside ${noun} ${done + 1}`;
    case 'complete': {
      const all = done === 0 ? `reads no ${noun}` : `reads ${count(done, noun)}`;
      if (r.consumed >= length) return all;
      const last = r.messages[r.messages.length - 1];
      const why = last?.upgrade ? 'the connection switches protocols' : 'the connection closes';
      return `${all} and stops at byte ${r.consumed} (${why}), leaving ${bytesText(length - r.consumed)} unread`;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The table.

function buildRows(columns: CompareColumn[], mode: Mode, length: number): CompareRow[] {
  const strict = columns[0].result;
  const Noun = mode === 'request' ? 'Request' : 'Response';
  const rows: CompareRow[] = [];
  const row = (id: string, label: string, message: number | null, cell: (r: PeerResult, isStrict: boolean) => CompareCell): void => {
    rows.push({ id, label, message, cells: columns.map((c, k) => cell(c.result, k === 0)) });
  };
  const plain = (text: string, differs: boolean, isStrict: boolean, note?: string): CompareCell =>
    note === undefined ? { text, differs: differs && !isStrict } : { text, differs: differs && !isStrict, note };

  row('status', 'Outcome', null, (r, isStrict) =>
    plain(STATUS_TEXT[r.status], r.status !== strict.status, isStrict));

  row('messages', `${Noun}s read`, null, (r, isStrict) => {
    const done = completeCount(r);
    const unfinished = r.messages.length - done;
    const text = unfinished > 0 ? `${done} + ${unfinished} unfinished` : String(done);
    return plain(text, done !== completeCount(strict) || comparable(r).length !== comparable(strict).length, isStrict);
  });

  row('read', 'Bytes read', null, (r, isStrict) => {
    const text = r.consumed >= length ? `all ${length}` : `${r.consumed} of ${length}`;
    // Where an error stops reading is the error row's business.
    const differs = r.status !== 'error' && strict.status !== 'error' && r.consumed !== strict.consumed;
    return plain(text, differs, isStrict);
  });

  const most = Math.max(...columns.map((c) => c.result.messages.length));
  const strictComparable = comparable(strict);
  for (let i = 0; i < most; i++) {
    const label = `${Noun} ${i + 1}`;
    // A message is held against strict's i-th when both are comparable (see `comparable`).
    const pair = (r: PeerResult): { m: PeerMessage | undefined; held: boolean; s: PeerMessage | undefined } => {
      const m = r.messages[i];
      const mine = comparable(r);
      const held = m !== undefined && mine.includes(m);
      return { m, held, s: strictComparable[i] };
    };
    // Absent in this column but comparable in strict's, or comparable here and not in strict's, or both and different.
    const differsBy = (r: PeerResult, same: (a: PeerMessage, b: PeerMessage) => boolean): boolean => {
      const { m, held, s } = pair(r);
      if (!held) return m === undefined && s !== undefined;
      return s === undefined || !same(s, m!);
    };
    const unfinished = (m: PeerMessage): string => (m.complete ? '' : ' (unfinished)');

    row(`message-${i + 1}-start`, `${label}: ${mode === 'request' ? 'request-line' : 'status-line'}`, i + 1, (r, isStrict) => {
      const { m } = pair(r);
      return plain(m ? startLine(m) + unfinished(m) : '—', differsBy(r, (a, b) => startLine(a) === startLine(b)), isStrict);
    });
    row(`message-${i + 1}-headers`, `${label}: field lines`, i + 1, (r, isStrict) => {
      const { m, s } = pair(r);
      const differs = differsBy(r, (a, b) => sameFields(a.headers, b.headers));
      const detail = differs && m && s ? fieldDifference(s.headers, m.headers, 'field line', '') : null;
      return plain(m ? String(m.headers.length) : '—', differs, isStrict, detail ? `${detail.other} (strict ${detail.strict})` : undefined);
    });
    if (columns.some((c) => (c.result.messages[i]?.trailers.length ?? 0) > 0)) {
      row(`message-${i + 1}-trailers`, `${label}: trailer fields`, i + 1, (r, isStrict) => {
        const { m } = pair(r);
        return plain(m ? String(m.trailers.length) : '—', differsBy(r, (a, b) => sameFields(a.trailers, b.trailers)), isStrict);
      });
    }
    row(`message-${i + 1}-body`, `${label}: body`, i + 1, (r, isStrict) => {
      const { m } = pair(r);
      const text = m ? bytesText(m.bodyLength) + (m.complete ? '' : ' so far') : '—';
      return plain(text, differsBy(r, (a, b) => a.bodyLength === b.bodyLength), isStrict);
    });
    row(`message-${i + 1}-framing`, `${label}: framing`, i + 1, (r, isStrict) => {
      const { m } = pair(r);
      const text = m?.framing ? FRAMING_TEXT[m.framing] : '—';
      return plain(text, m?.framing !== undefined && differsBy(r, (a, b) => a.framing === undefined || a.framing === b.framing), isStrict);
    });
    // Where each message ended, as each parser reports it (every column does now; the lab forwards these ranges).
    if (columns.some((c) => c.result.messages[i]?.end !== undefined)) {
      row(`message-${i + 1}-end`, `${label}: ends at byte`, i + 1, (r, isStrict) => {
        const { m } = pair(r);
        return plain(m?.end !== undefined && m.complete ? String(m.end) : '—', false, isStrict);
      });
    }
  }

  row('error', 'Error', null, (r, isStrict) => {
    if (!r.error) return plain('—', strict.error !== null, isStrict);
    const text = `${r.error.code} at byte ${r.error.offset}`;
    if (!strict.error) return plain(text, true, isStrict);
    const elsewhere = r.error.offset !== strict.error.offset || r.error.code !== strict.error.code;
    const note = elsewhere && !isStrict ? `${strict.error.code} at byte ${strict.error.offset} in strict; both reject` : undefined;
    // Both reject: agreement. An httpspan column naming another error is still worth a
    // highlight (same vocabulary, so it says the flag moved the error); llhttp's names never match.
    const sameVocabulary = !r.error.code.startsWith('HPE_');
    return plain(text, sameVocabulary && elsewhere, isStrict, note);
  });
  return rows;
}

/** How each framing is named in the table and the sentences. */
export const FRAMING_TEXT: Record<NonNullable<PeerMessage['framing']>, string> = {
  'content-length': 'Content-Length',
  chunked: 'chunked',
  'until-close': 'until close',
  none: 'no body',
};

const STATUS_TEXT: Record<PeerResult['status'], string> = {
  complete: 'complete',
  partial: 'incomplete (needs more bytes)',
  error: 'rejected',
};

// ---------------------------------------------------------------------------------------------
// Text.

/** `n` and a noun that takes an s in the plural: '1 byte', '2 bytes'. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function bytesText(n: number): string {
  return count(n, 'byte');
}

/** Control characters and bytes above 0x7e escaped, so CR, LF and tabs in a value are visible. */
function show(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u00ff"\\]/g, (c) => {
    const named: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t', '"': '\\"', '\\': '\\\\' };
    return named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}


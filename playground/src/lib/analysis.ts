// How httpspan sees an input: the wasm package's stream decoder runs over the bytes, and its
// events (heads with spans, body data ranges, trailer sections, errors with offsets) are turned
// into a class and an owning part for every byte, the field rows, and each message's semantics.
//
// The decoder decides; this module only labels. A chunked body's framing comes from the
// decoder too: with `chunkLines` it reports each chunk line's parts (chunk-size, chunk-ext, line
// end) in stream offsets, the data's line end is what lies between the data and the next line,
// and the trailer section runs to the message's end offset.

import { Decoder, KNOWN_HEADERS } from '@httpspan/wasm';
import type {
  ChunkLineEvent,
  DecoderEvent,
  DecoderOptions,
  Field,
  Framing,
  RequestHead,
  ResponseHead,
  Span,
} from '@httpspan/wasm';
import { errorInfo } from './explain.ts';
import type { ByteClass, ErrorInfo, LeniencyFlag, Mode, ParseOptions } from './types.ts';
import { concatBytes, latin1Text } from './bytes.ts';

/** Every class, in the legend's order, with its label. */
export const BYTE_CLASSES: readonly { cls: ByteClass; label: string }[] = [
  { cls: 'method', label: 'method' },
  { cls: 'target', label: 'request-target' },
  { cls: 'version', label: 'HTTP-version' },
  { cls: 'status', label: 'status-code' },
  { cls: 'reason', label: 'reason-phrase' },
  { cls: 'name', label: 'field name' },
  { cls: 'value', label: 'field value' },
  { cls: 'ws', label: 'whitespace' },
  { cls: 'colon', label: 'colon' },
  { cls: 'eol', label: 'line end' },
  { cls: 'body', label: 'body' },
  { cls: 'chunk-size', label: 'chunk size' },
  { cls: 'chunk-ext', label: 'chunk extension' },
  { cls: 'trailer', label: 'trailer field' },
  { cls: 'accepted', label: 'accepted line, head not complete' },
  { cls: 'pending', label: 'not yet parsed' },
  { cls: 'unread', label: 'not read' },
];

/** A named piece of the input that bytes belong to: what hovering a byte names. */
export interface Part {
  id: number;
  kind:
    | 'start-line'
    | 'method'
    | 'target'
    | 'version'
    | 'status'
    | 'reason'
    | 'field'
    | 'empty-line'
    | 'body'
    | 'chunk'
    | 'trailer'
    | 'pending'
    | 'unread';
  /** What a reader sees, e.g. "field line 2: Content-Length". */
  label: string;
  /** The grammar rule, e.g. "RFC 9112 5". */
  rfc: string;
  /** The message (0-based) it belongs to, or -1. */
  message: number;
  /** The row in `Analysis.fields` for field and trailer parts, else -1. */
  field: number;
  /** First byte and one past the last byte. */
  start: number;
  end: number;
}

/** One row of the fields table. Spans are stream offsets (into the whole input). */
export interface FieldRow {
  /** Row index in `Analysis.fields`. */
  row: number;
  message: number;
  section: 'head' | 'trailers';
  /** Index of the field line within its section. */
  index: number;
  name: string;
  value: string;
  nameSpan: Span;
  valueSpan: Span;
  /** The known header's lowercase name, or null. */
  known: string | null;
  /** Its slot (bit) in the known-header bitmap, or null. */
  slot: number | null;
  /** Whether this line is the one the known-header index points at (the first of its name). */
  indexed: boolean;
  part: number;
}

/** One message of the stream, as the decoder framed it. */
export interface MessageInfo {
  index: number;
  /** Stream offset of its first byte. */
  start: number;
  /** One past its last byte, when the message is complete; else null. */
  end: number | null;
  /** Length of the head (with any empty lines before a request-line). */
  headLen: number;
  kind: Mode;
  head: RequestHead | ResponseHead;
  framing: Framing;
  /** The body after chunked decoding. */
  body: Uint8Array;
  /** Whether the decoder saw the message end. */
  complete: boolean;
  trailerCount: number;
}

/** The decoder's events, with the stream position at which each was reported. */
export interface StreamEvent {
  type: DecoderEvent<RequestHead>['type'];
  /** Stream offset the event is about (a head's first byte, body data, ...), or null. */
  offset: number | null;
  /** Body events: bytes of data (consecutive data events are merged into one). */
  length?: number;
  /** Bytes fed when the event was emitted (the last of them, for merged body events). */
  at: number;
  /** One line for the event log. */
  text: string;
}

/** The stream's state after the bytes (and, unless stepping, the end of the stream). */
export type StreamStatus = 'complete' | 'partial' | 'error';

export interface Analysis {
  bytes: Uint8Array;
  options: ParseOptions;
  /** How many bytes were fed (all of them, unless stepping). */
  fed: number;
  /** Whether the end of the stream was signalled after the bytes. */
  finished: boolean;
  status: StreamStatus;
  messages: MessageInfo[];
  fields: FieldRow[];
  parts: Part[];
  /** For each byte: its class, and the part it belongs to (-1 for none). */
  classes: ByteClass[];
  owners: Int32Array;
  error: ErrorInfo | null;
  events: StreamEvent[];
  /** Bytes the decoder consumed, and where a resumed parse starts (its first unaccepted line). */
  position: number;
  resumeOffset: number;
}

/** Feeding: the pieces the bytes arrive in, and whether the stream then ends. */
export interface Feed {
  /** Bytes fed, from the start; default all. */
  fed?: number;
  /** Bytes per push; default all in one push. */
  piece?: number;
  /** Signal the end of the stream after the bytes (default true when all bytes are fed). */
  finish?: boolean;
}

/** The `lenient` option of the wasm package for a list of flags. */
export function leniencyOf(flags: readonly LeniencyFlag[]): Record<LeniencyFlag, boolean> {
  const out = {} as Record<LeniencyFlag, boolean>;
  for (const flag of flags) out[flag] = true;
  return out;
}

/**
 * The wasm `Decoder`'s options for `options` over an input of `inputLength` bytes: the leniency
 * flags and, for responses, the method every response answers. The Decoder pairs each final
 * response with the next queued method (GET once none is left), so one is queued for each
 * response the input could hold (a status-line and the empty line after it take more than 8
 * bytes).
 */
export function decoderOptions(options: ParseOptions, inputLength: number): DecoderOptions {
  const out: DecoderOptions = { lenient: leniencyOf(options.lenient) };
  if (options.mode === 'response') {
    out.requestMethods = new Array<string>(Math.floor(inputLength / 8) + 1).fill(options.requestMethod);
  }
  return out;
}

/** The decoder `analyze` labels from: it also reports where each chunk line's parts are. */
function labellingDecoder(options: ParseOptions, inputLength: number): Decoder {
  return new Decoder(options.mode, { ...decoderOptions(options, inputLength), chunkLines: true });
}

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HTAB = 0x09;


type AnyEvent = DecoderEvent<RequestHead | ResponseHead>;

/** The decoder of step mode, kept while the input, options and piece size stay the same. */
interface StepSession {
  bytes: Uint8Array;
  key: string;
  piece: number;
  decoder: Decoder;
  /** Bytes pushed so far. */
  fed: number;
  /** Every event so far with the byte count it came at; body data arriving as it is fed is one entry. */
  log: { event: AnyEvent; at: number }[];
  /** An error or a close ended the stream: nothing more is pushed. */
  stopped: boolean;
}

let session: StepSession | null = null;

/**
 * The step session fed to `fed` bytes: the current one pushed further when it matches and is
 * not ahead, else a new one (a backward step starts again from byte 0).
 */
function stepSession(bytes: Uint8Array, options: ParseOptions, piece: number, fed: number): StepSession {
  const key = JSON.stringify(options);
  // A session that stopped inside a piece (the slider between piece boundaries) cannot go on:
  // from scratch that piece would be pushed whole, and events would come at its end.
  const resumable = session !== null && session.fed % piece === 0;
  if (!session || !resumable || session.bytes !== bytes || session.key !== key || session.piece !== piece || session.fed > fed) {
    session?.decoder.free();
    // Methods queued for as many responses as the whole input can hold, so pushing more later needs none.
    session = { bytes, key, piece, decoder: labellingDecoder(options, bytes.length), fed: 0, log: [], stopped: false };
  }
  const s = session;
  for (let start = s.fed; start < fed && !s.stopped; ) {
    // Pieces of `piece` bytes counted from byte 0, as when the prefix is fed from scratch.
    const end = Math.min((Math.floor(start / piece) + 1) * piece, fed);
    for (const event of s.decoder.push(bytes.subarray(start, end))) {
      if (event.type === 'error' || event.type === 'closed') s.stopped = true;
      const last = s.log.at(-1);
      const inPlace = (e: AnyEvent): boolean =>
        e.type === 'body' && e.data.buffer === bytes.buffer && e.data.byteOffset === bytes.byteOffset + e.offset;
      if (event.type === 'body' && inPlace(event) && event.offset + event.data.length === end &&
          last?.event.type === 'body' && inPlace(last.event) && last.event.offset + last.event.data.length === event.offset && last.at === event.offset) {
        const from = last.event.offset;
        last.event = { ...event, offset: from, start: 0, end: end - from, data: bytes.subarray(from, end) };
        last.at = end;
      } else {
        s.log.push({ event, at: end });
      }
    }
    start = end;
  }
  s.fed = Math.max(s.fed, fed);
  return s;
}

/** Runs the decoder over `bytes` and labels every byte. */
export function analyze(bytes: Uint8Array, options: ParseOptions, feed: Feed = {}): Analysis {
  const fed = Math.max(0, Math.min(feed.fed ?? bytes.length, bytes.length));
  const finished = feed.finish ?? fed === bytes.length;
  const piece = Math.max(1, feed.piece ?? Math.max(fed, 1));
  const labels = new Labeller(bytes, fed);
  const events: StreamEvent[] = [];
  const messages: MessageInfo[] = [];
  let error: ErrorInfo | null = null;
  let closedAt: number | null = null;
  let position = 0;
  let resumeOffset = 0;

  // Step mode (an open stream fed in pieces) keeps its decoder between forward steps: only the
  // new pieces are pushed, and the events so far are replayed into the labels.
  const session = finished ? null : stepSession(bytes, options, piece, fed);
  const decoder = session?.decoder ?? labellingDecoder(options, fed);
  try {
    let current: MessageInfo | null = null;
    let bodyParts: Uint8Array[] = [];
    const onEvent = (event: DecoderEvent<RequestHead | ResponseHead>, at: number) => {
      switch (event.type) {
        case 'head': {
          const head = event.head as RequestHead | ResponseHead;
          current = {
            index: messages.length,
            start: event.offset,
            end: null,
            headLen: head.headLen,
            kind: options.mode,
            head,
            framing: head.framing,
            body: new Uint8Array(0),
            complete: false,
            trailerCount: 0,
          };
          bodyParts = [];
          messages.push(current);
          labels.head(current, event.bytes);
          events.push({ type: 'head', offset: event.offset, at, text: headSummary(head) });
          break;
        }
        case 'body': {
          bodyParts.push(event.data.slice());
          labels.body(current!, event.offset, event.data.length);
          // Data that continues the previous event's (a body fed byte by byte) is one entry of
          // the log, not thousands.
          const last = events.at(-1);
          const end = event.offset + event.data.length;
          if (last?.type === 'body' && last.offset! + last.length! === event.offset) {
            last.length = end - last.offset!;
            last.at = at;
            last.text = bodyText(last.offset!, last.length);
          } else {
            events.push({ type: 'body', offset: event.offset, length: event.data.length, at, text: bodyText(event.offset, event.data.length) });
          }
          break;
        }
        case 'chunk-line':
          labels.chunkLine(current!, event);
          break;
        case 'trailers':
          current!.trailerCount = event.fields.length;
          labels.trailers(event.offset, event.fields);
          events.push({
            type: 'trailers',
            offset: event.offset,
            at,
            text: `trailer section: ${event.fields.map((f) => f.name).join(', ')}`,
          });
          break;
        case 'end':
          current!.complete = true;
          current!.end = event.offset;
          labels.end(current!, event.offset);
          current!.body = concatBytes(bodyParts);
          events.push({ type: 'end', offset: null, at, text: `message ${current!.index + 1} complete` });
          break;
        case 'closed':
          closedAt = event.offset;
          events.push({
            type: 'closed',
            offset: event.offset,
            at,
            text: `no more HTTP/1.1 from byte ${event.offset}: ${closeReason(messages.at(-1))}`,
          });
          break;
        case 'incomplete':
          events.push({ type: 'incomplete', offset: null, at, text: 'the stream ended inside a message' });
          break;
        case 'error':
          error = errorInfo(bytes, event.error);
          events.push({
            type: 'error',
            offset: event.error.offset,
            at,
            text: `error ${event.error.code} at byte ${event.error.offset}`,
          });
          break;
      }
    };
    if (session) {
      for (const { event, at } of session.log) onEvent(event, at);
    } else {
      for (let start = 0; start < fed && error === null && closedAt === null; start += piece) {
        const end = Math.min(start + piece, fed);
        for (const event of decoder.push(bytes.subarray(start, end))) onEvent(event, end);
      }
    }
    // Where the bytes left the decoder, before the end of the stream is signalled (after it,
    // nothing resumes).
    position = decoder.position;
    resumeOffset = decoder.resumeOffset;
    if (finished && error === null && closedAt === null) {
      for (const event of decoder.finish()) onEvent(event, fed);
    }
    // A body that is still arriving (or that runs until the connection closes) shows what
    // came so far.
    const last = messages.at(-1) as MessageInfo | undefined;
    if (last !== undefined && !last.complete) last.body = concatBytes(bodyParts);
  } finally {
    if (!session) decoder.free();
  }

  labels.finish(messages, error, closedAt, position, resumeOffset);
  let status: StreamStatus;
  if (error !== null) status = 'error';
  else if (closedAt !== null || (messages.length > 0 && messages.every((m) => m.complete) && position === fed))
    status = 'complete';
  else status = 'partial';
  // An empty input, ended, is a clean end of stream: complete with no message.
  if (fed === 0 && finished) status = 'complete';

  return {
    bytes,
    options,
    fed,
    finished,
    status,
    messages,
    fields: labels.fields,
    parts: labels.parts,
    classes: labels.classes,
    owners: labels.owners,
    error,
    events,
    position,
    resumeOffset,
  };
}


function bodyText(offset: number, length: number): string {
  return length === 1 ? `1 body byte at ${offset}` : `${length} body bytes at ${offset}–${offset + length - 1}`;
}

function headSummary(head: RequestHead | ResponseHead): string {
  const line = 'method' in head ? `${head.method} ${head.target}` : `${head.status} ${head.reason}`;
  const n = head.fields.length;
  return `head: ${line}, ${n} field${n === 1 ? '' : 's'}, ${framingText(head.framing, head.contentLength)}`;
}

/** Body framing in words. */
export function framingText(framing: Framing, contentLength: bigint | null): string {
  switch (framing) {
    case 'none':
      return 'no body';
    case 'length':
      return `body of ${contentLength} byte${contentLength === 1n ? '' : 's'} (Content-Length)`;
    case 'chunked':
      return 'chunked body';
    case 'until-close':
      return 'body until the connection closes';
  }
}

function closeReason(message: MessageInfo | undefined): string {
  if (message === undefined) return 'the stream ended';
  const head = message.head;
  if ('switchesProtocols' in head && head.switchesProtocols) return 'the connection switched protocols';
  if (!head.keepAlive) return 'the connection closes after this message';
  return 'the stream ended';
}

/** Where a chunked body's labelling stands: its current chunk's part, from the chunk line on. */
interface ChunkState {
  message: number;
  id: number;
  /** 1-based number of the chunk. */
  n: number;
  /** Whether it is the last chunk (size 0). */
  last: boolean;
  /** One past the last byte labelled: the line, then the data, then the data's line end. */
  dataEnd: number;
  /** Where the chunk's data ends (its line's end for the last chunk). */
  dataStop: number;
}

/** Builds the per-byte classes and owners, the parts and the field rows. */
class Labeller {
  readonly classes: ByteClass[];
  readonly owners: Int32Array;
  readonly parts: Part[] = [];
  readonly fields: FieldRow[] = [];
  /** For each message with a (non-chunked) body, its body part. */
  private readonly bodyParts = new Map<number, number>();
  /** The chunked body's current chunk, from its line on. */
  private chunk: ChunkState | null = null;
  /** A trailer section whose end comes with the message's end. */
  private trailerSection: { offset: number; fields: Field[] } | null = null;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly fed: number,
  ) {
    this.classes = new Array<ByteClass>(bytes.length).fill('pending');
    this.owners = new Int32Array(bytes.length).fill(-1);
  }

  private part(p: Omit<Part, 'id'>): number {
    const id = this.parts.length;
    this.parts.push({ id, ...p });
    return id;
  }

  private set(start: number, end: number, cls: ByteClass, owner: number) {
    for (let i = start; i < end; i++) {
      this.classes[i] = cls;
      this.owners[i] = owner;
    }
  }

  /** Whitespace, colons and line ends between the spans of a line. */
  private fill(start: number, end: number, owner: number, colon: boolean) {
    for (let i = start; i < end; i++) {
      const b = this.bytes[i];
      this.owners[i] = owner;
      if (b === CR || b === LF) this.classes[i] = 'eol';
      else if (b === SP || b === HTAB) this.classes[i] = 'ws';
      else if (colon && b === 0x3a) this.classes[i] = 'colon';
    }
  }

  /** End of the line containing `at` (one past its LF, or `limit`). */
  private lineEnd(at: number, limit: number): number {
    for (let i = at; i < limit; i++) if (this.bytes[i] === LF) return i + 1;
    return limit;
  }

  head(message: MessageInfo, headBytes: Uint8Array) {
    const base = message.start;
    const end = base + headBytes.length;
    const head = message.head;
    const m = message.index;
    const firstField = head.fields.length > 0 ? base + head.fields[0].nameSpan.offset : end;

    // Empty lines a server skips before a request-line.
    const lineStart = 'method' in head ? base + head.methodSpan.offset : base;
    if (lineStart > base) {
      const skipped = this.part({
        kind: 'empty-line',
        label: 'empty line before the request-line (skipped)',
        rfc: 'RFC 9112 2.2',
        message: m,
        field: -1,
        start: base,
        end: lineStart,
      });
      this.fill(base, lineStart, skipped, false);
    }

    // The start line: the spans the parser gives, the version found between them.
    const lineEnd = this.lineEnd(lineStart, end);
    const startLine = this.part({
      kind: 'start-line',
      label: 'method' in head ? 'request-line' : 'status-line',
      rfc: 'method' in head ? 'RFC 9112 3' : 'RFC 9112 4',
      message: m,
      field: -1,
      start: lineStart,
      end: lineEnd,
    });
    this.fill(lineStart, lineEnd, startLine, false);
    const contentEnd = trimLineEnd(this.bytes, lineStart, lineEnd);
    if ('method' in head) {
      const method = abs(base, head.methodSpan);
      const target = abs(base, head.targetSpan);
      this.spanPart(method, 'method', 'method', `method ${head.method}`, 'RFC 9112 3.1', m);
      this.spanPart(target, 'target', 'target', 'request-target', 'RFC 9112 3.2', m);
      let v = target.offset + target.length;
      while (v < contentEnd && (this.bytes[v] === SP || this.bytes[v] === HTAB)) v++;
      this.spanPart({ offset: v, length: contentEnd - v }, 'version', 'version', head.version, 'RFC 9112 2.3', m);
    } else {
      const reason = abs(base, head.reasonSpan);
      let v = lineStart;
      while (v < contentEnd && this.bytes[v] !== SP) v++;
      this.spanPart({ offset: lineStart, length: v - lineStart }, 'version', 'version', head.version, 'RFC 9112 2.3', m);
      let s = v;
      while (s < contentEnd && this.bytes[s] === SP) s++;
      this.spanPart({ offset: s, length: 3 }, 'status', 'status', `status-code ${head.status}`, 'RFC 9112 4', m);
      if (reason.length > 0) this.spanPart(reason, 'reason', 'reason', 'reason-phrase', 'RFC 9112 4', m);
    }

    // Field lines: each owns its bytes up to the next field's name (an obs-fold continues it).
    this.fieldLines(head.fields, head.knownIndex, base, firstField, end, m, 'head');
  }

  private spanPart(span: Span, cls: ByteClass, kind: Part['kind'], label: string, rfc: string, m: number) {
    if (span.length <= 0) return;
    const id = this.part({
      kind,
      label,
      rfc,
      message: m,
      field: -1,
      start: span.offset,
      end: span.offset + span.length,
    });
    this.set(span.offset, span.offset + span.length, cls, id);
  }

  private fieldLines(
    fields: Field[],
    knownIndex: Partial<Record<string, number>>,
    base: number,
    firstField: number,
    end: number,
    m: number,
    section: 'head' | 'trailers',
  ) {
    fields.forEach((field, i) => {
      const start = base + field.nameSpan.offset;
      const next = i + 1 < fields.length ? base + fields[i + 1].nameSpan.offset : null;
      const valueEnd = base + field.valueSpan.offset + field.valueSpan.length;
      const stop = next ?? this.lineEnd(Math.max(valueEnd, start), end);
      const row = this.fields.length;
      const slot = field.known === null ? null : KNOWN_HEADERS.indexOf(field.known);
      const label = section === 'head' ? `field line ${i + 1}: ${field.name}` : `trailer field ${i + 1}: ${field.name}`;
      const id = this.part({
        kind: section === 'head' ? 'field' : 'trailer',
        label,
        rfc: section === 'head' ? 'RFC 9112 5' : 'RFC 9112 7.1.2',
        message: m,
        field: row,
        start,
        end: stop,
      });
      this.fields.push({
        row,
        message: m,
        section,
        index: i,
        name: field.name,
        value: field.value,
        nameSpan: abs(base, field.nameSpan),
        valueSpan: abs(base, field.valueSpan),
        known: field.known,
        slot: slot === null || slot < 0 ? null : slot,
        indexed: field.known !== null && knownIndex[field.known] === i,
        part: id,
      });
      this.fill(start, stop, id, true);
      const nameEnd = start + field.nameSpan.length;
      this.set(start, nameEnd, section === 'head' ? 'name' : 'trailer', id);
      const valueStart = base + field.valueSpan.offset;
      this.set(valueStart, valueEnd, section === 'head' ? 'value' : 'trailer', id);
      // An obs-fold (lenient) keeps its CRLF and indentation inside the value.
      this.fill(valueStart, valueEnd, id, false);
      for (let k = valueStart; k < valueEnd; k++) {
        if (this.classes[k] === 'ws' && !isFoldWs(this.bytes, valueStart, k)) {
          this.classes[k] = section === 'head' ? 'value' : 'trailer';
        }
      }
    });
    // The empty line that ends the section.
    const last = fields.length > 0 ? this.parts[this.fields.at(-1)!.part].end : firstField;
    if (last < end) {
      const id = this.part({
        kind: 'empty-line',
        label: section === 'head' ? 'empty line: end of the head' : 'empty line: end of the trailer section',
        rfc: 'RFC 9112 2.1',
        message: m,
        field: -1,
        start: last,
        end,
      });
      this.fill(last, end, id, false);
    }
  }

  body(message: MessageInfo, offset: number, length: number) {
    if (message.framing === 'chunked') {
      const chunk = this.chunk!;
      chunk.dataEnd = offset + length;
      this.parts[chunk.id].end = chunk.dataEnd;
      this.set(offset, chunk.dataEnd, 'body', chunk.id);
    } else {
      let id = this.bodyParts.get(message.index) ?? -1;
      if (id < 0) {
        id = this.part({
          kind: 'body',
          label: `body of message ${message.index + 1}`,
          rfc: 'RFC 9112 6',
          message: message.index,
          field: -1,
          start: offset,
          end: offset + length,
        });
        this.bodyParts.set(message.index, id);
      }
      this.parts[id].end = offset + length;
      this.set(offset, offset + length, 'body', id);
    }
  }

  /** A chunk line as the decoder reported it; the line end after the previous chunk's data is what lies before it. */
  chunkLine(message: MessageInfo, line: ChunkLineEvent) {
    const previous = this.chunk;
    if (previous !== null && previous.message === message.index) this.dataLineEnd(previous, line.offset);
    const n = previous !== null && previous.message === message.index ? previous.n + 1 : 1;
    const last = line.size === 0n;
    const id = this.part({
      kind: 'chunk',
      label: last
        ? 'last chunk (size 0)'
        : `chunk ${n}: size 0x${latin1Text(this.bytes.subarray(line.offset, line.sizeEnd))} = ${line.size} bytes`,
      rfc: 'RFC 9112 7.1',
      message: message.index,
      field: -1,
      start: line.offset,
      end: line.end,
    });
    this.set(line.offset, line.sizeEnd, 'chunk-size', id);
    this.set(line.sizeEnd, line.extEnd, 'chunk-ext', id);
    this.set(line.extEnd, line.end, 'eol', id);
    this.chunk = { message: message.index, id, n, last, dataEnd: line.end, dataStop: line.end + Number(line.size) };
  }

  /** The line end after a chunk's data, up to `next`, where the next chunk line starts. */
  private dataLineEnd(chunk: ChunkState, next: number) {
    this.set(chunk.dataEnd, next, 'eol', chunk.id);
    this.parts[chunk.id].end = next;
    chunk.dataEnd = next;
  }

  trailers(offset: number, fields: Field[]) {
    this.trailerSection = { offset, fields };
  }

  /** The message ends at `end`: a trailer section, or the last chunk's empty one, runs up to it. */
  end(message: MessageInfo, end: number) {
    const section = this.trailerSection;
    this.trailerSection = null;
    if (section !== null) {
      this.fieldLines(section.fields, {}, section.offset, section.offset, end, message.index, 'trailers');
    } else if (this.chunk?.message === message.index && this.chunk.last) {
      this.dataLineEnd(this.chunk, end);
    }
  }

  finish(
    messages: MessageInfo[],
    error: ErrorInfo | null,
    closedAt: number | null,
    position: number,
    resumeOffset: number,
  ) {
    // A chunked body cut short: the framing after the last line or data the decoder reported
    // (the data's line end, a chunk line or a trailer section) is being read.
    const open = messages.at(-1);
    if (open !== undefined && !open.complete && open.framing === 'chunked') {
      const chunk = this.chunk?.message === open.index ? this.chunk : null;
      const from = chunk?.dataEnd ?? open.start + open.headLen;
      const to = Math.min(error !== null ? error.offset + 1 : position, this.fed);
      // Inside a chunk's data there is no framing to read (an error there is the body limit's).
      const inData = chunk !== null && chunk.dataEnd < chunk.dataStop;
      if (from < to && !inData) {
        const trailers = chunk?.last ?? false;
        const what = trailers ? 'trailer section' : 'chunk framing';
        const id = this.part({
          kind: 'pending',
          label: error !== null ? `the ${what} the error is in` : `${what} being read: parsed when its line end arrives`,
          rfc: trailers ? 'RFC 9112 7.1.2' : 'RFC 9112 7.1',
          message: open.index,
          field: -1,
          start: from,
          end: to,
        });
        this.set(from, to, 'pending', id);
      }
    }
    // Bytes of a message whose head did not complete: accepted lines, then the pending line.
    const lastEnd = messages.length === 0 ? 0 : (messages.at(-1)!.end ?? null);
    if (lastEnd !== null && lastEnd < this.fed && closedAt === null) {
      const headEnd = Math.min(error !== null ? error.offset + 1 : this.fed, this.fed);
      // After an error the decoder resumes nowhere; the lines before the error's were accepted.
      if (error !== null) {
        let start = Math.min(error.offset, this.fed);
        while (start > lastEnd && this.bytes[start - 1] !== LF) start--;
        resumeOffset = start;
      }
      if (resumeOffset > lastEnd && resumeOffset <= headEnd) {
        const id = this.part({
          kind: 'pending',
          label: 'lines accepted, head not complete',
          rfc: 'RFC 9112 2.1',
          message: messages.length,
          field: -1,
          start: lastEnd,
          end: resumeOffset,
        });
        this.set(lastEnd, resumeOffset, 'accepted', id);
      }
      const from = Math.max(lastEnd, Math.min(resumeOffset, headEnd));
      if (from < headEnd) {
        const id = this.part({
          kind: 'pending',
          label: error !== null ? 'the line the error is in' : 'the line being read: parsed when its line end arrives',
          rfc: 'RFC 9112 2.1',
          message: messages.length,
          field: -1,
          start: from,
          end: headEnd,
        });
        this.set(from, headEnd, 'pending', id);
      }
    }
    // What the parser never read.
    const unreadFrom = closedAt ?? (error !== null ? error.offset + 1 : null);
    if (error !== null && error.offset < this.fed) {
      // The offending byte belongs to the part it is in; if none, to the pending line.
      if (this.owners[error.offset] < 0) this.classes[error.offset] = 'pending';
    }
    if (unreadFrom !== null && unreadFrom < this.bytes.length) {
      const id = this.part({
        kind: 'unread',
        label:
          closedAt !== null
            ? `not HTTP/1.1: ${closeReason(messages.at(-1))}; the bytes from here are not parsed`
            : 'after the error: not read',
        rfc: closedAt !== null ? 'RFC 9112 9.6' : 'RFC 9112 2.2',
        message: -1,
        field: -1,
        start: unreadFrom,
        end: this.bytes.length,
      });
      this.set(unreadFrom, this.bytes.length, 'unread', id);
    }
    // Bytes not yet fed (step mode) keep class 'pending' and no owner.
    for (let i = this.fed; i < this.bytes.length; i++) {
      if (this.classes[i] !== 'unread') {
        this.classes[i] = 'pending';
        this.owners[i] = -1;
      }
    }
  }
}

function abs(base: number, span: Span): Span {
  return { offset: base + span.offset, length: span.length };
}

/** One past the last byte of a line before its CRLF or LF. */
function trimLineEnd(bytes: Uint8Array, start: number, end: number): number {
  let e = end;
  if (e > start && bytes[e - 1] === LF) e--;
  if (e > start && bytes[e - 1] === CR) e--;
  return e;
}

/** Whether whitespace at `k` in a value is the indentation of an obs-fold (after a line end). */
function isFoldWs(bytes: Uint8Array, start: number, k: number): boolean {
  let i = k;
  while (i > start && (bytes[i - 1] === SP || bytes[i - 1] === HTAB)) i--;
  return i > start && bytes[i - 1] === LF;
}

// The public API of @httpspan/wasm, over the wasm-bindgen exports of crate httpspan-wasm.
// Every byte is parsed in the module; this file moves bytes in, reads the span words out
// (see wasm/src/layout.rs) and turns them into strings only when asked.

import { HeadParser, StreamDecoder, backend, backendLen, simd128, tables, tablesLen } from './httpspan_wasm.js';

// Word positions and values of the span layout. `attach` checks them against the module's own.
const STATE = 0;
const HEAD_LEN = 1;
const INFO = 2;
const FLAGS = 3;
const CONTENT_LENGTH = 4;
const KNOWN_BITMAP = 6;
const START_A = 8;
const START_B = 9;
const FIELD_COUNT = 10;
const KNOWN_INDEX = 11;
const FIELDS = 27;
const MAX_FIELDS = 255;
const SPANS_LEN = 601;
const PARTIAL = 0;
const COMPLETE = 1;
const FAILED = 2;
const FLAG_CHUNKED = 1;
const FLAG_KEEP_ALIVE = 2;
const FLAG_CONTENT_LENGTH = 4;
const FLAG_INTERIM = 8;
const FLAG_SWITCHES_PROTOCOLS = 16;
const FLAG_NON_ASCII = 32;
const FRAMING_SHIFT = 8;
const LAYOUT = {
  STATE, HEAD_LEN, INFO, FLAGS, CONTENT_LENGTH, KNOWN_BITMAP, START_A, START_B, FIELD_COUNT,
  KNOWN_INDEX, FIELDS, MAX_FIELDS, SPANS_LEN, PARTIAL, COMPLETE, FAILED, FLAG_CHUNKED,
  FLAG_KEEP_ALIVE, FLAG_CONTENT_LENGTH, FLAG_INTERIM, FLAG_SWITCHES_PROTOCOLS, FLAG_NON_ASCII, FRAMING_SHIFT,
  FRAMING_NO_BODY: 0, FRAMING_LENGTH: 1, FRAMING_CHUNKED: 2, FRAMING_UNTIL_CLOSE: 3,
};
const FRAMINGS = ['none', 'length', 'chunked', 'until-close'];
const STATES = ['partial', 'complete', 'error'];

// Stream decoder events (EVENT_* in wasm/src/lib.rs).
const EVENT_NEED_MORE = 0;
const EVENT_HEAD = 1;
const EVENT_BODY = 2;
const EVENT_TRAILERS = 3;
const EVENT_MESSAGE_END = 4;
const EVENT_CLOSED = 5;
const EVENT_INCOMPLETE = 6;
const EVENT_ERROR = 7;
const EVENT_CHUNK_LINE = 8;

/** The number of words a span array needs: pass a `Uint32Array` of this length as `out`. */
export const SPANS_LENGTH = SPANS_LEN;

let memory = null;
let memoryU8 = null;
let memoryU32 = null;
let loaded = null;
/** The known header names (lowercase), in slot order: bit `k` of `knownBitmap` is `KNOWN_HEADERS[k]`. */
export const KNOWN_HEADERS = [];
const KNOWN_SLOTS = new Map();
const ERROR_KINDS = [];

/**
 * Connects this module to an instantiated wasm module: `exports` is what wasm-bindgen's init
 * returned, `build` the build chosen ('simd128', 'baseline' or 'given'), `file` the name of the
 * module file it came from, or null. Called by the entry points.
 */
export function attach(exports, build, file) {
  // The module's tables and names are ASCII text in its memory.
  const text = (at, len) => asciiDecoder.decode(new Uint8Array(exports.memory.buffer, at, len));
  const [layout, known, kinds] = text(tables(), tablesLen()).split('\n\n');
  const theirs = new Map(layout.split(' ').map((pair) => pair.split('=')));
  const ours = Object.entries(LAYOUT);
  if (theirs.size !== ours.length || ours.some(([k, v]) => theirs.get(k) !== String(v))) {
    throw new Error('@httpspan/wasm: the JavaScript and the wasm module disagree on the span layout; rebuild the package');
  }
  KNOWN_HEADERS.length = 0;
  for (const name of known.split('\n')) {
    KNOWN_SLOTS.set(name, KNOWN_HEADERS.length);
    KNOWN_HEADERS.push(name);
  }
  ERROR_KINDS.length = 0;
  for (const line of kinds.split('\n')) {
    const [code, status, rfc, message] = line.split('\t');
    ERROR_KINDS.push(Object.freeze({ code, status: Number(status), rfc, message }));
  }
  memory = exports.memory;
  refreshViews();
  loaded = Object.freeze({ build, file, simd128: simd128(), backend: text(backend(), backendLen()) });
}

/**
 * Which module is loaded: `build` is the build chosen ('simd128'; 'baseline' on an engine
 * without SIMD128; 'given' when init() was given the module), `file` the name of the module file
 * loaded (after a bundler, its name there) or null, `simd128` whether the module was compiled
 * with SIMD128 (asked from the module itself), `backend` the scanning backend the parser runs
 * on in it (`simd128`, or `swar` in the baseline module).
 */
export function buildInfo() {
  if (loaded === null) notLoaded();
  return loaded;
}

function notLoaded() {
  throw new Error('@httpspan/wasm is not loaded yet: await init() first');
}

function refreshViews() {
  memoryU8 = new Uint8Array(memory.buffer);
  memoryU32 = new Uint32Array(memory.buffer);
}

// Views of the module's memory go stale when it grows: its old buffer is detached, so the views
// become empty. Checking that is much cheaper than reading `memory.buffer` on every call.
function u8() {
  if (memoryU8.length === 0) refreshViews();
  return memoryU8;
}

function u32() {
  if (memoryU32.length === 0) refreshViews();
  return memoryU32;
}

/**
 * An error with the byte where the input became invalid. `response`: whether the input was a
 * response, which a proxy answers with 502 whatever the error.
 */
export class ParseError extends Error {
  constructor(kindIndex, offset, response = false) {
    const kind = ERROR_KINDS[kindIndex];
    super(kind ? kind.message : 'unknown error');
    this.name = 'ParseError';
    /** Stable snake_case code, such as 'bare_lf'. */
    this.code = kind ? kind.code : 'unknown';
    /** Byte offset: into the input given to parse, or from the start of a Decoder's stream. */
    this.offset = offset;
    /** The RFC section whose rule the input broke. */
    this.rfc = kind ? kind.rfc : '';
    /**
     * The status to answer: for a request, what a server answers (400, 413, 414, 431 or 505);
     * for a response, 502 (Bad Gateway), what a proxy answers for an invalid upstream response.
     */
    this.status = response ? 502 : kind ? kind.status : 400;
  }

  toJSON() {
    return { code: this.code, message: this.message, offset: this.offset, rfc: this.rfc, status: this.status };
  }
}

const STALE_REASONS = {
  'memory-grew': "the module's memory grew since it was made (a parser or decoder was created or needed a larger buffer), which detached it; parse again",
  'input-moved': 'a larger parse(bytes) or push(chunk) moved the input region since; call input() again and write the bytes there',
  reparsed: 'its parser has parsed again since, over the words and bytes this view reads; a view is valid until the next parse on its parser: call toResult() to keep a head, or use one parser per request when handlers await',
};

/**
 * Thrown instead of a stale answer, when a fast-path view or an input view is used after what it
 * reads changed under it. `reason` says what happened: 'reparsed' (the view's parser has parsed
 * again), 'memory-grew' (the module's memory grew and detached the view) or 'input-moved' (a
 * larger copying parse moved the input region).
 */
export class StaleViewError extends Error {
  constructor(what, reason) {
    super(`@httpspan/wasm: ${what} is stale: ${STALE_REASONS[reason]}`);
    this.name = 'StaleViewError';
    /** 'reparsed', 'memory-grew' or 'input-moved'. */
    this.reason = reason;
  }
}

function stale(what = 'this view of the span words', reason = 'memory-grew') {
  throw new StaleViewError(what, reason);
}

// A head becomes one string, one character per byte (Latin-1), so that every span's text is a
// slice of it with the same offsets. One decoder call per head is much cheaper than building
// strings per field. ASCII heads (the module says which are not) decode as UTF-8; others are
// widened to UTF-16 code units first, since the WHATWG 'latin1' decoder is really windows-1252.
// In Node, Buffer's latin1Slice does exactly this, in a third less time than TextDecoder.
const asciiDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const wideDecoder = new TextDecoder('utf-16le', { ignoreBOM: true });
const latin1Slice = globalThis.process?.versions?.node ? globalThis.Buffer?.prototype?.latin1Slice : undefined;

function headText(spans, bytes) {
  const len = spans[HEAD_LEN];
  if (latin1Slice !== undefined) return latin1Slice.call(bytes, 0, len);
  if ((spans[FLAGS] & FLAG_NON_ASCII) === 0) return asciiDecoder.decode(len === bytes.length ? bytes : bytes.subarray(0, len));
  const wide = new Uint16Array(len);
  for (let i = 0; i < len; i++) wide[i] = bytes[i];
  return wideDecoder.decode(wide);
}

// Spans shorter than this are made into strings from their bytes (see the views' text method).
const SHORT_SPAN = 16;

const char = String.fromCharCode;

/**
 * The `length` bytes at `at` as a string, one character per byte, for short spans: one
 * String.fromCharCode call per 8 bytes, each byte an argument (a loop concatenating characters
 * costs twice as much, a decoder call more still). Exported for the benchmark, whose callback
 * parsers make their strings the same way; not part of the package's API (api.js).
 */
export function shortText(b, at, length) {
  switch (length) {
    case 0: return '';
    case 1: return char(b[at]);
    case 2: return char(b[at], b[at + 1]);
    case 3: return char(b[at], b[at + 1], b[at + 2]);
    case 4: return char(b[at], b[at + 1], b[at + 2], b[at + 3]);
    case 5: return char(b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4]);
    case 6: return char(b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5]);
    case 7: return char(b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6]);
    default: {
      const eight = char(b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7]);
      return length === 8 ? eight : eight + shortText(b, at + 8, length - 8);
    }
  }
}

function spanText(text, word) {
  const offset = word & 0xffff;
  return text.slice(offset, offset + (word >>> 16));
}

function span(word) {
  return { offset: word & 0xffff, length: word >>> 16 };
}

function bigU64(lo, hi) {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

// Options: limits pass through to httpspan::Limits, and `lenient` flags to its Leniency, as
// one bit each (the order of LENIENCY is the bit order wasm/src/lib.rs reads).
const LIMITS = [
  ['maxHeadBytes', 1, 0xffff],
  // No more than the parsers' field slots, which bound the field lines whatever the limit: a
  // larger limit could never take effect.
  ['maxFieldLines', 0, MAX_FIELDS, ` (${MAX_FIELDS} is the number of field slots a parser has)`],
  ['maxChunkExtBytes', 0, 0xffffffff],
  ['maxTrailerBytes', 0, 0xffffffff],
  ['maxBodyBytes', 0, Number.MAX_SAFE_INTEGER],
  ['maxBodyChunkExtBytes', 0, 0xffffffff],
];
const LENIENCY = [
  'bareLf', 'obsFold', 'spaceBeforeColon', 'requestLineSpaces', 'missingHost',
  'duplicateContentLength', 'unknownVersion', 'targetUnsafeBytes',
];

function limitNumbers(options, extraKeys) {
  const numbers = [...LIMITS.map(() => -1), 0];
  if (options === undefined || options === null) return numbers;
  if (typeof options !== 'object') throw new TypeError('options must be an object');
  for (const key of Object.keys(options)) {
    const value = options[key];
    // An option set to undefined is an option left out.
    if (value === undefined) continue;
    const at = LIMITS.findIndex(([name]) => name === key);
    if (at >= 0) {
      if (value === null && key === 'maxBodyBytes') continue;
      const [, min, max, why = ''] = LIMITS[at];
      if (!Number.isInteger(value) || value < min || value > max) {
        throw new RangeError(`options.${key} must be an integer from ${min} to ${max}${why}`);
      }
      numbers[at] = value;
    } else if (key === 'lenient') {
      numbers[LIMITS.length] = leniencyBits(value);
    } else if (!extraKeys.includes(key)) {
      throw new TypeError(`unknown option ${key}`);
    }
  }
  return numbers;
}

// An unknown flag is an error, never ignored: a misspelt flag would silently parse strictly.
function leniencyBits(lenient) {
  if (lenient === null || typeof lenient !== 'object') throw new TypeError('options.lenient must be an object');
  let bits = 0;
  for (const [flag, on] of Object.entries(lenient)) {
    const bit = LENIENCY.indexOf(flag);
    if (bit < 0) throw new TypeError(`unknown leniency flag options.lenient.${flag}`);
    if (on !== undefined && typeof on !== 'boolean') throw new TypeError(`options.lenient.${flag} must be a boolean`);
    if (on) bits |= 1 << bit;
  }
  return bits;
}

/** Words of the layout that a complete head at word `at` of `words` uses (layout::used_words). */
function usedWords(words, at) {
  const count = words[at + FIELD_COUNT];
  return FIELDS + 2 * count + ((count + 3) >> 2);
}

/**
 * A copy of the `used` words at word `at` of `words`, as a plain array of int32 values (every
 * reader masks or shifts them unsigned). A typed array would need a buffer of its own (over 64
 * bytes, V8 allocates it off its heap: hundreds of nanoseconds, and external memory that brings
 * full garbage collections on), `slice()` of a view of the module's memory costs more still, and
 * as int32 most words are small integers to V8 (0xffffffff, an unknown header's byte, is -1).
 */
function copyWords(words, at, used) {
  const copy = new Array(used);
  for (let i = 0; i < used; i++) copy[i] = words[at + i] | 0;
  return copy;
}

/** The known-header slot of field `i` of complete head words, or 0xff. */
function knownSlot(spans, i) {
  const knownAt = FIELDS + 2 * spans[FIELD_COUNT];
  return (spans[knownAt + (i >> 2)] >>> (8 * (i & 3))) & 0xff;
}

function contentLengthOf(spans) {
  return spans[FLAGS] & FLAG_CONTENT_LENGTH ? bigU64(spans[CONTENT_LENGTH], spans[CONTENT_LENGTH + 1]) : null;
}

function errorAt(words, at, response) {
  return new ParseError(words[at + INFO], words[at + HEAD_LEN], response);
}

function checkBytes(bytes) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array');
}

function checkLength(length, room) {
  if (!(Number.isInteger(length) && length >= 0 && length <= room)) {
    throw new RangeError(`length must be an integer from 0 to ${room} (the capacity asked of input())`);
  }
}

// The largest input a head parser reads (HEAD_WINDOW in wasm/src/lib.rs): no head reaches past it.
const HEAD_WINDOW = 65544;
const NO_BYTES = new Uint8Array(0);

/**
 * A writable view of `length` bytes at `ptr` in the module's memory, made again only when the
 * one given (`view`, made for `length` bytes) went stale or has another place or length.
 */
function memoryView(view, ptr, length) {
  if (view !== null && view.length === length && view.byteOffset === ptr && length !== 0) return view;
  return u8().subarray(ptr, ptr + length);
}

// Defined in SpanParser: the parse counter a parser's views check, and the view of the input
// bytes its last parseInput parsed.
let parseCounter;
let parsedInput;

/**
 * The object API's head (class `Head`) of a view, with its own copy of the words, and of the
 * bytes when they are in the module's memory (parseInput).
 */
function ownedHead(view, Head) {
  const spans = view.spans;
  switch (spans[STATE]) {
    case COMPLETE: {
      const bytes = view.bytes;
      const own = bytes.buffer === memory.buffer ? bytes.slice(0, spans[HEAD_LEN]) : bytes;
      return new Head(copyWords(spans, 0, usedWords(spans, 0)), own);
    }
    case PARTIAL: return { state: 'partial' };
    case FAILED: return { state: 'error', error: errorAt(spans, 0, view instanceof ResponseSpans) };
    default: return stale();
  }
}

/**
 * The storage of a view of one parse: its span words, the bytes they index and their text once
 * decoded, and the parse it came from, which every read checks. Requests and responses each
 * declare it in a class literal of their own, with the accessors of every view (ViewAccessors)
 * and of their kind copied onto the prototype, rather than deriving from one base class: V8
 * (Node 20) constructs a class whose base declares private fields at about three times the
 * cost, and classes made by one factory share their feedback, which slows every class after
 * the first; the fast path makes a view per parse. `parser` is the parse counter of the parser
 * whose module memory the view reads (its words in place or its input region), or null when
 * the words and bytes are the view's own.
 */
export class RequestSpans {
  #spans;
  #bytes;
  #text = null;
  #parser;
  #parse;

  constructor(spans, bytes, parser) {
    this.#spans = spans;
    this.#bytes = bytes;
    this.#parser = parser;
    this.#parse = parser === null ? 0 : parser.parses;
  }

  /** The span words (see docs/wasm.md for the layout). */
  get spans() {
    if (this.#parser !== null && this.#parser.parses !== this.#parse) stale('this view', 'reparsed');
    return this.#spans;
  }

  /** The bytes that were parsed, which the span words index. */
  get bytes() {
    if (this.#parser !== null && this.#parser.parses !== this.#parse) stale('this view', 'reparsed');
    return this.#bytes;
  }

  /**
   * The text of the span `word` (offset | length << 16). Short spans are made from their bytes
   * directly (cheaper than any decoder call); the first longer one decodes the whole head, and
   * every later string is a slice of that.
   */
  text(word) {
    const spans = this.words();
    if (this.#text === null && word >>> 16 < SHORT_SPAN) return shortText(this.#bytes, word & 0xffff, word >>> 16);
    return spanText((this.#text ??= headText(spans, this.#bytes)), word);
  }
}

/** The storage of a response view: RequestSpans's, in a class of its own (see there). */
export class ResponseSpans {
  #spans;
  #bytes;
  #text = null;
  #parser;
  #parse;

  constructor(spans, bytes, parser) {
    this.#spans = spans;
    this.#bytes = bytes;
    this.#parser = parser;
    this.#parse = parser === null ? 0 : parser.parses;
  }

  get spans() {
    if (this.#parser !== null && this.#parser.parses !== this.#parse) stale('this view', 'reparsed');
    return this.#spans;
  }

  get bytes() {
    if (this.#parser !== null && this.#parser.parses !== this.#parse) stale('this view', 'reparsed');
    return this.#bytes;
  }

  text(word) {
    const spans = this.words();
    if (this.#text === null && word >>> 16 < SHORT_SPAN) return shortText(this.#bytes, word & 0xffff, word >>> 16);
    return spanText((this.#text ??= headText(spans, this.#bytes)), word);
  }
}

/**
 * Lazy accessors over a view's span words and bytes, through its `spans`, `bytes` and `text`.
 * Only `state`, `headLen` and `error` can be read when the head is not complete; the rest throw.
 */
class ViewAccessors {
  /**
   * What Node's util.inspect (console.log) shows: the head's properties, its state and error
   * when it is not complete, or that the view is stale.
   */
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    const name = this.constructor.name;
    let shown;
    try {
      const state = this.state;
      if (state === 'complete') {
        shown = plainHead(this, fieldList(this));
        shown.fields = shown.fields.map((field) => `${field.name}: ${field.value}`);
      } else {
        shown = state === 'error' ? { state, error: this.error } : { state };
      }
    } catch (error) {
      if (error instanceof StaleViewError) return `${name} <stale: ${error.reason}>`;
      throw error;
    }
    return `${name} ${inspect(shown, { ...options, depth: options.depth === null ? null : options.depth - 1 })}`;
  }

  /** 'complete', 'partial' or 'error'. */
  get state() {
    const state = this.spans[STATE];
    return state === undefined ? stale() : STATES[state];
  }

  /** Bytes of the head (the body starts here); 0 unless complete. */
  get headLen() {
    const spans = this.spans;
    if (spans[STATE] === COMPLETE) return spans[HEAD_LEN];
    return spans.length === 0 ? stale() : 0;
  }

  /** The error, when the state is 'error'; else null. */
  get error() {
    const spans = this.spans;
    if (spans[STATE] === FAILED) return errorAt(spans, 0, this instanceof ResponseSpans);
    return spans.length === 0 ? stale() : null;
  }

  /** The span words, after checking that they describe a complete head (and are not stale). */
  words() {
    const spans = this.spans;
    if (spans[STATE] !== COMPLETE) {
      throw new TypeError(`the head is not complete (state: ${this.state})`);
    }
    return spans;
  }

  get version() {
    return this.words()[INFO] === 1 ? 'HTTP/1.1' : 'HTTP/1.0';
  }

  get fieldCount() {
    return this.words()[FIELD_COUNT];
  }

  /** The name of field `i`, as sent. */
  fieldName(i) {
    return this.text(this.fieldWord(i, 0));
  }

  /** The value of field `i`, trimmed. */
  fieldValue(i) {
    return this.text(this.fieldWord(i, 1));
  }

  /** The span of field `i`'s name (`part` 0) or value (1). */
  fieldSpan(i, part) {
    return span(this.fieldWord(i, part));
  }

  /** The span word of field `i`'s name (`part` 0) or value (1): offset | length << 16. */
  fieldWord(i, part) {
    const spans = this.words();
    if (!(i >= 0 && i < spans[FIELD_COUNT])) throw new RangeError(`no field ${i}`);
    return spans[FIELDS + 2 * i + part] >>> 0;
  }

  /** The canonical lowercase name of field `i` when it is a known header, else null. */
  fieldKnown(i) {
    this.fieldWord(i, 0);
    const slot = knownSlot(this.spans, i);
    return slot === 0xff ? null : KNOWN_HEADERS[slot];
  }

  /** Index of the first field named `name` (any case), or -1. O(1) for known headers. */
  indexOf(name) {
    const spans = this.words();
    const lower = name.toLowerCase();
    const slot = KNOWN_SLOTS.get(lower);
    if (slot !== undefined) {
      return ((spans[KNOWN_INDEX + (slot >> 2)] >>> (8 * (slot & 3))) & 0xff) - 1;
    }
    return nextNamed(this, lower, 0);
  }

  /** The value of the first field named `name`, or undefined. */
  get(name) {
    const i = this.indexOf(name);
    return i < 0 ? undefined : this.fieldValue(i);
  }

  /** The values of every field named `name` (any case), in order; empty when there is none. */
  getAll(name) {
    const lower = name.toLowerCase();
    const values = [];
    for (let i = this.indexOf(lower); i >= 0; i = nextNamed(this, lower, i + 1)) values.push(this.fieldValue(i));
    return values;
  }

  /** The values of every Set-Cookie line, in order (never joined: a cookie's value may hold a comma). */
  getSetCookie() {
    return this.getAll('set-cookie');
  }

  /** The value span of the first field named `name`, or undefined. */
  getSpan(name) {
    const i = this.indexOf(name);
    return i < 0 ? undefined : this.fieldSpan(i, 1);
  }

  /** The known-header bitmap: bit k set when KNOWN_HEADERS[k] is present. */
  get knownBitmap() {
    const s = this.words();
    return bigU64(s[KNOWN_BITMAP], s[KNOWN_BITMAP + 1]);
  }

  /** The Content-Length, or null. */
  get contentLength() {
    return contentLengthOf(this.words());
  }

  get chunked() {
    return (this.words()[FLAGS] & FLAG_CHUNKED) !== 0;
  }

  get keepAlive() {
    return (this.words()[FLAGS] & FLAG_KEEP_ALIVE) !== 0;
  }

  /** 'none', 'length', 'chunked' or 'until-close'. */
  get framing() {
    return FRAMINGS[(this.words()[FLAGS] >>> FRAMING_SHIFT) & 3];
  }
}

/** Index of the first field of `view` from `from` on whose name is `lower` in any case, or -1. */
function nextNamed(view, lower, from) {
  const spans = view.words();
  const slot = KNOWN_SLOTS.get(lower);
  const count = spans[FIELD_COUNT];
  if (slot !== undefined) {
    for (let i = from; i < count; i++) if (knownSlot(spans, i) === slot) return i;
    return -1;
  }
  const bytes = view.bytes;
  outer: for (let i = from; i < count; i++) {
    const word = spans[FIELDS + 2 * i];
    if (word >>> 16 !== lower.length) continue;
    const offset = word & 0xffff;
    for (let j = 0; j < lower.length; j++) {
      let b = bytes[offset + j];
      if (b >= 0x41 && b <= 0x5a) b |= 0x20;
      if (b !== lower.charCodeAt(j)) continue outer;
    }
    return i;
  }
  return -1;
}

/** What request views have beyond the accessors of every view. */
class RequestAccessors {
  get method() {
    return this.text(this.words()[START_A]);
  }

  get methodSpan() {
    return span(this.words()[START_A]);
  }

  get target() {
    return this.text(this.words()[START_B]);
  }

  get targetSpan() {
    return span(this.words()[START_B]);
  }

  /** The same object parseRequest returns: it keeps its own copy of the words. */
  toResult() {
    return ownedHead(this, RequestHead);
  }
}

/** What response views have beyond the accessors of every view. */
class ResponseAccessors {
  get status() {
    return this.words()[START_A];
  }

  get reason() {
    return this.text(this.words()[START_B]);
  }

  get reasonSpan() {
    return span(this.words()[START_B]);
  }

  get interim() {
    return (this.words()[FLAGS] & FLAG_INTERIM) !== 0;
  }

  get switchesProtocols() {
    return (this.words()[FLAGS] & FLAG_SWITCHES_PROTOCOLS) !== 0;
  }

  /** The same object parseResponse returns: it keeps its own copy of the words. */
  toResult() {
    return ownedHead(this, ResponseHead);
  }
}

/**
 * Copies the accessors of the classes `from` (symbol-keyed ones too) onto the prototype of
 * `View`, but for those `View` declares itself.
 */
function addAccessors(View, ...from) {
  for (const Kind of from) {
    for (const key of Reflect.ownKeys(Kind.prototype)) {
      if (key !== 'constructor' && !Object.hasOwn(View.prototype, key)) Object.defineProperty(View.prototype, key, Object.getOwnPropertyDescriptor(Kind.prototype, key));
    }
  }
}

addAccessors(RequestSpans, ViewAccessors, RequestAccessors);
addAccessors(ResponseSpans, ViewAccessors, ResponseAccessors);

/**
 * One field line of a head or trailer section that owns its words: `name` and `value` are made
 * with the field (a list of fields is read for them), the spans and the known name when read.
 * `toJSON` gives the plain object.
 */
class Field {
  #head;
  #i;
  #name;
  #value;

  constructor(head, i, name, value) {
    this.#head = head;
    this.#i = i;
    this.#name = name;
    this.#value = value;
    /** The name, as sent. */
    this.name = head.text(name);
    /** The value, trimmed. */
    this.value = head.text(value);
  }

  get nameSpan() {
    return span(this.#name);
  }

  get valueSpan() {
    return span(this.#value);
  }

  get known() {
    return this.#head.fieldKnown(this.#i);
  }

  toJSON() {
    return { name: this.name, value: this.value, nameSpan: this.nameSpan, valueSpan: this.valueSpan, known: this.known };
  }
}

/** The field lines of a complete head (or trailer section) view that owns its words. */
function fieldList(head) {
  const spans = head.words();
  const fields = new Array(spans[FIELD_COUNT]);
  for (let i = 0; i < fields.length; i++) {
    fields[i] = new Field(head, i, spans[FIELDS + 2 * i] >>> 0, spans[FIELDS + 2 * i + 1] >>> 0);
  }
  return fields;
}

/** For each known header present, the index of its first field line. */
function knownIndexOf(head) {
  const spans = head.words();
  const index = {};
  for (let i = spans[FIELD_COUNT] - 1; i >= 0; i--) {
    const slot = knownSlot(spans, i);
    if (slot !== 0xff) index[KNOWN_HEADERS[slot]] = i;
  }
  return index;
}

const HEAD_KEYS = ['state', 'headLen', 'version', 'fields', 'knownBitmap', 'knownIndex', 'contentLength', 'chunked', 'keepAlive', 'framing'];
const REQUEST_KEYS = ['method', 'methodSpan', 'target', 'targetSpan'];
const RESPONSE_KEYS = ['status', 'reason', 'reasonSpan', 'interim', 'switchesProtocols'];

/** Every property of a complete head or view as plain data (fields as plain objects). */
function plainHead(head, fields) {
  const object = {};
  for (const key of HEAD_KEYS) object[key] = head[key];
  object.fields = fields.map((field) => field.toJSON());
  object.knownIndex = knownIndexOf(head);
  for (const key of head instanceof RequestSpans ? REQUEST_KEYS : RESPONSE_KEYS) object[key] = head[key];
  return object;
}

/**
 * The object API's heads (parseRequest, parseResponse, the Decoder's head events): a view over
 * its own copy of the span words of a complete head, plus `fields` and `knownIndex`, made when
 * first read. The properties are getters, so spreading a head or cloning it (structuredClone,
 * postMessage) copies none of them: `toObject()` gives every property as plain data, `toJSON()`
 * the same with the bigints as decimal strings. Like the views, each kind is a class literal
 * that declares its own storage, with the shared accessors copied onto its prototype (see
 * RequestSpans for why); its view class's prototype sits behind its own, so that a head is
 * `instanceof RequestSpans` (or ResponseSpans). Its words and bytes are its own and always
 * complete, so no read checks a parse or a state.
 */
class RequestHead {
  #spans;
  #bytes;
  #text = null;
  #fields = null;
  #knownIndex = null;

  constructor(spans, bytes) {
    this.#spans = spans;
    this.#bytes = bytes;
  }

  get spans() {
    return this.#spans;
  }

  get bytes() {
    return this.#bytes;
  }

  words() {
    return this.#spans;
  }

  text(word) {
    if (this.#text === null && word >>> 16 < SHORT_SPAN) return shortText(this.#bytes, word & 0xffff, word >>> 16);
    return spanText((this.#text ??= headText(this.#spans, this.#bytes)), word);
  }

  get fields() {
    return (this.#fields ??= fieldList(this));
  }

  get knownIndex() {
    return (this.#knownIndex ??= knownIndexOf(this));
  }
}

/** A complete response head of the object API: RequestHead's storage, in a class of its own. */
class ResponseHead {
  #spans;
  #bytes;
  #text = null;
  #fields = null;
  #knownIndex = null;

  constructor(spans, bytes) {
    this.#spans = spans;
    this.#bytes = bytes;
  }

  get spans() {
    return this.#spans;
  }

  get bytes() {
    return this.#bytes;
  }

  words() {
    return this.#spans;
  }

  text(word) {
    if (this.#text === null && word >>> 16 < SHORT_SPAN) return shortText(this.#bytes, word & 0xffff, word >>> 16);
    return spanText((this.#text ??= headText(this.#spans, this.#bytes)), word);
  }

  get fields() {
    return (this.#fields ??= fieldList(this));
  }

  get knownIndex() {
    return (this.#knownIndex ??= knownIndexOf(this));
  }
}

/** What the object API's heads have beyond the accessors of their kind of view. */
class HeadAccessors {
  /** Every property decoded, as own data properties of a plain object. */
  toObject() {
    return plainHead(this, this.fields);
  }

  toJSON() {
    const object = this.toObject();
    object.knownBitmap = String(object.knownBitmap);
    if (object.contentLength !== null) object.contentLength = String(object.contentLength);
    return object;
  }
}

addAccessors(RequestHead, ViewAccessors, RequestAccessors, HeadAccessors);
addAccessors(ResponseHead, ViewAccessors, ResponseAccessors, HeadAccessors);
Object.setPrototypeOf(RequestHead.prototype, RequestSpans.prototype);
Object.setPrototypeOf(ResponseHead.prototype, ResponseSpans.prototype);

/**
 * The fast path: a reusable parser whose results are read in place from its span words in the
 * module's memory, decoded only by the accessors you call. Base class of RequestParser and
 * ResponseParser.
 */
class SpanParser {
  #inner;
  #method = 'GET';
  /** Where the input region is in the module's memory, and how many bytes it holds. */
  #input = 0;
  #room = 0;
  /** The last view handed out by input(), and the view of its first `length` bytes. */
  #inputView = null;
  #inputLength = 0;
  /** The view of the first bytes of the input view that the last parseInput parsed. */
  #parsed = NO_BYTES;
  #parsedFrom = null;
  #spansAt;
  /** The span words, in place; remade when the memory grows. */
  #words;
  /**
   * How many parses this parser has made: each view made from the module's memory keeps the
   * count of its own parse and throws a StaleViewError once a later parse has overwritten it.
   */
  #counter = { parses: 0 };

  constructor(response, options, extraKeys) {
    if (memory === null) notLoaded();
    this.#inner = new HeadParser(response, limitNumbers(options, extraKeys));
    this.#spansAt = this.#inner.spans() >>> 2;
    this.#words = u32().subarray(this.#spansAt, this.#spansAt + SPANS_LEN);
  }

  /**
   * The span words of the last parse without `out`, in place in the module's memory: the next
   * parse overwrites them, and a grown memory detaches this array (take `spans` again).
   */
  get spans() {
    if (this.#words.length === 0) this.#words = u32().subarray(this.#spansAt, this.#spansAt + SPANS_LEN);
    return this.#words;
  }

  #reserve(length) {
    if (length > this.#room) {
      this.#input = this.#inner.input(length);
      this.#room = length;
    }
  }

  /**
   * A writable view of the parser's input region in the module's memory, `capacity` bytes
   * (at most 65 544, all a head can use): write the bytes there, then call `parseInput(length)`.
   * It stays valid until the module's memory grows (a parser or decoder is created, or one
   * needs a larger buffer); `parseInput` throws a StaleViewError if it grew in between.
   */
  input(capacity) {
    if (!(Number.isInteger(capacity) && capacity >= 0)) throw new RangeError('capacity must be a non-negative integer');
    const length = Math.min(capacity, HEAD_WINDOW);
    this.#reserve(length);
    this.#inputView = memoryView(this.#inputView, this.#input, length);
    this.#inputLength = length;
    return this.#inputView;
  }

  /** Parses the first `length` bytes of the view `input()` gave, where they are; returns the words, as parseInto. */
  parseInputInto(length, out) {
    const view = this.#inputView;
    if (view === null) throw new TypeError('call input(capacity) and write the bytes there before parseInput(length)');
    // Stale when the memory grew, or when a larger parse(bytes) moved the input region since.
    if (view.length !== this.#inputLength) stale('the view input() gave');
    if (view.byteOffset !== this.#input) stale('the view input() gave', 'input-moved');
    checkLength(length, view.length);
    if (this.#parsed.length !== length || this.#parsedFrom !== view) {
      this.#parsed = view.subarray(0, length);
      this.#parsedFrom = view;
    }
    return this.#wordsOf(this.#inner.parse(length), out);
  }

  /**
   * Copies `bytes` (at most the first 65 544, all a head can use) into the module and parses;
   * returns the words, in place or copied to `out`.
   */
  parseInto(bytes, out) {
    return this.#wordsOf(this.#copyAndParse(bytes), out);
  }

  /**
   * Parses `bytes` into the object API's result: a RequestHead (ResponseHead when `response`)
   * with its own copy of the words (no view in between), or the partial or failed result.
   */
  parseOwned(bytes, response) {
    const used = this.#copyAndParse(bytes);
    this.#counter.parses++;
    const words = u32();
    const at = this.#spansAt;
    switch (words[at + STATE]) {
      case COMPLETE: {
        // One `new` per class, so that each site sees one.
        const spans = copyWords(words, at, used);
        return response ? new ResponseHead(spans, bytes) : new RequestHead(spans, bytes);
      }
      case PARTIAL: return { state: 'partial' };
      default: return { state: 'error', error: errorAt(words, at, response) };
    }
  }

  /** Copies `bytes` (at most the first 65 544, all a head can use) into the module and parses them; returns the words used. */
  #copyAndParse(bytes) {
    checkBytes(bytes);
    const len = bytes.length;
    this.#reserve(Math.min(len, HEAD_WINDOW));
    const n = Math.min(len, this.#room);
    u8().set(n === len ? bytes : bytes.subarray(0, n), this.#input);
    return this.#inner.parse(n);
  }

  /** Counts the parse that wrote `used` words, and gives them: in place, or copied to `out`. */
  #wordsOf(used, out) {
    this.#counter.parses++;
    if (out === undefined) return this.spans;
    if (out.length < used) throw new RangeError(`out must hold at least ${SPANS_LEN} words`);
    // A loop beats subarray() + set() for the few dozen words of a head.
    const words = u32();
    const at = this.#spansAt;
    for (let i = 0; i < used; i++) out[i] = words[at + i];
    return out;
  }

  static {
    parseCounter = (parser) => parser.#counter;
    parsedInput = (parser) => parser.#parsed;
  }

  setMethod(method) {
    if (typeof method !== 'string') throw new TypeError('requestMethod must be a string');
    if (method !== this.#method) {
      this.#inner.setRequestMethod(method);
      this.#method = method;
    }
  }

  /** Frees the module memory this parser holds; it cannot be used afterwards. */
  free() {
    this.#inner.free();
  }
}

/** A reusable request parser for the fast path. */
export class RequestParser extends SpanParser {
  /** `options`: limits, such as `{ maxHeadBytes: 4096 }`. */
  constructor(options) {
    super(false, options, []);
  }

  /**
   * Parses the request head at the start of `bytes` (copied into the module) from scratch.
   * Without `out`, the view reads the words in place and is valid until the next parse; with
   * `out`, the words are copied there and the view keeps them.
   */
  parse(bytes, out) {
    // Each parser makes its own kind of view, so that every `new` here sees one class.
    const words = this.parseInto(bytes, out);
    return new RequestSpans(words, bytes, out === undefined ? parseCounter(this) : null);
  }

  /** Parses the first `length` bytes written into the view `input()` gave, without copying. */
  parseInput(length, out) {
    const words = this.parseInputInto(length, out);
    return new RequestSpans(words, parsedInput(this), parseCounter(this));
  }
}

/**
 * The method of the request a response answers, from `options.requestMethod` (a bare string is
 * the older form, still read).
 */
function requestMethodOf(options, what) {
  const method = typeof options === 'string' ? options : options?.requestMethod;
  if (typeof method !== 'string') {
    throw new TypeError(`${what} needs { requestMethod }, the method of the request the response answers (a response to HEAD has no body)`);
  }
  return method;
}

/** A reusable response parser for the fast path. */
export class ResponseParser extends SpanParser {
  /** `options`: limits, such as `{ maxHeadBytes: 4096 }`. */
  constructor(options) {
    super(true, options, []);
  }

  /**
   * Parses the response head at the start of `bytes`, answering a request with method
   * `options.requestMethod` (required: HEAD and CONNECT change the framing).
   */
  parse(bytes, options, out = undefined) {
    this.setMethod(requestMethodOf(options, 'ResponseParser.parse'));
    const words = this.parseInto(bytes, out);
    return new ResponseSpans(words, bytes, out === undefined ? parseCounter(this) : null);
  }

  /** Parses the first `length` bytes written into the view `input()` gave, without copying. */
  parseInput(length, options, out = undefined) {
    this.setMethod(requestMethodOf(options, 'ResponseParser.parseInput'));
    const words = this.parseInputInto(length, out);
    return new ResponseSpans(words, parsedInput(this), parseCounter(this));
  }
}

// One parser per distinct set of limits, so that parseRequest and parseResponse allocate
// nothing in the module after the first call.
const sharedParsers = new Map();

const defaultParsers = [null, null];

function sharedParser(response, options, extraKeys) {
  if (options === undefined || (response && Object.keys(options).length === 1)) {
    const parser = defaultParsers[+response] ?? (response ? new ResponseParser() : new RequestParser());
    defaultParsers[+response] = parser;
    return parser;
  }
  const numbers = limitNumbers(options, extraKeys);
  const key = `${response}:${numbers}`;
  let parser = sharedParsers.get(key);
  if (parser === undefined) {
    if (sharedParsers.size >= 16) {
      for (const old of sharedParsers.values()) old.free();
      sharedParsers.clear();
    }
    const limits = { ...options };
    delete limits.requestMethod;
    parser = response ? new ResponseParser(limits) : new RequestParser(limits);
    sharedParsers.set(key, parser);
  }
  return parser;
}

/**
 * Parses the request head at the start of `bytes`. Returns `{ state: 'complete', ... }`,
 * `{ state: 'partial' }` (read more, call again) or `{ state: 'error', error }`. A complete
 * head decodes its strings from `bytes` when they are first read.
 */
export function parseRequest(bytes, options) {
  return sharedParser(false, options, []).parseOwned(bytes, false);
}

/**
 * Parses the response head at the start of `bytes`, which answers a request with method
 * `options.requestMethod` (required: a response to HEAD has no body).
 */
export function parseResponse(bytes, options) {
  const method = requestMethodOf(typeof options === 'string' ? undefined : options, 'parseResponse');
  const parser = sharedParser(true, options, ['requestMethod']);
  parser.setMethod(method);
  return parser.parseOwned(bytes, true);
}

function copyOut(ptr, len) {
  return u8().slice(ptr, ptr + len);
}

/**
 * A connection's byte stream of requests or responses, pipelined and chunked, arriving in
 * pieces of any size. `push` returns the events each piece completes.
 */
export class Decoder {
  #inner;
  #response;
  #spansAt;
  /** Response streams: the methods queued for the final responses after the awaited one. */
  #methods = [];
  /** Response streams: whether the awaited final response answers GET only because none was queued. */
  #defaultMethod = false;
  #interim = false;
  /** The last view handed out by input(), and its length. */
  #inputView = null;
  #inputLength = 0;

  /**
   * `kind`: 'request' or 'response'. `options`: limits, `requestMethods` (which, like
   * `queueRequestMethod`, only response streams use), and `chunkLines` ('chunk-line' events).
   */
  constructor(kind, options) {
    if (memory === null) notLoaded();
    if (kind !== 'request' && kind !== 'response') throw new TypeError("kind must be 'request' or 'response'");
    this.#response = kind === 'response';
    const chunkLines = options?.chunkLines ?? false;
    if (typeof chunkLines !== 'boolean') throw new TypeError('options.chunkLines must be a boolean');
    this.#inner = new StreamDecoder(this.#response, limitNumbers(options, ['requestMethods', 'chunkLines']), chunkLines);
    this.#spansAt = this.#inner.spans() >>> 2;
    const methods = options?.requestMethods ?? [];
    if (!Array.isArray(methods)) throw new TypeError('options.requestMethods must be an array of strings');
    for (const method of methods) this.queueRequestMethod(method);
    if (this.#response) this.#nextMethod();
  }

  /**
   * Response streams: the method of a request sent on this connection. Final responses are
   * matched to these in order; without one, a response answers GET. Request streams ignore it.
   */
  queueRequestMethod(method) {
    if (typeof method !== 'string') throw new TypeError('a request method must be a string');
    if (!this.#response) return;
    if (this.#defaultMethod) {
      // The awaited response has not come yet: the method is its own.
      this.#defaultMethod = false;
      this.#inner.setRequestMethod(method);
    } else {
      this.#methods.push(method);
    }
  }

  /** Puts the next queued method (or GET) in force, for the next final response. */
  #nextMethod() {
    const method = this.#methods.shift();
    this.#defaultMethod = method === undefined;
    this.#inner.setRequestMethod(method ?? 'GET');
  }

  /** Bytes of the stream consumed so far. */
  get position() {
    return this.#inner.position();
  }

  get resumeOffset() {
    return this.#inner.resumeOffset();
  }

  /** Decodes `chunk` and returns the events it completes. Body events are ranges of `chunk`. */
  push(chunk) {
    checkBytes(chunk);
    const base = this.#inner.position();
    const ptr = this.#inner.input(chunk.length);
    u8().set(chunk, ptr);
    return this.#drain(() => this.#inner.decode(), chunk, base);
  }

  /**
   * A writable view of the decoder's input region in the module's memory, `capacity` bytes:
   * write the next piece of the stream there (a socket can read into it), then call
   * `pushInput(length)`. Valid until the module's memory grows.
   */
  input(capacity) {
    if (!(Number.isInteger(capacity) && capacity >= 0)) throw new RangeError('capacity must be a non-negative integer');
    const ptr = this.#inner.input(capacity);
    this.#inputView = memoryView(this.#inputView, ptr, capacity);
    this.#inputLength = capacity;
    return this.#inputView;
  }

  /**
   * Decodes the first `length` bytes written into the view `input()` gave, where they are.
   * Body events are ranges of that view: valid until the next `input()` or `push()`.
   */
  pushInput(length) {
    const view = this.#inputView;
    if (view === null) throw new TypeError('call input(capacity) and write the bytes there before pushInput(length)');
    if (view.length !== this.#inputLength) stale('the view input() gave');
    checkLength(length, view.length);
    const base = this.#inner.position();
    // The region is large enough already, so this only sets the piece's length; it is elsewhere
    // when a larger push() moved it since.
    if (this.#inner.input(length) !== view.byteOffset) stale('the view input() gave', 'input-moved');
    return this.#drain(() => this.#inner.decode(), view, base);
  }

  /**
   * The stream has ended: returns the last events ('end', then 'closed' or 'incomplete'). After
   * a 'closed' or 'error' event, it returns that event again, as every later `push` does.
   */
  finish() {
    return this.#drain(() => this.#inner.finish(), null, this.#inner.position());
  }

  #drain(step, chunk, base) {
    const events = [];
    for (;;) {
      const event = step();
      switch (event) {
        case EVENT_NEED_MORE:
          return events;
        case EVENT_HEAD:
          events.push(this.#head());
          break;
        case EVENT_BODY: {
          const start = this.#inner.bodyStart;
          const end = this.#inner.bodyEnd;
          events.push({ type: 'body', data: chunk.subarray(start, end), start, end, offset: base + start });
          break;
        }
        case EVENT_TRAILERS:
          events.push(this.#trailers());
          break;
        case EVENT_CHUNK_LINE:
          events.push(this.#chunkLine(base));
          break;
        case EVENT_MESSAGE_END:
          events.push({ type: 'end', offset: this.#inner.position() });
          if (this.#response && !this.#interim) this.#nextMethod();
          break;
        case EVENT_CLOSED:
          events.push({ type: 'closed', offset: this.#inner.position() });
          return events;
        case EVENT_INCOMPLETE:
          events.push({ type: 'incomplete' });
          return events;
        case EVENT_ERROR:
          events.push({ type: 'error', error: errorAt(u32(), this.#spansAt, this.#response) });
          return events;
        default:
          throw new Error(`@httpspan/wasm: unknown decoder event ${event}`);
      }
    }
  }

  /** The chunk line just consumed (EVENT_CHUNK_LINE's words), in stream offsets. */
  #chunkLine(base) {
    const words = u32();
    const at = this.#spansAt;
    const end = base + words[at];
    const extEnd = end - words[at + 3];
    const sizeEnd = extEnd - words[at + 2];
    const offset = sizeEnd - words[at + 1];
    const size = BigInt(words[at + 4]) | (BigInt(words[at + 5]) << 32n);
    return { type: 'chunk-line', offset, sizeEnd, extEnd, end, size };
  }

  /** A copy of the words of the head or trailer section just decoded, and of its bytes. */
  #section(trailers) {
    const words = u32();
    const at = this.#spansAt;
    const spans = copyWords(words, at, usedWords(words, at));
    return [spans, copyOut(this.#inner.section(trailers), spans[HEAD_LEN])];
  }

  #head() {
    const [spans, bytes] = this.#section(false);
    const head = this.#response ? new ResponseHead(spans, bytes) : new RequestHead(spans, bytes);
    if (this.#response) {
      this.#interim = head.interim;
      // A final response took the method in force; a method queued from now on is the next one's.
      if (!head.interim) this.#defaultMethod = false;
    }
    return { type: 'head', offset: this.#inner.messageOffset(), head, bytes };
  }

  #trailers() {
    const [spans, bytes] = this.#section(true);
    // A trailer section has fields only, which any view reads.
    const section = new RequestSpans(spans, bytes, null);
    return { type: 'trailers', offset: this.#inner.trailerOffset(), fields: fieldList(section), knownIndex: knownIndexOf(section), bytes };
  }

  /** Frees the module memory this decoder holds; it cannot be used afterwards. */
  free() {
    this.#inner.free();
  }
}

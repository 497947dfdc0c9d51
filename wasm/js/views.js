// The fast path's views: a parse's span words and bytes, read lazily by accessors that check the
// view is not stale.

import { COMPLETE, FAILED, FIELDS, FIELD_COUNT, FLAGS, FLAG_CHUNKED, FLAG_INTERIM, FLAG_KEEP_ALIVE, FLAG_SWITCHES_PROTOCOLS, FRAMINGS, FRAMING_SHIFT, HEAD_LEN, INFO, KNOWN_BITMAP, KNOWN_INDEX, PARTIAL, START_A, START_B, STATE, STATES } from './layout.js';
import { KNOWN_HEADERS, KNOWN_SLOTS, memory } from './module.js';
import { StaleViewError, stale } from './errors.js';
import { SHORT_SPAN, bigU64, headText, shortText, span, spanText } from './text.js';
import { contentLengthOf, copyWords, errorAt, knownSlot, usedWords } from './words.js';


const HEAD_KEYS = ['state', 'headLen', 'version', 'fields', 'knownBitmap', 'knownIndex', 'contentLength', 'chunked', 'keepAlive', 'framing'];
const REQUEST_KEYS = ['method', 'methodSpan', 'target', 'targetSpan'];
const RESPONSE_KEYS = ['status', 'reason', 'reasonSpan', 'interim', 'switchesProtocols'];

/** Every property of a complete head or view as plain data (fields as plain objects). */
export function plainHead(head, fields) {
  const object = {};
  for (const key of HEAD_KEYS) object[key] = head[key];
  object.fields = fields.map((field) => field.toJSON());
  object.knownIndex = knownIndexOf(head);
  for (const key of head instanceof RequestSpans ? REQUEST_KEYS : RESPONSE_KEYS) object[key] = head[key];
  return object;
}

// The object API's head classes, which heads.js builds on these views and hands over here
// (importing them would make the two files import each other): toResult makes one.
let RequestHead;
let ResponseHead;

/** Called by heads.js with its two head classes. */
export function useHeads(request, response) {
  RequestHead = request;
  ResponseHead = response;
}

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
export class ViewAccessors {
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
export class RequestAccessors {
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
export class ResponseAccessors {
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
export function addAccessors(View, ...from) {
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
export function fieldList(head) {
  const spans = head.words();
  const fields = new Array(spans[FIELD_COUNT]);
  for (let i = 0; i < fields.length; i++) {
    fields[i] = new Field(head, i, spans[FIELDS + 2 * i] >>> 0, spans[FIELDS + 2 * i + 1] >>> 0);
  }
  return fields;
}

/** For each known header present, the index of its first field line. */
export function knownIndexOf(head) {
  const spans = head.words();
  const index = {};
  for (let i = spans[FIELD_COUNT] - 1; i >= 0; i--) {
    const slot = knownSlot(spans, i);
    if (slot !== 0xff) index[KNOWN_HEADERS[slot]] = i;
  }
  return index;
}

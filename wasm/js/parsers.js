// The fast path's reusable parsers: input written in place in the module's memory, views of
// the span words in place.

import { HeadParser } from './httpspan_wasm.js';
import { COMPLETE, PARTIAL, SPANS_LEN, STATE } from './layout.js';
import { memory, notLoaded, u32, u8 } from './module.js';
import { stale } from './errors.js';
import { limitNumbers } from './limits.js';
import { HEAD_WINDOW, NO_BYTES, checkBytes, checkLength, copyWords, errorAt, memoryView } from './words.js';
import { RequestSpans, ResponseSpans } from './views.js';
import { RequestHead, ResponseHead } from './heads.js';

// Defined in SpanParser: the parse counter a parser's views check, and the view of the input
// bytes its last parseInput parsed.
let parseCounter;
let parsedInput;

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
export function requestMethodOf(options, what) {
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

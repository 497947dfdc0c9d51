// The streaming Decoder: a connection's pipelined, chunked byte stream in pieces of any size.

import { StreamDecoder } from './httpspan_wasm.js';
import { EVENT_BODY, EVENT_CHUNK_LINE, EVENT_CLOSED, EVENT_ERROR, EVENT_HEAD, EVENT_INCOMPLETE, EVENT_MESSAGE_END, EVENT_NEED_MORE, EVENT_TRAILERS, HEAD_LEN } from './layout.js';
import { memory, notLoaded, u32, u8 } from './module.js';
import { stale } from './errors.js';
import { limitNumbers } from './limits.js';
import { checkBytes, checkLength, copyWords, errorAt, memoryView, usedWords } from './words.js';
import { RequestSpans, fieldList, knownIndexOf } from './views.js';
import { RequestHead, ResponseHead } from './heads.js';

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

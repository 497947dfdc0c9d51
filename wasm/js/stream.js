// decodeStream: a connection's byte stream (a ReadableStream, or any async iterable of
// Uint8Array) as an async iterable of messages, each a head and its body as a ReadableStream,
// over the Decoder. The source is read only when a message or a body chunk is asked for, so a
// slow consumer slows the reading (backpressure); body chunks are views of the source's chunks.

import { Decoder } from './decoder.js';

/** The stream ended inside a message: a head, a body or a trailer section was cut short. */
export class IncompleteMessageError extends Error {
  constructor() {
    super('@httpspan/wasm: the stream ended inside a message');
    this.name = 'IncompleteMessageError';
  }
}

/** `() => Promise<Uint8Array | null>` reading `source`, null at its end, and a way to let it go. */
function reading(source) {
  if (source !== null && typeof source === 'object' && typeof source.getReader === 'function') {
    const reader = source.getReader();
    return {
      async next() {
        const { done, value } = await reader.read();
        return done ? null : checked(value);
      },
      release: () => reader.releaseLock(),
      cancel: (reason) => reader.cancel(reason),
    };
  }
  if (source !== null && typeof source === 'object' && typeof source[Symbol.asyncIterator] === 'function') {
    const iterator = source[Symbol.asyncIterator]();
    return {
      async next() {
        const { done, value } = await iterator.next();
        return done ? null : checked(value);
      },
      release: () => {},
      cancel: async (reason) => { await iterator.return?.(reason); },
    };
  }
  throw new TypeError('decodeStream needs a ReadableStream or an async iterable of Uint8Array');
}

function checked(chunk) {
  if (!(chunk instanceof Uint8Array)) throw new TypeError('decodeStream reads Uint8Array chunks');
  return chunk;
}

/**
 * The messages of `source`, a connection's byte stream. `options`: `kind` ('request', the
 * default, or 'response'), the Decoder's limits and `requestMethods`. Each message is
 * `{ head, offset, body, trailers }`: `body` is a ReadableStream of the decoded body (null when
 * the head declares none), `trailers` a promise of the trailer fields (empty without a trailer
 * section), settled once the body has been read or skipped. Asking for the next message skips
 * what is left of the previous body, whose stream then errors if it is still being read. An
 * invalid stream rejects the iteration (and errors the body being read) with the ParseError.
 */
export function decodeStream(source, options = {}) {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { kind = 'request', ...decoderOptions } = options;
  // It hands out messages, not their framing: chunk lines are a Decoder option only.
  if (decoderOptions.chunkLines !== undefined) throw new TypeError('unknown option chunkLines');
  const decoder = new Decoder(kind, decoderOptions);
  const input = reading(source);
  /** Events decoded and not yet handed on. */
  const events = [];
  /** The read in progress, shared by the iterator and the body streams. */
  let filling = null;
  /** Whether the decoder has reported its last event ('closed', 'incomplete' or 'error'). */
  let over = false;
  /** The message whose body is being read: { body controller, settle trailers, done }. */
  let current = null;

  async function readMore() {
    const chunk = await input.next();
    const decoded = chunk === null ? decoder.finish() : decoder.push(chunk);
    for (const event of decoded) {
      events.push(event);
      if (event.type === 'closed' || event.type === 'incomplete' || event.type === 'error') over = true;
    }
    if (over) {
      input.release();
      decoder.free();
    }
  }

  /** Resolves once an event is queued (the decoder always ends with one). */
  async function nextEvent() {
    while (events.length === 0) {
      filling ??= readMore().finally(() => { filling = null; });
      await filling;
    }
    return events[0];
  }

  /**
   * Takes the current message's events up to its end: body data go to its stream (only when
   * `deliver`, one chunk per call, for backpressure), else are skipped.
   */
  async function advance(message, deliver) {
    while (!message.done) {
      const event = await nextEvent();
      switch (event.type) {
        case 'body':
          events.shift();
          if (deliver) {
            message.controller.enqueue(event.data);
            return;
          }
          message.skipped = true;
          break;
        case 'trailers':
          events.shift();
          message.trailerFields = event.fields;
          break;
        case 'end':
          events.shift();
          finishMessage(message, null);
          break;
        default: {
          // 'error', 'incomplete', 'closed' inside a message: left for the iterator to report.
          const error = event.type === 'error' ? event.error : new IncompleteMessageError();
          finishMessage(message, error);
          if (deliver) return;
        }
      }
    }
  }

  function finishMessage(message, error) {
    message.done = true;
    const body = message.cancelled ? null : message.controller;
    if (error === null) {
      // A body cut short by skipping must not look complete to whoever still reads it.
      if (message.skipped) body?.error(new Error('@httpspan/wasm: the body was skipped: the next message was asked for before it was read'));
      else body?.close();
      message.resolveTrailers(message.trailerFields);
    } else {
      body?.error(error);
      message.rejectTrailers(error);
    }
  }

  function messageOf(event) {
    const message = { done: false, controller: null, cancelled: false, skipped: false, trailerFields: [] };
    const trailers = new Promise((resolve, reject) => {
      message.resolveTrailers = resolve;
      message.rejectTrailers = reject;
    });
    // A rejection nobody awaits is the body's error too, which the caller sees there.
    trailers.catch(() => {});
    const head = event.head;
    const bodyless = head.framing === 'none' || (head.framing === 'length' && head.contentLength === 0n);
    // No body, no trailer section: nothing to wait for (its end event is taken by the next call).
    if (bodyless) message.resolveTrailers([]);
    const body = bodyless ? null : new ReadableStream({
      start(controller) { message.controller = controller; },
      pull: () => advance(message, true),
      cancel() { message.cancelled = true; },
    }, { highWaterMark: 0 });
    return { message, value: { head, offset: event.offset, body, trailers } };
  }

  const iterator = {
    async next() {
      if (current !== null) await advance(current, false);
      current = null;
      const event = await nextEvent();
      switch (event.type) {
        case 'head': {
          events.shift();
          const { message, value } = messageOf(event);
          current = message;
          return { done: false, value };
        }
        case 'closed':
          return { done: true, value: undefined };
        case 'incomplete':
          throw new IncompleteMessageError();
        case 'error':
          throw event.error;
        default:
          throw new Error(`@httpspan/wasm: unexpected decoder event ${event.type}`);
      }
    },
    async return() {
      if (!over) {
        over = true;
        await input.cancel();
        decoder.free();
      }
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  if (kind === 'response') iterator.queueRequestMethod = (method) => decoder.queueRequestMethod(method);
  return iterator;
}

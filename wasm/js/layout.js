// The span layout the module writes (wasm/src/layout.rs): word positions, state and flag
// values, framings and the stream decoder's events. `attach` checks them against the module's own.

// Word positions and values of the span layout. `attach` checks them against the module's own.
export const STATE = 0;
export const HEAD_LEN = 1;
export const INFO = 2;
export const FLAGS = 3;
export const CONTENT_LENGTH = 4;
export const KNOWN_BITMAP = 6;
export const START_A = 8;
export const START_B = 9;
export const FIELD_COUNT = 10;
export const KNOWN_INDEX = 11;
export const FIELDS = 27;
export const MAX_FIELDS = 255;
export const SPANS_LEN = 601;
export const PARTIAL = 0;
export const COMPLETE = 1;
export const FAILED = 2;
export const FLAG_CHUNKED = 1;
export const FLAG_KEEP_ALIVE = 2;
export const FLAG_CONTENT_LENGTH = 4;
export const FLAG_INTERIM = 8;
export const FLAG_SWITCHES_PROTOCOLS = 16;
export const FRAMING_SHIFT = 8;
export const LAYOUT = {
  STATE, HEAD_LEN, INFO, FLAGS, CONTENT_LENGTH, KNOWN_BITMAP, START_A, START_B, FIELD_COUNT,
  KNOWN_INDEX, FIELDS, MAX_FIELDS, SPANS_LEN, PARTIAL, COMPLETE, FAILED, FLAG_CHUNKED,
  FLAG_KEEP_ALIVE, FLAG_CONTENT_LENGTH, FLAG_INTERIM, FLAG_SWITCHES_PROTOCOLS, FRAMING_SHIFT,
  FRAMING_NO_BODY: 0, FRAMING_LENGTH: 1, FRAMING_CHUNKED: 2, FRAMING_UNTIL_CLOSE: 3,
};
export const FRAMINGS = ['none', 'length', 'chunked', 'until-close'];
export const STATES = ['partial', 'complete', 'error'];

// Stream decoder events (EVENT_* in wasm/src/lib.rs).
export const EVENT_NEED_MORE = 0;
export const EVENT_HEAD = 1;
export const EVENT_BODY = 2;
export const EVENT_TRAILERS = 3;
export const EVENT_MESSAGE_END = 4;
export const EVENT_CLOSED = 5;
export const EVENT_INCOMPLETE = 6;
export const EVENT_ERROR = 7;
export const EVENT_CHUNK_LINE = 8;

/** The number of words a span array needs: pass a `Uint32Array` of this length as `out`. */
export const SPANS_LENGTH = SPANS_LEN;

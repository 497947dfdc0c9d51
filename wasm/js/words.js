// Reading and copying span words, and checking the input given to a parser.

import { CONTENT_LENGTH, FIELDS, FIELD_COUNT, FLAGS, FLAG_CONTENT_LENGTH, HEAD_LEN, INFO } from './layout.js';
import { u8 } from './module.js';
import { ParseError } from './errors.js';
import { bigU64 } from './text.js';

export function usedWords(words, at) {
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
export function copyWords(words, at, used) {
  const copy = new Array(used);
  for (let i = 0; i < used; i++) copy[i] = words[at + i] | 0;
  return copy;
}

/** The known-header slot of field `i` of complete head words, or 0xff. */
export function knownSlot(spans, i) {
  const knownAt = FIELDS + 2 * spans[FIELD_COUNT];
  return (spans[knownAt + (i >> 2)] >>> (8 * (i & 3))) & 0xff;
}

export function contentLengthOf(spans) {
  return spans[FLAGS] & FLAG_CONTENT_LENGTH ? bigU64(spans[CONTENT_LENGTH], spans[CONTENT_LENGTH + 1]) : null;
}

export function errorAt(words, at, response) {
  return new ParseError(words[at + INFO], words[at + HEAD_LEN], response);
}

export function checkBytes(bytes) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array');
}

export function checkLength(length, room) {
  if (!(Number.isInteger(length) && length >= 0 && length <= room)) {
    throw new RangeError(`length must be an integer from 0 to ${room} (the capacity asked of input())`);
  }
}

// The largest input a head parser reads (HEAD_WINDOW in wasm/src/lib.rs): no head reaches past it.
export const HEAD_WINDOW = 65544;
export const NO_BYTES = new Uint8Array(0);

/**
 * A writable view of `length` bytes at `ptr` in the module's memory, made again only when the
 * one given (`view`, made for `length` bytes) went stale or has another place or length.
 */
export function memoryView(view, ptr, length) {
  if (view !== null && view.length === length && view.byteOffset === ptr && length !== 0) return view;
  return u8().subarray(ptr, ptr + length);
}

// Turning bytes into strings: a head's text decoded once, one character per byte, and spans as
// slices of it.

import { HEAD_LEN } from './layout.js';

// A head becomes one string, one character per byte (Latin-1), so that every span's text is a
// slice of it with the same offsets. One decoder call per head is much cheaper than building
// strings per field. In Node, Buffer's latin1Slice does exactly this, in a third less time than
// TextDecoder. Elsewhere, see latin1Text.
export const asciiDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const wideDecoder = new TextDecoder('utf-16le', { ignoreBOM: true });
const latin1Slice = globalThis.process?.versions?.node ? globalThis.Buffer?.prototype?.latin1Slice : undefined;

export function headText(spans, bytes) {
  const len = spans[HEAD_LEN];
  if (latin1Slice !== undefined) return latin1Slice.call(bytes, 0, len);
  return latin1Text(len === bytes.length ? bytes : bytes.subarray(0, len));
}

/**
 * `bytes` as a string, one character per byte, without Node's Buffer: the WHATWG 'latin1' decoder
 * is really windows-1252, so ASCII decodes as UTF-8 and anything else is widened to UTF-16 code
 * units first. Text is ASCII exactly when its UTF-8 decoding keeps every byte as one character
 * and has no U+FFFD: a valid sequence of bytes above 0x7F decodes to fewer characters than
 * bytes, an invalid one to U+FFFD. Checking the string costs less than a flag the module would
 * find by reading every byte of every head. Exported for the tests; not part of the package's
 * API (api.js).
 */
export function latin1Text(bytes) {
  const ascii = asciiDecoder.decode(bytes);
  if (ascii.length === bytes.length && !ascii.includes('\uFFFD')) return ascii;
  const wide = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) wide[i] = bytes[i];
  return wideDecoder.decode(wide);
}

// Spans shorter than this are made into strings from their bytes (see the views' text method).
export const SHORT_SPAN = 16;

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

export function spanText(text, word) {
  const offset = word & 0xffff;
  return text.slice(offset, offset + (word >>> 16));
}

export function span(word) {
  return { offset: word & 0xffff, length: word >>> 16 };
}

export function bigU64(lo, hi) {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

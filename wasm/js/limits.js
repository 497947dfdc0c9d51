import { MAX_FIELDS } from './layout.js';

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

export function limitNumbers(options, extraKeys) {
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

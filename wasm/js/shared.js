// parseRequest and parseResponse over parsers shared per set of limits.

import { limitNumbers } from './limits.js';
import { RequestParser, ResponseParser, requestMethodOf } from './parsers.js';

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

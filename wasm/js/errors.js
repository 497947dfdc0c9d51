// The errors the API throws or returns: ParseError (where and why the input is invalid) and
// StaleViewError (a view read after what it reads changed).

import { ERROR_KINDS, memory } from './module.js';

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

export function stale(what = 'this view of the span words', reason = 'memory-grew') {
  throw new StaleViewError(what, reason);
}

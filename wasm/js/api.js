// The public API, re-exported by each entry point (node.js, web.js, workerd.js).
export { SPANS_LENGTH } from './layout.js';
export { KNOWN_HEADERS, buildInfo } from './module.js';
export { ParseError, StaleViewError } from './errors.js';
export { RequestSpans, ResponseSpans } from './views.js';
export { RequestParser, ResponseParser } from './parsers.js';
export { parseRequest, parseResponse } from './shared.js';
export { Decoder } from './decoder.js';
export { FetchConversionError, toHeaders, toNodeHeaders, toRequest, toResponse } from './fetch.js';
export { IncompleteMessageError, decodeStream } from './stream.js';

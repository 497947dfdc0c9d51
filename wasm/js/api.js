// The public API, re-exported by each entry point (node.js, web.js, workerd.js).
export {
  Decoder,
  KNOWN_HEADERS,
  ParseError,
  RequestParser,
  RequestSpans,
  ResponseParser,
  ResponseSpans,
  SPANS_LENGTH,
  StaleViewError,
  buildInfo,
  parseRequest,
  parseResponse,
} from './core.js';
export { FetchConversionError, toHeaders, toNodeHeaders, toRequest, toResponse } from './fetch.js';
export { IncompleteMessageError, decodeStream } from './stream.js';

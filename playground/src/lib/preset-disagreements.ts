// One line per smuggling preset (requests and responses) saying which parsers frame its bytes differently (the groups of
// framing.ts's disagreementLine, parsers by their short names). The lines are what the real
// columns answered; tests/unit/parsers.test.ts recomputes every line from the wasm builds, so a
// parser update that changes an answer fails the test until the line is updated.

import type { CompareColumn } from './compare.ts';

/** Short names of the parser columns, by column id. */
const SHORT_NAMES: Record<string, string> = {
  strict: 'httpspan',
  llhttp: 'llhttp',
  httparse: 'httparse',
  picohttpparser: 'picohttpparser',
  go: 'Go',
};

/** A column's short name in the disagreement lines. */
export function shortName(c: CompareColumn): string {
  return SHORT_NAMES[c.id] ?? c.label;
}

/** The disagreement line of each smuggling preset, by preset id. */
export const PRESET_DISAGREEMENTS: Readonly<Record<string, string>> = {
  "cl-te": "httparse, picohttpparser, Go: reads 2 requests (chunked 0, body 0) | httpspan, llhttp: rejects",
  "duplicate-content-length": "All agree: rejects.",
  "te-space-before-colon": "httpspan, llhttp, httparse, picohttpparser: rejects | Go: reads 1 request (Content-Length 48)",
  "te-xchunked": "All agree: rejects.",
  "te-chunked-identity": "All agree: rejects.",
  "obs-fold-transfer-encoding": "httpspan, llhttp, httparse: rejects | picohttpparser, Go: reads 1 request (Content-Length 48)",
  "bare-lf-field-line": "httparse, picohttpparser, Go: reads 1 request (Content-Length 43) | httpspan, llhttp: rejects",
  "chunk-size-overflow": "All agree: rejects.",
  "te-in-http10": "httpspan, httparse, picohttpparser: rejects | llhttp: reads 1 request (body 5) | Go: reads 1 request (body 0)",
  "nul-in-header": "All agree: rejects.",
  "response-te-space-before-colon": "httpspan, llhttp, httparse, picohttpparser: rejects | Go: reads 1 response (Content-Length 48)",
  "response-te-in-http10": "httpspan, httparse, picohttpparser: rejects | llhttp: reads 2 responses (body 0, body 5) | Go: reads 1 response (until close 48)",
  "response-cl-te": "httparse, picohttpparser, Go: reads 2 responses (chunked 0, Content-Length 5) | httpspan, llhttp: rejects",
  "response-duplicate-content-length": "All agree: rejects.",
  "response-head-content-length": "All agree: reads 2 responses (body 0, body 0).",
};

// The compare view's other parsers as the site loads them: this module is imported
// dynamically (ComparePanel), so the first paint fetches none of it; the three modules and
// Go's wasm_exec.js are separate assets fetched when the compare view first needs them.

import '../../../parsers/dist/wasm_exec.js';
import versions from '../../../parsers/dist/versions.json';
import type { ExternalParser } from './common.ts';
import { loadGo } from './go.ts';
import { loadHttparse } from './httparse.ts';
import { loadPicohttpparser } from './picohttpparser.ts';

const HTTPARSE_URL = new URL('../../../parsers/dist/httparse.wasm', import.meta.url);
const PICO_URL = new URL('../../../parsers/dist/picohttpparser.wasm', import.meta.url);
const GO_URL = new URL('../../../parsers/dist/go.wasm', import.meta.url);

/** The three columns, in the order they are shown; each failure is reported on its own. */
export function loadExternalParsers(): Promise<PromiseSettledResult<ExternalParser>>[] {
  return [
    loadHttparse(HTTPARSE_URL, versions.httparse),
    loadPicohttpparser(PICO_URL, versions.picohttpparser),
    loadGo(GO_URL, versions.go),
  ].map((p) => p.then((value) => ({ status: 'fulfilled' as const, value }), (reason: unknown) => ({ status: 'rejected' as const, reason })));
}

// The compare view's other parsers loaded in Node from what parsers/build.sh built (the same
// files the site serves), for the unit tests and the terminal command.

import { readFileSync } from 'node:fs';
import type { BuildInfo, ExternalParser } from '../src/lib/parsers/common.ts';
import { loadGo } from '../src/lib/parsers/go.ts';
import { loadHttparse } from '../src/lib/parsers/httparse.ts';
import { loadPicohttpparser } from '../src/lib/parsers/picohttpparser.ts';

const dist = new URL('../parsers/dist/', import.meta.url);
const file = (name: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(new URL(name, dist)));

/** httparse, picohttpparser and Go, from parsers/dist/. */
export async function loadBuiltParsers(): Promise<{ httparse: ExternalParser; pico: ExternalParser; go: ExternalParser }> {
  const versions = JSON.parse(readFileSync(new URL('versions.json', dist), 'utf8')) as Record<string, BuildInfo>;
  await import(/* @vite-ignore */ new URL('wasm_exec.js', dist).href);
  return {
    httparse: await loadHttparse(file('httparse.wasm'), versions.httparse),
    pico: await loadPicohttpparser(file('picohttpparser.wasm'), versions.picohttpparser),
    go: await loadGo(file('go.wasm'), versions.go),
  };
}

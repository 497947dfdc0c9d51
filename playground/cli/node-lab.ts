// The lab's configurations in Node: the same parsers the site loads, from parsers/dist/ and
// undici's llhttp, for the unit tests and the terminal grid.

import { loadLlhttp } from '../src/lib/llhttp.ts';
import { labConfigs, type LabConfig } from '../src/lib/lab/configs.ts';
import { readLlhttpWasm } from '../vite-plugins/llhttp.ts';
import { loadBuiltParsers } from './node-parsers.ts';

/** Every configuration of the lab, loaded in Node. */
export async function loadLabConfigs(): Promise<LabConfig[]> {
  const { httparse, pico, go } = await loadBuiltParsers();
  const llhttp = await loadLlhttp(readLlhttpWasm());
  return labConfigs({ llhttp, external: [httparse, pico, go] });
}

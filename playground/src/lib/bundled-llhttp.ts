// The llhttp module bundled with the site (vite-plugins/llhttp.ts), loaded once for the panels
// that use it.
import llhttpUrl, { undiciVersion } from 'virtual:llhttp-wasm';
import { loadLlhttp, type Llhttp } from './llhttp.ts';

/** How the panels name it. */
export const LLHTTP_LABEL = `llhttp (undici ${undiciVersion})`;

let loading: Promise<Llhttp> | null = null;

/** The module, instantiated on first use. */
export function bundledLlhttp(): Promise<Llhttp> {
  loading ??= loadLlhttp(llhttpUrl);
  return loading;
}

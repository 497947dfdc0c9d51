// Compiled with lib ["ES2022"] alone (no DOM, no Workers types, no Node types) by
// types.test.mjs: the package's types need nothing more.
import { parseRequest, toHeaders } from '../../pkg/index.js';

declare const bytes: Uint8Array;
const result = parseRequest(bytes);
export const target: string | undefined = result.state === 'complete' ? result.target : undefined;
export const headers = result.state === 'complete' ? toHeaders(result) : null;

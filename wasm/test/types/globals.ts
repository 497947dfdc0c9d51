// A consumer with lib ["ES2022"] alone: importing the package must not declare or widen any
// global, so the platform names below stay undeclared and each marked line is an error.
// types.test.mjs expects errors on exactly the lines that end with a must-fail comment.
import { toHeaders, type FetchHeaders } from '../../pkg/index.js';

const h: Headers = 42; // must fail: the package declares no global Headers
const r: Response = 'body'; // must fail: nor Response
const u: URL = {}; // must fail: nor URL
const s: ReadableStream<Uint8Array> = []; // must fail: nor ReadableStream
const m: WebAssembly.Module = 0; // must fail: nor the WebAssembly namespace
declare const head: Parameters<typeof toHeaders>[0];
const fromPackage: FetchHeaders = toHeaders(head);
fromPackage.toString(); // must fail: without a platform Headers, the package's is unknown
export { h, r, u, s, m };

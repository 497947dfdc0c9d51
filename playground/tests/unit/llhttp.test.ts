// llhttp (undici's wasm build) driven by src/lib/llhttp.ts, and the Vite plugin that provides it.

import { ERROR, TYPE } from 'undici/lib/llhttp/constants.js';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLlhttp, type Llhttp } from '../../src/lib/llhttp.ts';
import { VIRTUAL_ID, llhttpWasm, readLlhttpWasm, readUndiciVersion } from '../../vite-plugins/llhttp.ts';

/** One byte per character, so offsets in the strings below are byte offsets. */
const bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const text = (data: Uint8Array): string => String.fromCharCode(...data);

let llhttp: Llhttp;
beforeAll(async () => {
  llhttp = await loadLlhttp(readLlhttpWasm());
});

describe('readLlhttpWasm', () => {
  it('decodes both of undici builds into valid modules', () => {
    for (const build of ['simd', 'baseline'] as const) {
      const wasm = readLlhttpWasm(build);
      expect(Array.from(wasm.subarray(0, 4))).toEqual([0x00, 0x61, 0x73, 0x6d]);
      expect(WebAssembly.validate(wasm)).toBe(true);
      const exports = WebAssembly.Module.exports(new WebAssembly.Module(wasm)).map((e) => e.name);
      expect(exports).toEqual(expect.arrayContaining(['llhttp_execute', 'llhttp_finish', 'llhttp_get_error_pos', 'malloc', 'free']));
    }
  });

  it("agrees with undici's constants on the values llhttp.ts hard-codes", () => {
    expect([TYPE.REQUEST, TYPE.RESPONSE]).toEqual([1, 2]);
    expect([ERROR.OK, ERROR.INVALID_EOF_STATE, ERROR.PAUSED, ERROR.PAUSED_UPGRADE]).toEqual([0, 14, 21, 22]);
  });

  it('reads the undici version', () => {
    expect(readUndiciVersion()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('loadLlhttp', () => {
  it('accepts a compiled module and a URL', async () => {
    const wasm = readLlhttpWasm();
    const input = bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
    const fromModule = await loadLlhttp(new WebAssembly.Module(wasm));
    expect(fromModule.parse(input, 'request').status).toBe('complete');
    // A data: URL exercises the fetch path (with the application/wasm type: compileStreaming).
    const url = `data:application/wasm;base64,${btoa(text(wasm))}`;
    const fromUrl = await loadLlhttp(url);
    expect(fromUrl.parse(input, 'request').messages[0].target).toBe('/');
  });
});

describe('Llhttp.parse: requests', () => {
  it('reads a GET: method, target, version, field lines', () => {
    const input = 'GET /a?b=1 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n';
    const r = llhttp.parse(bytes(input), 'request');
    expect(r.status).toBe('complete');
    expect(r.error).toBeNull();
    expect(r.consumed).toBe(input.length);
    expect(r.messages).toHaveLength(1);
    const m = r.messages[0];
    expect(m).toMatchObject({
      method: 'GET',
      target: '/a?b=1',
      version: 'HTTP/1.1',
      headers: [['Host', 'example.com'], ['Accept', '*/*']],
      trailers: [],
      bodyLength: 0,
      keepAlive: true,
      upgrade: false,
      offset: 0,
      complete: true,
    });
    expect(m.status).toBeUndefined();
  });

  it('keeps the whitespace after a field value, which llhttp does not trim', () => {
    const r = llhttp.parse(bytes('GET / HTTP/1.1\r\nHost: a\r\nX: y  \r\nEmpty:\r\n\r\n'), 'request');
    expect(r.messages[0].headers).toEqual([['Host', 'a'], ['X', 'y  '], ['Empty', '']]);
  });

  it('reads a POST body framed by Content-Length', () => {
    const r = llhttp.parse(bytes('POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello'), 'request');
    expect(r.status).toBe('complete');
    expect(r.messages[0].method).toBe('POST');
    expect(r.messages[0].bodyLength).toBe(5);
    expect(text(r.messages[0].body)).toBe('hello');
  });

  it('decodes a chunked body and reads its trailer fields', () => {
    const input = 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\nX-Sum: 5\r\n\r\n';
    const r = llhttp.parse(bytes(input), 'request');
    expect(r.status).toBe('complete');
    expect(r.consumed).toBe(input.length);
    const m = r.messages[0];
    expect(text(m.body)).toBe('abcde');
    expect(m.bodyLength).toBe(5);
    expect(m.headers).toEqual([['Host', 'a'], ['Transfer-Encoding', 'chunked']]);
    expect(m.trailers).toEqual([['X-Sum', '5']]);
  });

  it('reads pipelined requests, with the offset where each starts', () => {
    // The empty line before the first request is skipped: llhttp's message begins at byte 2.
    const input = '\r\nPOST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET /y HTTP/1.1\r\nHost: a\r\n\r\n';
    const r = llhttp.parse(bytes(input), 'request');
    expect(r.status).toBe('complete');
    expect(r.messages.map((m) => [m.method, m.target, m.offset, m.bodyLength, m.complete])).toEqual([
      ['POST', '/x', 2, 3, true],
      ['GET', '/y', 53, 0, true],
    ]);
    expect(input.slice(53, 56)).toBe('GET');
  });

  it('reports an invalid header token with the offset of the bad byte', () => {
    const input = bytes('GET / HTTP/1.1\r\nHo st: a\r\n\r\n');
    const r = llhttp.parse(input, 'request');
    expect(r.status).toBe('error');
    expect(r.error).toEqual({ code: 'HPE_INVALID_HEADER_TOKEN', reason: 'Invalid header token', offset: 18 });
    expect(input[18]).toBe(0x20); // the space inside the name
    expect(r.consumed).toBe(18);
    expect(r.messages).toEqual([]);
  });

  it('reports a truncated head as partial', () => {
    const r = llhttp.parse(bytes('GET / HTTP/1.1\r\nHost: a\r\nContent-'), 'request');
    expect(r).toEqual({ status: 'partial', messages: [], error: null, consumed: 33 });
  });

  it('reports a truncated body as partial, with the message unfinished', () => {
    const r = llhttp.parse(bytes('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nab'), 'request');
    expect(r.status).toBe('partial');
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0]).toMatchObject({ complete: false, bodyLength: 2 });
  });

  it('stops after an Upgrade request and leaves the rest unread', () => {
    const input = 'GET /chat HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n\x81\x05hello';
    const r = llhttp.parse(bytes(input), 'request');
    expect(r.status).toBe('complete');
    expect(r.messages[0].upgrade).toBe(true);
    expect(r.consumed).toBe(input.indexOf('\x81'));
  });

  it('stops after a CONNECT request', () => {
    const r = llhttp.parse(bytes('CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\nxyz'), 'request');
    expect(r.status).toBe('complete');
    expect(r.messages[0]).toMatchObject({ method: 'CONNECT', target: 'a:443', upgrade: true });
    expect(r.consumed).toBe(39);
  });

  it('rejects data after Connection: close', () => {
    const r = llhttp.parse(bytes('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\n\r\n'), 'request');
    expect(r.status).toBe('error');
    expect(r.error?.code).toBe('HPE_CLOSED_CONNECTION');
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0].keepAlive).toBe(false);
  });

  it('reads an empty input as complete with no message', () => {
    expect(llhttp.parse(new Uint8Array(0), 'request')).toEqual({ status: 'complete', messages: [], error: null, consumed: 0 });
  });

  it('frees what each parse allocates', () => {
    const input = bytes(`POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 20000\r\n\r\n${'x'.repeat(20000)}`);
    llhttp.parse(input, 'request');
    const before = llhttp.memoryBytes;
    for (let i = 0; i < 200; i++) llhttp.parse(input, 'request');
    // 200 leaked copies of the input would be 4 MB.
    expect(llhttp.memoryBytes).toBe(before);
  });
});

describe('Llhttp.parse: responses', () => {
  const twoResponses = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n';

  it('reads no body in a response to HEAD, despite its Content-Length', () => {
    const r = llhttp.parse(bytes(twoResponses), 'response', 'HEAD');
    expect(r.status).toBe('complete');
    expect(r.messages.map((m) => [m.status, m.bodyLength, m.offset])).toEqual([
      [200, 0, 0],
      [200, 0, 38],
    ]);
    expect(r.messages[0].headers).toEqual([['Content-Length', '5']]);
    expect(r.messages[0].method).toBeUndefined();
  });

  it('reads the Content-Length body of a response to GET (here: the next status-line)', () => {
    const r = llhttp.parse(bytes(twoResponses), 'response', 'GET');
    expect(r.messages[0].bodyLength).toBe(5);
    expect(text(r.messages[0].body)).toBe('HTTP/');
    expect(r.status).toBe('error');
    expect(r.error?.code).toBe('HPE_INVALID_CONSTANT');
  });

  it('reads a body delimited by the end of the stream', () => {
    const r = llhttp.parse(bytes('HTTP/1.1 200 OK\r\n\r\nabc'), 'response');
    expect(r.status).toBe('complete');
    expect(r.messages[0]).toMatchObject({ status: 200, bodyLength: 3, keepAlive: false, complete: true });
  });

  it('reads no body in 1xx, 204 and 304 responses', () => {
    const input = 'HTTP/1.1 100 Continue\r\nContent-Length: 3\r\n\r\nHTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n';
    const r = llhttp.parse(bytes(input), 'response');
    expect(r.status).toBe('complete');
    expect(r.messages.map((m) => [m.status, m.bodyLength])).toEqual([[100, 0], [204, 0], [304, 0]]);
  });

  it('stops after a 101 and after a 2xx to CONNECT', () => {
    const switching = llhttp.parse(bytes('HTTP/1.1 101 Switching Protocols\r\nUpgrade: ws\r\nConnection: upgrade\r\n\r\nxyz'), 'response');
    expect(switching.status).toBe('complete');
    expect(switching.messages[0].upgrade).toBe(true);
    expect(switching.consumed).toBe(70);
    const tunnel = llhttp.parse(bytes('HTTP/1.1 200 OK\r\n\r\nxyz'), 'response', 'CONNECT');
    expect(tunnel.messages[0]).toMatchObject({ status: 200, upgrade: true, bodyLength: 0 });
    expect(tunnel.consumed).toBe(19);
    // Not a 2xx: an ordinary response, with a body.
    const refused = llhttp.parse(bytes('HTTP/1.1 407 No\r\nContent-Length: 2\r\n\r\nxy'), 'response', 'CONNECT');
    expect(refused.messages[0]).toMatchObject({ status: 407, upgrade: false, bodyLength: 2 });
    expect(refused.consumed).toBe(40);
  });
});

describe('llhttpWasm plugin', () => {
  /** Calls a hook, whether the plugin gives it as a function or as { handler }. */
  function hook(plugin: Plugin, name: 'configResolved' | 'configureServer' | 'resolveId' | 'load') {
    const h = plugin[name] as unknown;
    const fn = (typeof h === 'function' ? h : (h as { handler: unknown }).handler) as (...args: unknown[]) => unknown;
    return (...args: unknown[]) => fn.apply({}, args);
  }

  it('serves the module in dev', async () => {
    const plugin = llhttpWasm();
    hook(plugin, 'configResolved')({ command: 'serve', base: '/' } as ResolvedConfig);
    expect(hook(plugin, 'resolveId')(VIRTUAL_ID)).toBe('\0' + VIRTUAL_ID);
    const code = String(hook(plugin, 'load')('\0' + VIRTUAL_ID));
    expect(code).toContain('export default "/__llhttp/llhttp_simd.wasm"');
    expect(code).toMatch(/export const undiciVersion = "\d+\.\d+\.\d+"/);

    type Middleware = (req: { url?: string }, res: unknown, next: () => void) => void;
    let middleware: Middleware | undefined;
    hook(plugin, 'configureServer')({ middlewares: { use: (m: Middleware) => (middleware = m) } });
    const headers: Record<string, string> = {};
    let body: Uint8Array | undefined;
    const res = { setHeader: (k: string, v: string) => (headers[k] = v), end: (b: Uint8Array) => (body = b) };
    let passed = 0;
    middleware!({ url: '/src/main.ts' }, res, () => passed++);
    expect(passed).toBe(1);
    middleware!({ url: '/__llhttp/llhttp_simd.wasm?v=1' }, res, () => passed++);
    expect(passed).toBe(1);
    expect(headers['Content-Type']).toBe('application/wasm');
    expect(body).toEqual(readLlhttpWasm());
  });

  it('emits the module as an asset in a build, at a URL relative to the chunk', async () => {
    const entry = 'virtual:test-entry';
    const result = await build({
      configFile: false,
      logLevel: 'silent',
      base: './',
      plugins: [
        llhttpWasm(),
        {
          name: 'test-entry',
          resolveId: (id) => (id === entry ? '\0' + entry : null),
          load: (id) => (id === '\0' + entry ? `import url from '${VIRTUAL_ID}'; console.log(url);` : null),
        },
      ],
      build: { write: false, rolldownOptions: { input: entry } },
    });
    const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
    const asset = outputs.find((o) => o.type === 'asset' && /^assets\/llhttp_simd-[\w-]+\.wasm$/.test(o.fileName));
    expect(asset).toBeDefined();
    expect(new Uint8Array((asset as { source: Uint8Array }).source)).toEqual(readLlhttpWasm());
    const chunk = outputs.find((o) => o.type === 'chunk') as { fileName: string; code: string };
    // base './': resolved against the chunk's own URL (both are in assets/), not the site root.
    expect(chunk.fileName).toMatch(/^assets\//);
    const name = asset!.fileName.slice('assets/'.length);
    expect(chunk.code).toMatch(new RegExp(`new URL\\(\`${name.replace(/[.-]/g, '\\$&')}\`,\\s*import\\.meta\\.url\\)\\.href`));
  }, 30_000);
});

describe('timer', () => {
  it('parses the same bytes again and again, counting spans, and leaves parse() as it was', () => {
    const input = bytes('GET /a HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n');
    const timer = llhttp.timer(input, 'request');
    for (let i = 0; i < 3; i++) {
      expect(timer.run()).toBe(0);
      // message begin, url, two names, two values, headers complete, message complete
      expect(timer.spans).toBe(8);
    }
    const bad = llhttp.timer(bytes('GET / HTTP/1.1\r\nB(d: 1\r\n\r\n'), 'request');
    expect(bad.run()).not.toBe(0);
    bad.free();
    timer.free();
    expect(() => timer.run()).toThrow(/after free/);
    // The callbacks record again once no timer runs.
    const result = llhttp.parse(input, 'request');
    expect(result.status).toBe('complete');
    expect(result.messages[0].headers).toEqual([
      ['Host', 'x'],
      ['Accept', '*/*'],
    ]);
  });

  it('leaks nothing over many timers', () => {
    const input = bytes('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    llhttp.timer(input, 'request').free();
    const before = llhttp.memoryBytes;
    for (let i = 0; i < 2000; i++) {
      const timer = llhttp.timer(input, 'request');
      timer.run();
      timer.free();
    }
    expect(llhttp.memoryBytes).toBe(before);
  });
});

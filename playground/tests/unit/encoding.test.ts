import { describe, expect, it } from 'vitest';
import { Decoder, parseRequest } from '@httpspan/wasm';
import {
  CRLF_TEXT,
  CR_TEXT,
  LF_TEXT,
  bytesToEscaped,
  bytesToRaw,
  copyCommand,
  curlCaveats,
  escapedToBytes,
  hasBareLf,
  lfToCrlf,
  rawToBytes,
  shellQuote,
  toCurl,
  toEscapedString,
  toPrintfNc,
  type CurlRequest,
} from '../../src/lib/encoding.ts';
import { latin1Bytes } from '../../src/lib/bytes.ts';
import { rng } from './random.ts';

/** Random byte arrays: every byte value alone, all 256 in order, and random mixes biased to CR/LF/'\\'. */
function* samples(): Generator<Uint8Array> {
  const random = rng(7);
  yield new Uint8Array(0);
  for (let b = 0; b < 256; b++) yield Uint8Array.of(b);
  yield new Uint8Array(256).map((_, i) => i);
  yield new Uint8Array(256).map((_, i) => 255 - i);
  const special = [0x0d, 0x0a, 0x5c, 0x78, 0x09, 0x00, 0x7f, 0x80, 0xff, 0x27, 0x22, 0x25];
  for (let i = 0; i < 400; i++) {
    const n = Math.floor(random() * 80);
    yield new Uint8Array(n).map(() =>
      random() < 0.4 ? special[Math.floor(random() * special.length)] : Math.floor(random() * 256),
    );
  }
}

const bytes = (s: string) => latin1Bytes(s);
const list = (b: Uint8Array) => Array.from(b);

describe('raw view', () => {
  it('shows controls as Control Pictures and LF with a real newline', () => {
    expect(bytesToRaw(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'))).toBe(
      'GET / HTTP/1.1␍␊\nHost: a␍␊\n␍␊\n',
    );
    expect(bytesToRaw(Uint8Array.of(0x00, 0x09, 0x1b, 0x1f, 0x7f, 0x20, 0x7e))).toBe('␀␉␛␟␡ ~');
    expect(bytesToRaw(Uint8Array.of(0x80, 0xe9, 0xff))).toBe('\u0080éÿ');
    expect(CRLF_TEXT).toBe('␍␊\n');
    expect(CR_TEXT).toBe('␍');
    expect(LF_TEXT).toBe('␊\n');
    expect(list(rawToBytes(CRLF_TEXT))).toEqual([0x0d, 0x0a]);
    expect(list(rawToBytes(CR_TEXT + LF_TEXT))).toEqual([0x0d, 0x0a]);
  });

  it('reads typed and pasted text', () => {
    // '␊' then a real newline is one LF; a real newline alone is a bare LF.
    expect(list(rawToBytes('a␊\nb'))).toEqual([0x61, 0x0a, 0x62]);
    expect(list(rawToBytes('a\nb'))).toEqual([0x61, 0x0a, 0x62]);
    expect(list(rawToBytes('a␊\n\nb'))).toEqual([0x61, 0x0a, 0x0a, 0x62]);
    expect(list(rawToBytes('a␊b'))).toEqual([0x61, 0x0a, 0x62]);
    expect(list(rawToBytes('\r\t'))).toEqual([0x0d, 0x09]);
    expect(list(rawToBytes('␍␊'))).toEqual([0x0d, 0x0a]);
    expect(list(rawToBytes('␀␡'))).toEqual([0x00, 0x7f]);
    // U+0000–U+00FF are their byte; anything else is UTF-8.
    expect(list(rawToBytes('é'))).toEqual([0xe9]);
    expect(list(rawToBytes('☃'))).toEqual([0xe2, 0x98, 0x83]);
    expect(list(rawToBytes('😀'))).toEqual([0xf0, 0x9f, 0x98, 0x80]);
    expect(list(rawToBytes('\ud800'))).toEqual([0xef, 0xbf, 0xbd]);
    // Pictures the raw view never shows (␠ U+2420, ␤ U+2424) are plain Unicode text.
    expect(list(rawToBytes('␠'))).toEqual([0xe2, 0x90, 0xa0]);
  });

  it('round-trips every byte array', () => {
    let count = 0;
    for (const b of samples()) {
      expect(list(rawToBytes(bytesToRaw(b)))).toEqual(list(b));
      count++;
    }
    expect(count).toBeGreaterThan(600);
  });
});

describe('escaped view', () => {
  it('escapes what is not printable ASCII, with a newline after each \\n', () => {
    expect(bytesToEscaped(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'))).toBe(
      'GET / HTTP/1.1\\r\\n\nHost: a\\r\\n\n\\r\\n\n',
    );
    expect(bytesToEscaped(Uint8Array.of(0x5c, 0x09, 0x00, 0x1f, 0x7f, 0x80, 0xff, 0x78))).toBe(
      '\\\\\\t\\x00\\x1f\\x7f\\x80\\xffx',
    );
  });

  it('reads escapes, ignores layout, keeps other characters', () => {
    const ok = (text: string) => {
      const r = escapedToBytes(text);
      if ('error' in r) throw new Error(r.error);
      return list(r.bytes);
    };
    expect(ok('a\\r\\nb')).toEqual([0x61, 0x0d, 0x0a, 0x62]);
    expect(ok('a\\r\\n\r\nb\n')).toEqual([0x61, 0x0d, 0x0a, 0x62]);
    expect(ok('\\xFF\\xfe\\x00')).toEqual([0xff, 0xfe, 0x00]);
    expect(ok('\\\\x41')).toEqual([0x5c, 0x78, 0x34, 0x31]);
    expect(ok('\tA')).toEqual([0x09, 0x41]);
    expect(ok('é☃')).toEqual([0xe9, 0xe2, 0x98, 0x83]);
    expect(ok('')).toEqual([]);
  });

  it('reports malformed escapes at their backslash', () => {
    expect(escapedToBytes('ab\\q')).toEqual({ error: expect.stringContaining('\\q'), index: 2 });
    expect(escapedToBytes('\\x4')).toEqual({ error: expect.stringContaining('two hex digits'), index: 0 });
    expect(escapedToBytes('a\\x4g')).toEqual({ error: expect.stringContaining('two hex digits'), index: 1 });
    expect(escapedToBytes('abc\\')).toEqual({ error: expect.stringContaining('backslash'), index: 3 });
    expect(escapedToBytes('\\r\\n\n\\')).toMatchObject({ index: 5 });
  });

  it('round-trips every byte array', () => {
    for (const b of samples()) {
      const r = escapedToBytes(bytesToEscaped(b));
      expect('bytes' in r && list(r.bytes)).toEqual(list(b));
    }
  });
});

describe('line ends', () => {
  it('finds and fixes bare LFs', () => {
    expect(hasBareLf(bytes('a\r\nb\r\n'))).toBe(false);
    expect(hasBareLf(bytes('\n'))).toBe(true);
    expect(hasBareLf(bytes('a\r\nb\n'))).toBe(true);
    expect(hasBareLf(bytes('a\r\rb'))).toBe(false);
    expect(list(lfToCrlf(bytes('GET / HTTP/1.1\nHost: a\r\n\n')))).toEqual(
      list(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n')),
    );
    expect(list(lfToCrlf(bytes('\n\n\r')))).toEqual(list(bytes('\r\n\r\n\r')));
    for (const b of samples()) {
      const fixed = lfToCrlf(b);
      expect(hasBareLf(fixed)).toBe(false);
      // Only CRs were added: removing each CR that precedes an LF gives back the input when
      // the input had no CR LF of its own; in general, an already fixed input stays the same.
      expect(list(lfToCrlf(fixed))).toEqual(list(fixed));
    }
  });
});

describe('escaped string literal', () => {
  it('writes a double-quoted literal', () => {
    expect(toEscapedString(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'))).toBe(
      '"GET / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n"',
    );
    expect(toEscapedString(bytes('say "hi"\\\t\x00\x7f\xe9'))).toBe('"say \\"hi\\"\\\\\\t\\x00\\x7f\\xe9"');
  });

  it('escapes a hex digit right after \\xNN, so that C reads two digits too', () => {
    expect(toEscapedString(bytes('\x80AG\x01\x0123'))).toBe('"\\x80\\x41G\\x01\\x01\\x32\\x33"');
  });

  it('means the same bytes when evaluated as JavaScript', () => {
    for (const b of samples()) {
      const value = new Function(`return ${toEscapedString(b)};`)() as string;
      expect(list(latin1Bytes(value))).toEqual(list(b));
    }
  });
});

// -- Commands

/** A CurlRequest from bytes of one request, via the wasm package (as the UI would). */
function requestOf(text: string): CurlRequest {
  const input = bytes(text);
  const decoder = new Decoder('request');
  const events = [...decoder.push(input), ...decoder.finish()];
  decoder.free();
  const head = events.find((e) => e.type === 'head');
  if (head?.type !== 'head') throw new Error('no head');
  const body: number[] = [];
  for (const e of events) if (e.type === 'body') body.push(...e.data);
  const trailers = events.find((e) => e.type === 'trailers');
  return {
    method: head.head.method,
    target: head.head.target,
    version: head.head.version,
    headers: head.head.fields.map((f) => [f.name, f.value]),
    body: Uint8Array.from(body),
    chunked: head.head.chunked,
    trailers: trailers?.type === 'trailers' ? trailers.fields.map((f) => [f.name, f.value]) : undefined,
  };
}

describe('shellQuote', () => {
  it('single-quotes printable text and uses $\'...\' otherwise', () => {
    expect(shellQuote('a b!$`"')).toBe(`'a b!$\`"'`);
    expect(shellQuote("it's")).toBe("$'it\\'s'");
    expect(shellQuote('a\r\n\t\\!\x00\xe9')).toBe("$'a\\r\\n\\t\\\\\\x21\\x00\\xe9'");
  });
});

describe('toCurl', () => {
  it('writes a GET with only what curl would not send by itself', () => {
    expect(toCurl(requestOf('GET /a?b=c HTTP/1.1\r\nHost: example.com\r\n\r\n'))).toBe(
      "curl --http1.1 -H 'User-Agent:' -H 'Accept:' 'http://example.com/a?b=c'",
    );
    expect(
      toCurl(requestOf('GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: x\r\nAccept: */*\r\nX-Empty:\r\n\r\n')),
    ).toBe("curl --http1.1 -H 'User-Agent: x' -H 'Accept: */*' -H 'X-Empty;' 'http://localhost/'");
  });

  it('passes Host when curl would write it otherwise', () => {
    expect(toCurl(requestOf('GET / HTTP/1.1\r\nHost: Example.com:80\r\n\r\n'))).toBe(
      "curl --http1.1 -H 'Host: Example.com:80' -H 'User-Agent:' -H 'Accept:' 'http://Example.com:80/'",
    );
    expect(toCurl(requestOf('GET / HTTP/1.1\r\nHost:\r\n\r\n'))).toBe(
      "curl --http1.1 -H 'Host;' -H 'User-Agent:' -H 'Accept:' 'http://localhost/'",
    );
    expect(toCurl(requestOf('GET / HTTP/1.0\r\n\r\n'), { host: 'h' })).toBe(
      "curl --http1.0 -H 'Host:' -H 'User-Agent:' -H 'Accept:' 'http://h/'",
    );
  });

  it('writes methods, bodies and forms', () => {
    const post = toCurl(
      requestOf('POST /p HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nit\'s\r\n'),
    );
    expect(post).toBe(
      "curl --http1.1 -H 'Content-Type: text/plain' -H 'Content-Length: 6' -H 'User-Agent:' -H 'Accept:' " +
        "--data-binary $'it\\'s\\r\\n' 'http://a/p'",
    );
    expect(toCurl(requestOf('HEAD / HTTP/1.1\r\nHost: a\r\n\r\n'))).toMatch(/^curl --http1\.1 -I /);
    expect(toCurl(requestOf('DELETE /x HTTP/1.1\r\nHost: a\r\n\r\n'))).toMatch(/ -X DELETE /);
    expect(toCurl(requestOf('POST /x HTTP/1.1\r\nHost: a\r\n\r\n'))).toMatch(/ -X POST /);
    expect(toCurl(requestOf('OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n'))).toBe(
      "curl --http1.1 -X OPTIONS --request-target '*' -H 'User-Agent:' -H 'Accept:' 'http://a'",
    );
    expect(toCurl(requestOf('GET /a/../b HTTP/1.1\r\nHost: a\r\n\r\n'))).toMatch(/--path-as-is/);
    expect(toCurl(requestOf('CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n'))).toBeNull();
    // A body starting with @ is not a file name; one holding a NUL comes from printf.
    expect(toCurl(requestOf('POST / HTTP/1.1\r\nHost: a\r\nContent-Type: x\r\nContent-Length: 2\r\n\r\n@f'))).toMatch(
      / --data-raw '@f' /,
    );
    expect(
      toCurl(requestOf('POST / HTTP/1.1\r\nHost: a\r\nContent-Type: x\r\nContent-Length: 3\r\n\r\na\x00b')),
    ).toMatch(/^printf 'a\\000b' \| curl .* --data-binary @- 'http:\/\/a\/'$/);
  });

  it('re-chunks a chunked body and says what differs', () => {
    const req = requestOf(
      'POST /u HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Type: x\r\n\r\n' +
        '2;e=1\r\nab\r\n0\r\nX-T: 1\r\n\r\n',
    );
    expect(req.chunked).toBe(true);
    expect(curlCaveats(req)).toEqual([
      'curl chunks the body itself: chunk sizes and extensions are its own, and the trailer fields are not sent',
    ]);
    expect(toCurl(req)).toBe(
      '# curl chunks the body itself: chunk sizes and extensions are its own, and the trailer fields are not sent\n' +
        "curl --http1.1 -H 'Transfer-Encoding: chunked' -H 'Content-Type: x' -H 'User-Agent:' -H 'Accept:' " +
        "--data-binary 'ab' 'http://a/u'",
    );
    const absolute = requestOf('GET http://b.example/x HTTP/1.1\r\nHost: b.example\r\n\r\n');
    expect(curlCaveats(absolute)).toEqual([]);
    expect(toCurl(absolute)).toBe(
      "curl --http1.1 --request-target 'http://b.example/x' -H 'Host: b.example' -H 'User-Agent:' -H 'Accept:' " +
        "'http://b.example/x'",
    );
    expect(toCurl(requestOf('GET http://[::1]:8080/ HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n'))).toMatch(
      / -g 'http:\/\/\[::1\]:8080\/'$/,
    );
  });
});

describe('toPrintfNc', () => {
  it('writes a POSIX printf format', () => {
    expect(toPrintfNc(bytes("GET /%41 HTTP/1.1\r\nHost: a'b\\\x00\xff\r\n\r\n"), 'example.com', 8080)).toBe(
      "printf 'GET /%%41 HTTP/1.1\\r\\nHost: a\\047b\\\\\\000\\377\\r\\n\\r\\n' | nc example.com 8080",
    );
  });

  it('offers curl when the request parses and printf | nc otherwise', () => {
    const ok = 'GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n';
    expect(copyCommand(bytes(ok), requestOf(ok)).kind).toBe('curl');
    const connect = 'CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n';
    expect(copyCommand(bytes(connect), requestOf(connect)).command).toMatch(/\| nc a 443$/);
    const bad = 'GET / HTTP/1.1\r\nHost: a\nX: y\r\n\r\n';
    expect(parseRequest(bytes(bad)).state).toBe('error');
    expect(copyCommand(bytes(bad), null, { host: 'localhost', port: 8000 })).toEqual({
      kind: 'printf-nc',
      command: "printf 'GET / HTTP/1.1\\r\\nHost: a\\nX: y\\r\\n\\r\\n' | nc localhost 8000",
    });
  });
});

// -- The commands, run: printf in sh and bash prints exactly the bytes; curl sends the request.

const node = await (async () => {
  try {
    const cp = (await import('node:child_process' as string)) as {
      spawnSync(cmd: string, args: string[], opts?: object): { status: number | null; stdout: Uint8Array };
      spawn(cmd: string, args: string[], opts?: object): { on(ev: string, f: (code: number) => void): void };
    };
    const net = (await import('node:net' as string)) as {
      createServer(f: (socket: Socket) => void): Server;
    };
    return { cp, net };
  } catch {
    return null;
  }
})();
interface Socket {
  on(ev: 'data', f: (chunk: Uint8Array) => void): void;
  end(data: string): void;
}
interface Server {
  listen(port: number, host: string, f: () => void): void;
  address(): { port: number };
  close(): void;
}
const has = (tool: string) => node !== null && node.cp.spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

describe.skipIf(!has('bash'))('commands in a shell', () => {
  it('printf prints exactly the bytes in sh and bash', () => {
    const random = rng(99);
    const inputs: Uint8Array[] = [new Uint8Array(256).map((_, i) => i)];
    for (let i = 0; i < 20; i++) inputs.push(new Uint8Array(60).map(() => Math.floor(random() * 256)));
    inputs.push(bytes('-x %s %d'), bytes('--'));
    for (const shell of ['sh', 'bash']) {
      for (const input of inputs) {
        const command = toPrintfNc(input, 'h', 1).replace(/ \| nc .*$/, '');
        const out = node!.cp.spawnSync(shell, ['-c', command]);
        expect(out.status).toBe(0);
        expect(list(out.stdout)).toEqual(list(input));
      }
    }
  });

  it('$\'...\' words are the bytes they quote', () => {
    const random = rng(5);
    for (let i = 0; i < 20; i++) {
      const input = new Uint8Array(40).map(() => 1 + Math.floor(random() * 255));
      const out = node!.cp.spawnSync('bash', ['-c', `printf '%s' ${shellQuote(input)}`]);
      expect(list(out.stdout)).toEqual(list(input));
    }
  });

  it.skipIf(!has('curl'))('curl sends the same request', async () => {
    const cases = [
      'GET /a/b?c=d HTTP/1.1\r\nHost: HOST\r\nX-Empty:\r\nX-Latin: caf\xe9\r\n\r\n',
      "POST /p HTTP/1.1\r\nHost: HOST\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\nit's\r\n\\x\x00\xff!@",
      'POST /q HTTP/1.1\r\nHost: HOST\r\nContent-Length: 3\r\n\r\n@ab',
      'PUT /r HTTP/1.1\r\nUser-Agent: ua\r\nHost: HOST\r\nAccept: */*\r\nContent-Length: 0\r\n\r\n',
      'GET /a/./../b HTTP/1.1\r\nHost: HOST\r\n\r\n',
      'GET / HTTP/1.0\r\nHost: HOST\r\n\r\n',
      'OPTIONS * HTTP/1.1\r\nHost: HOST\r\n\r\n',
      'HEAD /h HTTP/1.1\r\nHost: HOST\r\n\r\n',
      // Above curl's Expect: 100-continue threshold, and through the printf pipe.
      `POST /big HTTP/1.1\r\nHost: HOST\r\nContent-Type: a/b\r\nContent-Length: 2000\r\n\r\n${'x\x00'.repeat(1000)}`,
      `POST /big HTTP/1.1\r\nHost: HOST\r\nContent-Type: a/b\r\nContent-Length: 2000\r\n\r\n${'y'.repeat(2000)}`,
      'GET http://HOST/abs HTTP/1.1\r\nHost: HOST\r\n\r\n',
      // An empty chunked body: curl must still send the last chunk.
      'PATCH /e HTTP/1.1\r\nHost: HOST\r\nTransfer-Encoding: chunked\r\nContent-Type: x\r\n\r\n0\r\n\r\n',
    ];
    for (const template of cases) {
      const { bytes: received, port } = await capture(async (port) => {
        const text = template.replaceAll('HOST', `localhost:${port}`);
        const command = toCurl(requestOf(text))!;
        await run('bash', ['-c', `${command} -s -o /dev/null --max-time 5`]);
      });
      const expected = template.replaceAll('HOST', `localhost:${port}`);
      expect(sameRequest(received, bytes(expected)), `${JSON.stringify(expected)} vs ${JSON.stringify(String.fromCharCode(...received))}`).toBe(true);
    }
    // Chunked: curl chunks again, so compare the decoded bodies and the rest of the head.
    const { bytes: received, port } = await capture(async (port) => {
      const req = requestOf(
        `POST /u HTTP/1.1\r\nHost: localhost:${port}\r\nTransfer-Encoding: chunked\r\nContent-Type: x\r\n\r\n` +
          '5;e=1\r\nhello\r\n3\r\n \x00!\r\n0\r\n\r\n',
      );
      await run('bash', ['-c', `${toCurl(req)!} -s -o /dev/null --max-time 5`]);
    });
    const got = requestOf(String.fromCharCode(...received));
    expect(got.chunked).toBe(true);
    expect(list(got.body)).toEqual(list(bytes('hello \x00!')));
    expect(got.headers).toEqual([
      ['Host', `localhost:${port}`],
      ['Transfer-Encoding', 'chunked'],
      ['Content-Type', 'x'],
    ]);
  });
});

/** Runs a command and waits for it. */
function run(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve) => node!.cp.spawn(cmd, args, { stdio: 'ignore' }).on('exit', resolve));
}

/** Listens on a free port, lets `send` connect, and returns the first request's bytes. */
async function capture(send: (port: number) => Promise<void>): Promise<{ bytes: Uint8Array; port: number }> {
  const chunks: number[] = [];
  const server = node!.net.createServer((socket) => {
    const decoder = new Decoder('request');
    let done = false;
    socket.on('data', (chunk) => {
      chunks.push(...chunk);
      if (done) return;
      for (const e of decoder.push(chunk)) {
        if (e.type === 'end' || e.type === 'error') {
          done = true;
          decoder.free();
          socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
          break;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  try {
    await send(port);
  } finally {
    server.close();
  }
  return { bytes: Uint8Array.from(chunks), port };
}

/** The same request-line, the same field lines in any order, and the same bytes after the head. */
function sameRequest(a: Uint8Array, b: Uint8Array): boolean {
  const split = (x: Uint8Array) => {
    const text = String.fromCharCode(...x);
    const end = text.indexOf('\r\n\r\n');
    const [line, ...fields] = text.slice(0, end).split('\r\n');
    return { line, fields: fields.sort(), rest: text.slice(end) };
  };
  const [x, y] = [split(a), split(b)];
  return x.line === y.line && JSON.stringify(x.fields) === JSON.stringify(y.fields) && x.rest === y.rest;
}

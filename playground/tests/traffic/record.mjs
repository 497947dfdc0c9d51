// Records real HTTP/1.1 traffic on the loopback interface: a local Node server, tcpdump writing
// one capture per scenario, and real clients (curl, Python's http.client, Node's fetch, a raw
// pipelining client, a raw CL+TE request). Each client says what it sent and received; that
// view, not a parser's, is written next to the captures as the tests' expectations.
//
// Needs root (tcpdump on lo) and tcpdump, curl, python3 on PATH.
// Usage: node tests/traffic/record.mjs OUTDIR

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';

const out = process.argv[2] ?? 'tests/traffic/out';
mkdirSync(out, { recursive: true });

const CHUNKS = ['first chunk\n', 'second, longer chunk of the body\n', 'last\n'];
const CHUNKED_LENGTH = CHUNKS.join('').length;

/** The server every scenario talks to: /small (Content-Length), /chunked, /upload (echoes the length). */
function startServer() {
  const server = http.createServer((req, res) => {
    let received = 0;
    req.on('data', (d) => (received += d.length));
    req.on('end', () => {
      if (req.url === '/small') res.end('hello');
      else if (req.url === '/chunked') {
        for (const c of CHUNKS) res.write(c);
        res.end();
      } else if (req.url === '/upload') res.end(`got ${received}`);
      else {
        res.statusCode = 404;
        res.end('not here');
      }
    });
  });
  server.keepAliveTimeout = 5000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs tcpdump for the server's port around `client()`: on lo (Ethernet headers, microseconds),
 * or with `any` on the pseudo-interface 'any' (Linux cooked v2 headers) in nanoseconds.
 */
async function record(name, client, options = {}) {
  // A capture can lose a packet (the kernel drops it before tcpdump reads it); the tests need
  // every byte the server saw, so such a capture is recorded again.
  for (let attempt = 1; ; attempt++) {
    const { shortfall, ...scenario } = await recordOnce(name, client, options);
    if (!shortfall) return scenario;
    if (attempt === 3) throw new Error(`${name}: three captures in a row lost packets; the last: ${shortfall}`);
    console.log(`${name}: ${shortfall}; recording again`);
  }
}

/**
 * Payload bytes per direction of the capture `file`, read from the pcap records themselves (IPv4
 * over Ethernet or Linux cooked v2), and whether the file ends in the middle of a record (tcpdump
 * stopped while writing it); either shortfall has the capture recorded again.
 */
function payloadBytes(file, port) {
  const bytes = { toServer: 0, toClient: 0, cutShort: false };
  const data = readFileSync(file);
  if (data.length < 24) return { ...bytes, cutShort: true };
  const magic = data.readUInt32LE(0);
  const little = magic === 0xa1b2c3d4 || magic === 0xa1b23c4d;
  const u32 = (at) => (little ? data.readUInt32LE(at) : data.readUInt32BE(at));
  const linkType = u32(20);
  const linkHeader = linkType === 1 ? 14 : linkType === 276 ? 20 : -1;
  if (linkHeader < 0) throw new Error(`${file}: link type ${linkType} is neither Ethernet nor Linux cooked v2`);
  for (let at = 24; at < data.length; ) {
    const captured = at + 16 <= data.length ? u32(at + 8) : Infinity;
    const packet = at + 16;
    if (packet + captured > data.length) return { ...bytes, cutShort: true };
    const protocol = data.readUInt16BE(linkType === 1 ? packet + 12 : packet);
    const ip = packet + linkHeader;
    if (protocol === 0x0800 && ip + 20 <= packet + captured && data[ip + 9] === 6) {
      const ipLength = data.readUInt16BE(ip + 2);
      const tcp = ip + (data[ip] & 0x0f) * 4;
      const payload = ipLength - (tcp - ip) - (data[tcp + 12] >> 4) * 4;
      if (data.readUInt16BE(tcp + 2) === port) bytes.toServer += payload;
      else if (data.readUInt16BE(tcp) === port) bytes.toClient += payload;
    }
    at = packet + captured;
  }
  return bytes;
}

/** One recording of `record`; `shortfall` says how the capture misses bytes the server read or wrote, if it does. */
async function recordOnce(name, client, { any = false } = {}) {
  const server = await startServer();
  const sockets = [];
  server.on('connection', (socket) => sockets.push(socket));
  const port = server.address().port;
  const recordedAt = Date.now() / 1000;
  const file = join(out, `${name}.pcap`);
  const where = any ? ['-i', 'any', '--time-stamp-precision=nano'] : ['-i', 'lo'];
  const dump = spawn('tcpdump', [...where, '--immediate-mode', '-U', '-n', '-s', '0', '-w', file, `tcp port ${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  await new Promise((resolve, reject) => {
    dump.stderr.on('data', (d) => {
      err += d;
      if (err.includes('listening on')) resolve();
    });
    dump.on('exit', (code) => reject(new Error(`tcpdump exited (${code}): ${err}`)));
  });
  // tcpdump says it listens a little before its filter sees packets.
  await sleep(1000);
  let expect;
  try {
    expect = await client(port);
  } finally {
    await sleep(500);
    dump.removeAllListeners('exit');
    const exited = new Promise((r) => dump.on('exit', r));
    dump.kill('SIGTERM');
    await exited;
    server.closeAllConnections();
    server.close();
  }
  const captured = /(\d+) packets? captured/.exec(err)?.[1];
  console.log(`${name}: ${file} (${captured ?? '?'} packets)`);
  if (!captured || captured === '0') throw new Error(`tcpdump captured nothing for ${name}: ${err}`);
  const moved = payloadBytes(file, port);
  const read = sockets.reduce((n, s) => n + s.bytesRead, 0);
  const written = sockets.reduce((n, s) => n + s.bytesWritten, 0);
  const shortfall = moved.cutShort
    ? 'the capture file ends inside a packet record'
    : moved.toServer < read || moved.toClient < written
      ? `the capture holds ${moved.toServer} of the ${read} bytes the server read and ${moved.toClient} of the ${written} it wrote`
      : null;
  return { shortfall, name, file: `${name}.pcap`, port, recordedAt, linkType: any ? 276 : 1, nanoseconds: any, expect };
}

/** Runs a client program (asynchronously: the server answers from this process) and returns its stdout. */
function run(cmd, args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${cmd} exited with ${code}: ${stderr}`));
    });
    child.stdin.end(input ?? '');
  });
}

/** Sends `bytes` on one connection and reads until the server closes it or `until(received)` holds. */
function raw(port, bytes, until) {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(bytes));
    let got = '';
    s.setEncoding('latin1');
    s.on('data', (d) => {
      got += d;
      if (until?.(got)) s.end();
    });
    s.on('close', () => resolve(got));
    s.on('error', reject);
    setTimeout(() => s.destroy(), 5000);
  });
}

const statusLines = (text) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

const scenarios = [];

// curl, three URLs on one keep-alive connection; -w prints curl's own view of each transfer.
scenarios.push(
  await record('curl-keepalive', async (port) => {
    const base = `http://127.0.0.1:${port}`;
    const lines = (await run('curl', ['-s', '--http1.1', '-o', '/dev/null', '-o', '/dev/null', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{num_connects}\\n', `${base}/small`, `${base}/chunked`, `${base}/small`]))
      .trim()
      .split('\n')
      .map((l) => l.split(' ').map(Number));
    return {
      connections: 1 + lines.slice(1).reduce((n, l) => n + l[2], 0),
      requests: [['GET', '/small'], ['GET', '/chunked'], ['GET', '/small']],
      responses: lines.map(([status, size]) => ({ status, bodyLength: size })),
      chunked: [false, true, false],
    };
  }),
);

// curl with Expect: 100-continue and a 3000-byte body: an interim 100, then the final response.
scenarios.push(
  await record('curl-100-continue', async (port) => {
    const body = 'x'.repeat(3000);
    const text = await run('curl', ['-s', '--http1.1', '-H', 'Expect: 100-continue', '--data-binary', '@-', '-D', '-', '-o', '/dev/null', `http://127.0.0.1:${port}/upload`], body);
    return {
      connections: 1,
      requests: [['POST', '/upload']],
      requestBodies: [body.length],
      responses: statusLines(text).map((status) => ({ status, bodyLength: status === 100 ? 0 : `got ${body.length}`.length })),
    };
  }),
);

// Python's http.client: three requests on one connection, a POST among them.
scenarios.push(
  await record('python-http-client', async (port) => {
    const script = `
import http.client, json, sys
c = http.client.HTTPConnection('127.0.0.1', ${port})
out = []
for method, path, body in [('GET', '/small', None), ('POST', '/upload', b'abcdef'), ('GET', '/chunked', None)]:
    c.request(method, path, body=body)
    r = c.getresponse()
    data = r.read()
    out.append({'status': r.status, 'bodyLength': len(data), 'chunked': r.chunked})
c.close()
json.dump(out, sys.stdout)
`;
    const got = JSON.parse(await run('python3', ['-c', script]));
    return {
      connections: 1,
      requests: [['GET', '/small'], ['POST', '/upload'], ['GET', '/chunked']],
      requestBodies: [0, 6, 0],
      responses: got.map((r) => ({ status: r.status, bodyLength: r.bodyLength })),
      chunked: got.map((r) => r.chunked),
    };
  }, { any: true }),
);

// Node's fetch (undici): two requests in a row on its keep-alive pool.
scenarios.push(
  await record('node-fetch', async (port) => {
    const script = `
const out = [];
for (const path of ['/small', '/chunked']) {
  const r = await fetch('http://127.0.0.1:${port}' + path);
  const b = new Uint8Array(await r.arrayBuffer());
  out.push({ status: r.status, bodyLength: b.length });
}
console.log(JSON.stringify(out));
`;
    const got = JSON.parse(await run(process.execPath, ['--input-type=module', '-e', script]));
    return { requests: [['GET', '/small'], ['GET', '/chunked']], responses: got };
  }),
);

// A pipelining client: three requests in one write, the last asks the server to close.
scenarios.push(
  await record('pipelined', async (port) => {
    const reqs = ['/small', '/chunked', '/small'].map((p, i) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${i === 2 ? 'Connection: close\r\n' : ''}\r\n`);
    const text = await raw(port, reqs.join(''));
    return {
      connections: 1,
      sentInOneWrite: true,
      requests: [['GET', '/small'], ['GET', '/chunked'], ['GET', '/small']],
      responses: statusLines(text).map((status, i) => ({ status, bodyLength: [5, CHUNKED_LENGTH, 5][i] })),
      chunked: [false, true, false],
    };
  }),
);

// A smuggling-shaped request sent raw: Content-Length and Transfer-Encoding: chunked, with a
// second request hidden where a Content-Length reader sees body.
scenarios.push(
  await record('raw-cl-te', async (port) => {
    const smuggled = `GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const bytes = `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`;
    const text = await raw(port, bytes);
    return { connections: 1, sent: bytes, firstRequest: ['POST', '/upload'], smuggledAt: bytes.indexOf('GET /smuggled'), responses: statusLines(text).map((status) => ({ status })) };
  }),
);

writeFileSync(join(out, 'manifest.json'), JSON.stringify({ chunkedLength: CHUNKED_LENGTH, scenarios }, null, 2));
console.log(`${scenarios.length} captures in ${out}`);

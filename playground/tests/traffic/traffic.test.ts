// Real traffic: record.mjs captures curl, Python's http.client, Node's fetch, a pipelining
// client and a raw CL+TE request on lo with tcpdump (as root), and writes what each client
// sent and received. Every capture must read back as those messages, in that order, framed
// as the clients saw them.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, frameCapture, messageBytes, type CaptureReport } from '../../src/lib/capture/report.ts';
import type { CaptureMessage } from '../../src/lib/capture/messages.ts';
import { loadLlhttp } from '../../src/lib/llhttp.ts';
import { readLlhttpWasm } from '../../vite-plugins/llhttp.ts';
import { loadBuiltParsers } from '../../cli/node-parsers.ts';

interface Scenario {
  name: string;
  file: string;
  /** What tcpdump wrote: Ethernet headers on lo, Linux cooked v2 on 'any'; nanosecond timestamps there too. */
  linkType: number;
  nanoseconds: boolean;
  /** Seconds since 1970 when tcpdump was started. */
  recordedAt: number;
  expect: {
    connections?: number;
    requests?: [string, string][];
    requestBodies?: number[];
    responses: { status: number; bodyLength?: number }[];
    chunked?: boolean[];
    sentInOneWrite?: boolean;
    sent?: string;
    smuggledAt?: number;
  };
}

const dir = process.env.TRAFFIC_DIR ?? mkdtempSync(join(tmpdir(), 'httpspan-traffic-'));
let scenarios: Scenario[];

beforeAll(() => {
  if (!process.env.TRAFFIC_DIR) {
    if (process.getuid?.() !== 0) throw new Error('tcpdump on lo needs root: run `make playground-traffic-test` as root');
    const run = spawnSync(process.execPath, [new URL('./record.mjs', import.meta.url).pathname, dir], { encoding: 'utf8', timeout: 180_000 });
    if (run.status !== 0) throw new Error(`record.mjs failed: ${run.stderr}${run.stdout}`);
  }
  scenarios = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).scenarios;
});

function open(name: string): { file: Uint8Array; report: CaptureReport; s: Scenario } {
  const s = scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`no scenario ${name}`);
  const file = new Uint8Array(readFileSync(join(dir, s.file)));
  return { file, report: frameCapture(file), s };
}

const http = (r: CaptureReport) => r.connections.filter((c) => c.skipped === null && (c.toServer.length > 0 || c.toClient.length > 0));
const requests = (r: CaptureReport): CaptureMessage[] => r.messages.filter((m) => m.direction === 'request');
const responses = (r: CaptureReport): CaptureMessage[] => r.messages.filter((m) => m.direction === 'response');

describe.each(['curl-keepalive', 'curl-100-continue', 'python-http-client', 'node-fetch', 'pipelined'])('%s', (name) => {
  it('reads back every message the client sent and received, framed as the client saw it', () => {
    const { file, report, s } = open(name);
    expect(report.problems).toEqual([]);
    expect(report.linkTypes).toEqual([s.linkType]);
    // The pcap magic says the time unit: a1b2c3d4 (microseconds) or a1b23c4d (nanoseconds), here little-endian.
    expect(new DataView(file.buffer, file.byteOffset).getUint32(0, true)).toBe(s.nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4);
    const e = s.expect;
    if (e.connections !== undefined) expect(http(report)).toHaveLength(e.connections);
    for (const c of report.connections) {
      // Timestamps read in their unit: the packets came within seconds of the start.
      expect(c.firstTime - s.recordedAt).toBeGreaterThan(0);
      expect(c.firstTime - s.recordedAt).toBeLessThan(60);
      expect(c.toServer.gaps).toEqual([]);
      expect(c.toClient.gaps).toEqual([]);
      expect(c.toServer.conflicts).toEqual([]);
    }
    expect(requests(report).map((m) => [m.method, m.target])).toEqual(e.requests);
    if (e.requestBodies) expect(requests(report).map((m) => m.bodyLength)).toEqual(e.requestBodies);
    expect(responses(report).map((m) => ({ status: m.status, bodyLength: m.bodyLength }))).toEqual(e.responses.map((x) => ({ status: x.status, bodyLength: x.bodyLength })));
    const finals = responses(report).filter((m) => !m.interim);
    if (e.chunked) expect(finals.map((m) => m.framing === 'chunked')).toEqual(e.chunked);
    expect(report.messages.every((m) => m.outcome === 'complete')).toBe(true);
    // Each final response is paired with the request it answers, on its connection.
    for (const c of report.connections) {
      const own = c.messages.filter((m) => m.direction === 'response' && !m.interim);
      expect(own.map((m) => m.request)).toEqual(own.map((_, i) => i));
    }
  });
});

describe('pipelined', () => {
  it('three requests in one segment are three messages', () => {
    const { report } = open('pipelined');
    const [c] = http(report);
    const reqs = requests(report);
    expect(reqs).toHaveLength(3);
    const chunk = c.toServer.chunks.find((ch) => ch.at <= reqs[0].start && ch.at + ch.length >= reqs[2].end);
    expect(chunk).toBeDefined();
  });
});

describe('curl-100-continue', () => {
  it('the interim 100 and the final response answer the same POST', () => {
    const { report } = open('curl-100-continue');
    const res = responses(report);
    expect(res.map((m) => [m.status, m.interim, m.request, m.requestMethod])).toEqual([[100, true, 0, 'POST'], [200, false, 0, 'POST']]);
  });
});

describe('raw-cl-te', () => {
  it('httpspan rejects the request where the client put both headers; parsers that take Content-Length see the hidden request', async () => {
    const { file, report, s } = open('raw-cl-te');
    const [req] = requests(report);
    // The error is in the head, so no head event names the method: the bytes do.
    expect(new TextDecoder().decode(messageBytes(file, report, req))).toBe(s.expect.sent);
    expect(req.firstLine).toBe('POST /upload HTTP/1.1');
    expect(req.outcome).toBe('error');
    expect(req.error?.code).toBe('content_length_with_transfer_encoding');
    expect(req.end - req.start).toBe(s.expect.sent!.length);
    expect(responses(report).map((m) => m.status)).toEqual(s.expect.responses.map((x) => x.status));
    const { httparse, pico, go } = await loadBuiltParsers();
    const llhttp = await loadLlhttp(readLlhttpWasm());
    const a = agreementOf(file, report, req, { llhttp, llhttpLabel: 'llhttp', external: [httparse, pico, go] });
    expect(a.verdicts).toEqual(['reject', 'reject', 'accept', 'accept', 'accept']);
    expect(a.line).toBe('httparse, picohttpparser, Go: reads 2 requests (chunked 0, body 0) | httpspan, llhttp: rejects');
  });
});

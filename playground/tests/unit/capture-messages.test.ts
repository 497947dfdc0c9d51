// Connections split into messages by httpspan's decoder, on hand-built captures whose messages
// are known because the test wrote them.

import { describe, expect, it } from 'vitest';
import { filterMessages, NO_FILTER } from '../../src/lib/capture/filter.ts';
import { frameCapture, messageBytes, messageFileOffset, summarize, summaryJson, type CaptureReport } from '../../src/lib/capture/report.ts';
import { capture, connection, type SegmentSpec } from './capture-writer.ts';
import { rng } from './random.ts';

const dec = new TextDecoder();

const EXCHANGE = [
  { request: 'GET /one HTTP/1.1\r\nHost: a.test\r\n\r\n', response: 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc' },
  { request: 'POST /two HTTP/1.1\r\nHost: a.test\r\nContent-Length: 4\r\n\r\nwxyz', response: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n' },
  { request: 'HEAD /three HTTP/1.1\r\nHost: b.test\r\n\r\n', response: 'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n' },
  { request: 'GET /four HTTP/1.1\r\nHost: b.test\r\n\r\n', response: 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n' },
];

function shape(report: CaptureReport): string[] {
  return report.messages.map((m) => `${m.connection} ${m.direction} ${m.index} ${m.start}-${m.end} ${m.method ?? m.status} ${m.framing} ${m.bodyLength} ${m.outcome} ${m.request ?? ''}`);
}

describe('messages of a capture', () => {
  it('keep-alive: every request and response, paired, with exact ranges (HEAD frames its response)', () => {
    const file = capture(connection(EXCHANGE, { piece: 9 }));
    const report = frameCapture(file);
    const reqs = report.messages.filter((m) => m.direction === 'request');
    const res = report.messages.filter((m) => m.direction === 'response');
    expect(reqs.map((m) => [m.method, m.target, m.host])).toEqual([['GET', '/one', 'a.test'], ['POST', '/two', 'a.test'], ['HEAD', '/three', 'b.test'], ['GET', '/four', 'b.test']]);
    expect(res.map((m) => [m.status, m.requestMethod, m.request, m.framing, m.bodyLength])).toEqual([
      [200, 'GET', 0, 'length', 3],
      [200, 'POST', 1, 'chunked', 5],
      [200, 'HEAD', 2, 'none', 0],
      [404, 'GET', 3, 'length', 0],
    ]);
    expect(report.messages.every((m) => m.outcome === 'complete')).toBe(true);
    for (const m of report.messages) {
      const sent = EXCHANGE[m.direction === 'request' ? m.index : m.request!][m.direction];
      expect(dec.decode(messageBytes(file, report, m))).toBe(sent);
      const at = messageFileOffset(report, m)!;
      expect(dec.decode(file.subarray(at, at + 4))).toBe(sent.slice(0, 4));
    }
  });

  it('the same messages whatever the segmentation and order of the packets', () => {
    const clean = shape(frameCapture(capture(connection(EXCHANGE))));
    const random = rng(9);
    for (let round = 0; round < 30; round++) {
      const segs = connection(EXCHANGE, { piece: 1 + Math.floor(random() * 40), clientIsn: Math.floor(random() * 2 ** 32) });
      const [head, data] = [segs.slice(0, 3), segs.slice(3)];
      for (let i = data.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [data[i], data[j]] = [data[j], data[i]];
      }
      const dup = data.filter(() => random() < 0.1);
      expect(shape(frameCapture(capture([...head, ...data, ...dup])))).toEqual(clean);
    }
  });

  it('a smuggling-shaped request is an error at its byte, with the rest of the stream in its range', () => {
    const clte = 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\nHost: a\r\n\r\n';
    const report = frameCapture(capture(connection([{ request: clte, response: 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n' }])));
    const [req] = report.messages;
    expect(req.outcome).toBe('error');
    expect(req.error?.code).toBe('content_length_with_transfer_encoding');
    expect([req.start, req.end]).toEqual([0, clte.length]);
    expect(filterMessages(report.messages, new Map(), { ...NO_FILTER, errorsOnly: true })).toEqual(new Set([0]));
  });

  it('bytes after a complete message that are not HTTP are an error of the next message', () => {
    const report = frameCapture(capture(connection([{ request: 'GET / HTTP/1.1\r\nHost: a\r\n\r\n\x00junk', response: '' }])));
    expect(report.messages.map((m) => [m.start, m.end, m.outcome, m.error?.code])).toEqual([
      [0, 27, 'complete', undefined],
      [27, 32, 'error', 'nul'],
    ]);
  });

  it('a connection that is not HTTP/1.1 is listed and skipped with the reason', () => {
    const tls = String.fromCharCode(0x16, 0x03, 0x01, 0x02, 0x00, 0x01);
    const cases: [string, RegExp][] = [
      [tls, /a TLS handshake/],
      ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', /HTTP\/2 connection preface/],
      ['\x01\x02\x03 hello', /are not a request-line/],
    ];
    for (const [first, reason] of cases) {
      const report = frameCapture(capture(connection([{ request: first, response: '' }])));
      expect(report.connections[0].skipped).toMatch(reason);
      expect(report.messages).toEqual([]);
    }
    const smtp = frameCapture(capture(connection([{ request: 'EHLO client.test\r\n', response: '250 mail.test\r\n' }])));
    expect(smtp.connections[0].skipped).toBe('neither side speaks HTTP/1.1: the client starts with 45 48 4c 4f 20 63 6c 69, the server with 32 35 30 20 6d 61 69 6c');
    const empty = frameCapture(capture(connection([])));
    expect(empty.connections[0].skipped).toBe('no payload in either direction');
  });

  it('a gap stops the stream where it starts: the message is cut short, and the gap is noted', () => {
    const segs = connection([{ request: 'POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 30\r\n\r\n' + 'b'.repeat(30), response: '' }], { piece: 20 });
    segs.splice(5, 1);
    const report = frameCapture(capture(segs));
    expect(report.messages.map((m) => m.outcome)).toEqual(['incomplete']);
    expect(report.connections[0].notes).toEqual(['client: 20 bytes missing from the capture at stream byte 40; 19 bytes after the gap are not read']);
  });

  it('after 101 Switching Protocols the rest is not read, and the note says so', () => {
    const up = 'GET /ws HTTP/1.1\r\nHost: a\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n';
    const report = frameCapture(capture(connection([{ request: up, response: 'HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n\x81\x05hello' }])));
    const res = report.messages.filter((m) => m.direction === 'response');
    expect(res.map((m) => m.status)).toEqual([101]);
    expect(report.connections[0].notes[0]).toMatch(/^server: bytes 77 to 85 are not read as HTTP\/1.1/);
  });

  it('without the handshake the roles and messages still come out', () => {
    const segs = connection(EXCHANGE.slice(0, 1)).filter((s: SegmentSpec) => !s.flags?.includes('S'));
    const report = frameCapture(capture(segs));
    expect(report.connections[0].rolesFrom).toBe('payload');
    expect(report.messages.map((m) => m.method ?? m.status)).toEqual(['GET', 200]);
  });

  it('the filters and the JSON summary', () => {
    const report = frameCapture(capture(connection(EXCHANGE)));
    expect(filterMessages(report.messages, new Map(), { ...NO_FILTER, text: 'B.TEST' })).toEqual(new Set([4, 5, 6, 7]));
    expect(filterMessages(report.messages, new Map(), { ...NO_FILTER, text: '/two' })).toEqual(new Set([2, 3]));
    const agree = { verdicts: ['accept' as const, 'different' as const], disagree: true, line: 'x' };
    expect(filterMessages(report.messages, new Map([[3, agree]]), { ...NO_FILTER, disagreementsOnly: true })).toEqual(new Set([3]));
    const json = summaryJson(report, new Map([[3, agree]]), ['httpspan', 'llhttp']) as { connections: { client: string; messages: Record<string, unknown>[] }[] };
    expect(json.connections[0].client).toBe('127.0.0.1:40000');
    expect(json.connections[0].messages[3]).toMatchObject({ direction: 'response', index: 1, title: '200 OK', parsers: { httpspan: 'accept', llhttp: 'different' }, agreement: 'x', request: 1 });
    expect(json.connections[0].messages[0]).toMatchObject({ direction: 'request', title: 'GET /one', host: 'a.test', start: 0, parsers: null });
    // What the page gets: no file layout, the same messages, connections naming them by index.
    const summary = summarize(report);
    expect(summary.connections[0].messages).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect('chunks' in summary.connections[0].toServer).toBe(false);
    expect(structuredClone(summary).messages).toEqual(report.messages);
  });
});

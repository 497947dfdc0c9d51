// A capture from file to report: packets, connections, messages, then each message through the
// other parsers. The playground's worker and the terminal command (cli/capture.ts) both run this,
// and both export the same JSON summary.

import { messageAgreement, parserNames, type Agreement, type CaptureParsers } from './agreement.ts';
import { readConnections } from './connections.ts';
import { frameConnections, type CaptureMessage, type HttpConnection } from './messages.ts';
import { LINK_TYPES } from './packet.ts';
import { chunksIn, streamBytes, type TcpStream } from './reassembly.ts';
import type { CaptureProblem } from './reader.ts';

/** Everything but the parsers' agreement, which comes after (it is the slow part). */
export interface CaptureReport {
  format: 'pcap' | 'pcapng';
  bytes: number;
  packets: number;
  segments: number;
  linkTypes: number[];
  problems: CaptureProblem[];
  skippedPackets: { reason: string; count: number; firstPacket: number }[];
  fragments: number[];
  connections: HttpConnection[];
  /** Every message of every connection, connection by connection, each request followed by its responses. */
  messages: CaptureMessage[];
}

export type Phase = 'reading' | 'framing' | 'comparing';

/** What the page shows of a stream: all but where its bytes are in the file (the worker keeps that). */
export type StreamSummary = Omit<TcpStream, 'chunks'>;

/** A connection as the page lists it; its messages are indexes in `ReportSummary.messages`. */
export interface ConnectionSummary extends Omit<HttpConnection, 'toServer' | 'toClient' | 'messages'> {
  toServer: StreamSummary;
  toClient: StreamSummary;
  messages: number[];
}

/** The report without the file's layout: small enough to hand to the page at once. */
export interface ReportSummary extends Omit<CaptureReport, 'connections'> {
  connections: ConnectionSummary[];
}

/** The report as the page needs it. */
export function summarize(report: CaptureReport): ReportSummary {
  const ids = new Map(report.messages.map((m, i) => [m, i]));
  const stream = ({ chunks: _, ...rest }: TcpStream): StreamSummary => rest;
  return {
    ...report,
    connections: report.connections.map((c) => ({ ...c, toServer: stream(c.toServer), toClient: stream(c.toClient), messages: c.messages.map((m) => ids.get(m)!) })),
  };
}

/** The parsers compare at most this much of a message: a long body says nothing more about framing. */
export const MAX_COMPARED_BYTES = 1 << 20;

/** Reads and frames a capture; throws a CaptureError when the file cannot be read at all. */
export function frameCapture(file: Uint8Array, progress?: (phase: Phase, done: number, total: number) => void): CaptureReport {
  const read = readConnections(file, (d, t) => progress?.('reading', d, t));
  const connections = frameConnections(file, read.connections, (d, t) => progress?.('framing', d, t));
  const messages = connections.flatMap((c) => c.messages);
  return {
    format: read.capture.format,
    bytes: file.length,
    packets: read.capture.packets.length,
    segments: read.segments,
    linkTypes: read.capture.linkTypes,
    problems: read.capture.problems,
    skippedPackets: read.skipped,
    fragments: read.fragments,
    connections,
    messages,
  };
}

/** The connection a message belongs to (connection ids are 1-based and in order). */
export function connectionOf(report: CaptureReport, m: CaptureMessage): HttpConnection {
  return report.connections[m.connection - 1];
}

/** A message's bytes, copied out of the capture (at most `limit`). */
export function messageBytes(file: Uint8Array, report: CaptureReport, m: CaptureMessage, limit = Infinity): Uint8Array {
  const c = connectionOf(report, m);
  const stream = m.direction === 'request' ? c.toServer : c.toClient;
  return streamBytes(file, stream, m.start, Math.min(m.end, m.start + limit));
}

/** Where a message's first byte is in the capture file. */
export function messageFileOffset(report: CaptureReport, m: CaptureMessage): number | null {
  const c = connectionOf(report, m);
  const stream = m.direction === 'request' ? c.toServer : c.toClient;
  const [chunk] = chunksIn(stream, m.start, m.start + 1);
  return chunk ? chunk.fileOffset + (m.start - chunk.at) : null;
}

/** The parsers' agreement on one message. */
export function agreementOf(file: Uint8Array, report: CaptureReport, m: CaptureMessage, parsers: CaptureParsers): Agreement {
  return messageAgreement(messageBytes(file, report, m, MAX_COMPARED_BYTES), m.direction, m.requestMethod ?? 'GET', parsers);
}

const endpoint = (e: { address: string; port: number }): string => (e.address.includes(':') ? `[${e.address}]:${e.port}` : `${e.address}:${e.port}`);

/** A message's start line in a few words: 'GET /a', '200 OK', or its error. */
export function messageTitle(m: CaptureMessage): string {
  if (m.method !== undefined) return `${m.method} ${m.target}`;
  if (m.status !== undefined) return `${m.status} ${m.reason ?? ''}`.trim();
  return m.firstLine !== undefined && m.firstLine !== '' ? m.firstLine : '(no start line)';
}

/** The JSON summary: per connection and per message, with each parser's verdict where known. */
export function summaryJson(report: CaptureReport, agreements: ReadonlyMap<number, Agreement>, parsers: readonly string[]): unknown {
  const ids = new Map(report.messages.map((m, i) => [m, i]));
  return {
    format: report.format,
    bytes: report.bytes,
    packets: report.packets,
    linkTypes: report.linkTypes.map((t) => LINK_TYPES[t] ?? `link type ${t}`),
    problems: report.problems,
    skippedPackets: report.skippedPackets,
    ipFragments: report.fragments.length,
    parsers,
    connections: report.connections.map((c) => ({
      id: c.id,
      client: endpoint(c.client),
      server: endpoint(c.server),
      firstTime: c.firstTime,
      lastTime: c.lastTime,
      packets: c.packets,
      bytesToServer: c.toServer.length,
      bytesToClient: c.toClient.length,
      skipped: c.skipped,
      notes: c.notes,
      gaps: { toServer: c.toServer.gaps, toClient: c.toClient.gaps },
      conflicts: { toServer: c.toServer.conflicts, toClient: c.toClient.conflicts },
      messages: c.messages.map((m) => {
        const a = agreements.get(ids.get(m)!);
        return {
          direction: m.direction,
          index: m.index,
          start: m.start,
          end: m.end,
          fileOffset: messageFileOffset(report, m),
          title: messageTitle(m),
          ...(m.host !== undefined ? { host: m.host } : {}),
          ...(m.request !== undefined ? { request: m.request } : {}),
          framing: m.framing ?? null,
          bodyLength: m.bodyLength,
          outcome: m.outcome,
          error: m.error ?? null,
          parsers: a ? Object.fromEntries(parsers.map((p, k) => [p, a.verdicts[k]])) : null,
          agreement: a?.line ?? null,
        };
      }),
    })),
  };
}

export { parserNames };
export type { Agreement, CaptureParsers };

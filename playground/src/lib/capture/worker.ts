// The capture view's Web Worker: reads, reassembles and frames a capture off the main thread,
// posts a summary of it (no file layout, so the page takes it in at once), then runs each
// message through the other parsers and posts their verdicts in batches. It keeps the file: the
// page asks it for a message's bytes and for the JSON export, and those questions are answered
// between batches.

import { init } from '@httpspan/wasm';
import { bundledLlhttp, LLHTTP_LABEL } from '../bundled-llhttp.ts';
import type { ExternalParser } from '../parsers/common.ts';
import { CaptureError } from './reader.ts';
import {
  agreementOf,
  frameCapture,
  messageBytes,
  parserNames,
  summarize,
  summaryJson,
  type Agreement,
  type CaptureParsers,
  type CaptureReport,
  type Phase,
  type ReportSummary,
} from './report.ts';

/** What the page asks. */
export type WorkerRequest =
  | { type: 'open'; file: Blob }
  /** A message's bytes, at most `limit`. */
  | { type: 'bytes'; id: number; limit: number }
  | { type: 'export' };

/** What the worker answers: progress, the report, parser names, verdict batches, done (or an error); bytes and export on request. */
export type WorkerMessage =
  | { type: 'progress'; phase: Phase; done: number; total: number }
  | { type: 'report'; report: ReportSummary }
  | { type: 'parsers'; names: string[]; failed: string[] }
  | { type: 'agreements'; entries: [number, Agreement][]; done: number; total: number }
  | { type: 'done' }
  | { type: 'error'; message: string; offset: number | null }
  | { type: 'bytes'; id: number; bytes: Uint8Array }
  | { type: 'export'; text: string };

const post = (m: WorkerMessage, transfer: Transferable[] = []): void => postMessage(m, { transfer });

let file: Uint8Array | null = null;
let report: CaptureReport | null = null;
const agreements = new Map<number, Agreement>();
let names: string[] = [];
let parsers: Promise<{ parsers: CaptureParsers; failed: string[] }> | null = null;

async function loadParsers(): Promise<{ parsers: CaptureParsers; failed: string[] }> {
  const failed: string[] = [];
  const llhttp = await bundledLlhttp().catch((e: unknown) => {
    failed.push(`llhttp: ${String(e)}`);
    return null;
  });
  const { loadExternalParsers } = await import('../parsers/load.ts');
  const external: ExternalParser[] = [];
  for (const r of await Promise.all(loadExternalParsers())) {
    if (r.status === 'fulfilled') external.push(r.value);
    else failed.push(String(r.reason));
  }
  return { parsers: { llhttp, llhttpLabel: LLHTTP_LABEL, external }, failed };
}

async function open(blob: Blob): Promise<void> {
  await init();
  parsers ??= loadParsers();
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let last = 0;
  const framed = frameCapture(bytes, (phase, done, total) => {
    const now = performance.now();
    if (now - last > 50) {
      last = now;
      post({ type: 'progress', phase, done, total });
    }
  });
  file = bytes;
  report = framed;
  post({ type: 'report', report: summarize(framed) });
  const { parsers: loaded, failed } = await parsers;
  names = parserNames(loaded);
  post({ type: 'parsers', names, failed });
  const total = framed.messages.length;
  let batch: [number, Agreement][] = [];
  let flushed = performance.now();
  for (let i = 0; i < total; i++) {
    const a = agreementOf(bytes, framed, framed.messages[i], loaded);
    agreements.set(i, a);
    batch.push([i, a]);
    if (performance.now() - flushed > 250 || i === total - 1) {
      post({ type: 'agreements', entries: batch, done: i + 1, total });
      batch = [];
      // Let the page's questions (a message's bytes, the export) in between batches.
      await new Promise((resolve) => setTimeout(resolve, 0));
      flushed = performance.now();
    }
  }
  post({ type: 'done' });
}

onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  try {
    if (request.type === 'open') await open(request.file);
    else if (request.type === 'bytes' && file && report) {
      const bytes = messageBytes(file, report, report.messages[request.id], request.limit);
      post({ type: 'bytes', id: request.id, bytes }, [bytes.buffer]);
    } else if (request.type === 'export' && report) {
      post({ type: 'export', text: JSON.stringify(summaryJson(report, agreements, names), null, 2) });
    }
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e), offset: e instanceof CaptureError ? e.offset : null });
  }
};

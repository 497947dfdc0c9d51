// The capture view's Web Worker: reads, reassembles and frames a capture off the main thread,
// posts the report, then runs each message through the other parsers and posts their verdicts
// in batches, so the page shows the connections first and fills in the agreement as it comes.

import { init } from '@httpspan/wasm';
import { bundledLlhttp, LLHTTP_LABEL } from '../bundled-llhttp.ts';
import type { ExternalParser } from '../parsers/common.ts';
import { CaptureError } from './reader.ts';
import { agreementOf, frameCapture, parserNames, type Agreement, type CaptureParsers, type CaptureReport, type Phase } from './report.ts';

/** What the page sends: a capture to open. */
export interface OpenRequest {
  type: 'open';
  bytes: ArrayBuffer;
}

/** What the worker answers, in this order: progress, the report, agreement batches, done (or an error). */
export type WorkerMessage =
  | { type: 'progress'; phase: Phase; done: number; total: number }
  | { type: 'report'; report: CaptureReport; ms: number }
  | { type: 'parsers'; names: string[]; failed: string[] }
  | { type: 'agreements'; entries: [number, Agreement][]; done: number; total: number }
  | { type: 'done'; ms: number }
  | { type: 'error'; message: string; offset: number | null };

const post = (m: WorkerMessage): void => postMessage(m);

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

onmessage = async (event: MessageEvent<OpenRequest>) => {
  const started = performance.now();
  try {
    await init();
    parsers ??= loadParsers();
    const file = new Uint8Array(event.data.bytes);
    let last = 0;
    const report = frameCapture(file, (phase, done, total) => {
      const now = performance.now();
      if (now - last > 50) {
        last = now;
        post({ type: 'progress', phase, done, total });
      }
    });
    post({ type: 'report', report, ms: performance.now() - started });
    const { parsers: loaded, failed } = await parsers;
    post({ type: 'parsers', names: parserNames(loaded), failed });
    const total = report.messages.length;
    let batch: [number, Agreement][] = [];
    let flushed = performance.now();
    for (let i = 0; i < total; i++) {
      batch.push([i, agreementOf(file, report, report.messages[i], loaded)]);
      if (performance.now() - flushed > 250 || i === total - 1) {
        post({ type: 'agreements', entries: batch, done: i + 1, total });
        batch = [];
        flushed = performance.now();
      }
    }
    post({ type: 'done', ms: performance.now() - started });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e), offset: e instanceof CaptureError ? e.offset : null });
  }
};

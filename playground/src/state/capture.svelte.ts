// The connections view's state: the capture being read (in a Web Worker, which keeps the file),
// the summary it reports, the other parsers' verdicts as they arrive, the filters, and the
// message opened in the inspector.

import { SvelteMap } from 'svelte/reactivity';
import type { Agreement } from '../lib/capture/agreement.ts';
import { filterMessages, NO_FILTER, type CaptureFilter } from '../lib/capture/filter.ts';
import type { Phase, ReportSummary } from '../lib/capture/report.ts';
import type { WorkerMessage, WorkerRequest } from '../lib/capture/worker.ts';
import { MAX_SHARE_BYTES } from '../lib/share.ts';
import type { Playground } from './playground.svelte.ts';

export class CaptureView {
  name = $state<string | null>(null);
  report = $state.raw<ReportSummary | null>(null);
  /** Verdicts by message index, as they arrive: a row redraws when its own entry lands, not the whole list. */
  agreements = $state.raw(new SvelteMap<number, Agreement>());
  /** Messages compared so far on which the parsers disagree. */
  disagreements = $state(0);
  parsers = $state.raw<string[]>([]);
  parserProblems = $state.raw<string[]>([]);
  progress = $state.raw<{ phase: Phase; done: number; total: number } | null>(null);
  error = $state<string | null>(null);
  /** Milliseconds from choosing the file to the connections drawn, and to the last verdict. */
  shownMs = $state<number | null>(null);
  comparedMs = $state<number | null>(null);
  filter = $state<CaptureFilter>({ ...NO_FILTER });
  /** The message (index in `report.messages`) open in the inspector. */
  opened = $state<number | null>(null);
  /** The opened message was cut to this many bytes for the inspector. */
  openedCut = $state<number | null>(null);
  /** The bytes handed to the inspector: while the input is still these, it is that message. */
  openedBytes = $state.raw<Uint8Array | null>(null);

  visible: Set<number> = $derived(this.report ? filterMessages(this.report.messages, this.agreements, this.filter) : new Set());

  private worker: Worker | null = null;
  private waiting = new Map<string, (m: WorkerMessage) => void>();

  constructor(private readonly pg: Playground) {}

  open(file: Blob & { name?: string }) {
    this.worker?.terminate();
    this.waiting.clear();
    const started = performance.now();
    this.name = file.name ?? 'capture';
    this.report = null;
    this.agreements = new SvelteMap();
    this.disagreements = 0;
    this.parsers = [];
    this.parserProblems = [];
    this.error = null;
    this.opened = null;
    this.shownMs = this.comparedMs = null;
    this.progress = { phase: 'reading', done: 0, total: 1 };
    const worker = new Worker(new URL('../lib/capture/worker.ts', import.meta.url), { type: 'module' });
    this.worker = worker;
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const m = event.data;
      switch (m.type) {
        case 'progress':
          this.progress = m;
          break;
        case 'report':
          this.report = m.report;
          this.progress = { phase: 'comparing', done: 0, total: m.report.messages.length };
          // Measured once the connections are drawn: the next frame after the report lands.
          requestAnimationFrame(() => (this.shownMs = performance.now() - started));
          break;
        case 'parsers':
          this.parsers = m.names;
          this.parserProblems = m.failed;
          break;
        case 'agreements':
          for (const [id, a] of m.entries) {
            this.agreements.set(id, a);
            if (a.disagree) this.disagreements++;
          }
          this.progress = { phase: 'comparing', done: m.done, total: m.total };
          break;
        case 'done':
          this.progress = null;
          this.comparedMs = performance.now() - started;
          break;
        case 'error':
          this.error = m.message;
          this.progress = null;
          break;
        case 'bytes':
          this.waiting.get(`bytes ${m.id}`)?.(m);
          break;
        case 'export':
          this.waiting.get('export')?.(m);
          break;
      }
    };
    worker.onerror = (e) => {
      this.error = `the capture reader stopped: ${e.message}`;
      this.progress = null;
    };
    this.send({ type: 'open', file });
  }

  private send(request: WorkerRequest) {
    this.worker?.postMessage(request);
  }

  /** Asks the worker and waits for its answer of that kind. */
  private ask<T extends WorkerMessage>(key: string, request: WorkerRequest): Promise<T> {
    return new Promise((resolve) => {
      this.waiting.set(key, (m) => {
        this.waiting.delete(key);
        resolve(m as T);
      });
      this.send(request);
    });
  }

  /** Opens a message in the inspector: its bytes, as requests or as responses to its request's method. */
  async choose(id: number) {
    const report = this.report;
    if (!report) return;
    const m = report.messages[id];
    const answer = await this.ask<Extract<WorkerMessage, { type: 'bytes' }>>(`bytes ${id}`, { type: 'bytes', id, limit: MAX_SHARE_BYTES });
    if (this.report !== report) return;
    this.openedCut = m.end - m.start > MAX_SHARE_BYTES ? MAX_SHARE_BYTES : null;
    this.pg.mode = m.direction;
    if (m.direction === 'response') this.pg.requestMethod = m.requestMethod ?? 'GET';
    this.pg.setBytes(answer.bytes);
    this.openedBytes = answer.bytes;
    this.opened = id;
  }

  /** The JSON summary of the capture (with the verdicts known so far), as a file name and its text. */
  async exportJson(): Promise<{ name: string; text: string } | null> {
    if (!this.report) return null;
    const answer = await this.ask<Extract<WorkerMessage, { type: 'export' }>>('export', { type: 'export' });
    const base = (this.name ?? 'capture').replace(/\.(pcapng|pcap|cap)$/i, '');
    return { name: `${base}.httpspan.json`, text: answer.text };
  }
}

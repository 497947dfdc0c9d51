// The connections view's state: the capture being read (in a Web Worker), its report, the other
// parsers' verdicts as they arrive, the filters, and the message opened in the inspector.

import { SvelteMap } from 'svelte/reactivity';
import type { Agreement } from '../lib/capture/agreement.ts';
import { filterMessages, NO_FILTER, type CaptureFilter } from '../lib/capture/filter.ts';
import { messageBytes, summaryJson, type CaptureReport, type Phase } from '../lib/capture/report.ts';
import type { OpenRequest, WorkerMessage } from '../lib/capture/worker.ts';
import { MAX_SHARE_BYTES } from '../lib/share.ts';
import type { Playground } from './playground.svelte.ts';

export class CaptureView {
  name = $state<string | null>(null);
  file = $state.raw<Uint8Array | null>(null);
  report = $state.raw<CaptureReport | null>(null);
  /** Verdicts by message index, as they arrive: a row redraws when its own entry lands, not the whole list. */
  agreements = $state.raw(new SvelteMap<number, Agreement>());
  /** Messages compared so far on which the parsers disagree. */
  disagreements = $state(0);
  parsers = $state.raw<string[]>([]);
  parserProblems = $state.raw<string[]>([]);
  progress = $state.raw<{ phase: Phase; done: number; total: number } | null>(null);
  error = $state<string | null>(null);
  /** Milliseconds from choosing the file to the connections shown, and to the last verdict. */
  shownMs = $state<number | null>(null);
  comparedMs = $state<number | null>(null);
  filter = $state<CaptureFilter>({ ...NO_FILTER });
  /** The message (index in `report.messages`) open in the inspector. */
  opened = $state<number | null>(null);
  /** The opened message was cut to this many bytes for the inspector. */
  openedCut = $state<number | null>(null);
  /** The bytes handed to the inspector: while the input is still these, it is that message. */
  openedBytes = $state.raw<Uint8Array | null>(null);

  visible: Set<number> = $derived(this.report ? filterMessages(this.report, this.agreements, this.filter) : new Set());

  private worker: Worker | null = null;

  constructor(private readonly pg: Playground) {}

  async open(file: Blob & { name?: string }) {
    this.worker?.terminate();
    const started = performance.now();
    this.name = file.name ?? 'capture';
    this.report = null;
    this.file = null;
    this.agreements = new SvelteMap();
    this.disagreements = 0;
    this.error = null;
    this.opened = null;
    this.shownMs = this.comparedMs = null;
    this.progress = { phase: 'reading', done: 0, total: 1 };
    const bytes = new Uint8Array(await file.arrayBuffer());
    const worker = new Worker(new URL('../lib/capture/worker.ts', import.meta.url), { type: 'module' });
    this.worker = worker;
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const m = event.data;
      switch (m.type) {
        case 'progress':
          this.progress = m;
          break;
        case 'report':
          this.file = bytes;
          this.report = m.report;
          this.progress = { phase: 'comparing', done: 0, total: m.report.messages.length };
          // Measured after the connections are drawn: the next frame after the report lands.
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
          worker.terminate();
          break;
        case 'error':
          this.error = m.message;
          this.progress = null;
          worker.terminate();
          break;
      }
    };
    worker.onerror = (e) => {
      this.error = `the capture reader stopped: ${e.message}`;
      this.progress = null;
    };
    const request: OpenRequest = { type: 'open', bytes: bytes.slice().buffer };
    worker.postMessage(request);
  }

  /** Opens a message in the inspector: its bytes, as requests or as responses to its request's method. */
  choose(id: number) {
    const report = this.report;
    const file = this.file;
    if (!report || !file) return;
    const m = report.messages[id];
    const whole = m.end - m.start;
    this.openedCut = whole > MAX_SHARE_BYTES ? MAX_SHARE_BYTES : null;
    this.pg.mode = m.direction;
    if (m.direction === 'response') this.pg.requestMethod = m.requestMethod ?? 'GET';
    const bytes = messageBytes(file, report, m, MAX_SHARE_BYTES);
    this.pg.setBytes(bytes);
    this.openedBytes = bytes;
    this.opened = id;
  }

  /** The JSON summary of the capture, as a file name and its text. */
  exportJson(): { name: string; text: string } | null {
    if (!this.report) return null;
    const base = (this.name ?? 'capture').replace(/\.(pcapng|pcap|cap)$/i, '');
    return { name: `${base}.httpspan.json`, text: JSON.stringify(summaryJson(this.report, this.agreements, this.parsers), null, 2) };
  }
}

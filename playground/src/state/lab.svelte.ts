// The smuggling lab's state: which page, which pair and forwarding, the input (an editor of its
// own: a Playground instance, so the lab's editor works as the inspector's does) and, on the pair
// page, the origin's responses (a second one), the parsers once loaded, and the lessons solved
// (kept in local storage).

import { bundledLlhttp } from '../lib/bundled-llhttp.ts';
import { runChain, runResponses, type ChainResult, type Direction, type Forwarding } from '../lib/lab/chain.ts';
import { labConfigs, type LabConfig } from '../lib/lab/configs.ts';
import { goalMet, lessonById, lessonBytes, LESSONS, runLesson, type Lesson } from '../lib/lab/lessons.ts';
import { labFragment, parseLabFragment, type LabRoute, type OriginResponses } from '../lib/lab/route.ts';
import type { Llhttp } from '../lib/llhttp.ts';
import type { ExternalParser } from '../lib/parsers/common.ts';
import { Playground } from './playground.svelte.ts';

export type LabView = LabRoute['view'];

const PROGRESS_KEY = 'httpspan-lab-progress';

/** Lesson ids solved, from local storage (none where storage is off). */
function loadProgress(): string[] {
  try {
    const saved = JSON.parse(localStorage.getItem(PROGRESS_KEY) ?? '[]') as unknown;
    return Array.isArray(saved) ? saved.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export class Lab {
  view = $state<LabView>('lessons');
  front = $state('llhttp-insecure');
  back = $state('go');
  forwarding = $state<Forwarding>('raw');
  lessonId = $state<string | null>(null);
  /** The lab's input, with the inspector's editor: requests (a response lesson's, and the grid's when switched, responses). */
  input = new Playground();
  /** The pair page's second input: what the origin answers, empty for none. */
  responses = new Playground();
  llhttp = $state.raw<Llhttp | null>(null);
  external = $state.raw<ExternalParser[]>([]);
  loading = $state<'idle' | 'loading' | 'done'>('idle');
  loadErrors = $state<string[]>([]);
  solved = $state<string[]>([]);

  configs: LabConfig[] = $derived(labConfigs({ llhttp: this.llhttp, external: this.external }));
  /** Whether every configuration is there (llhttp and the three external parsers). */
  ready: boolean = $derived(this.llhttp !== null && this.external.length === 3);
  lesson: Lesson | null = $derived(this.lessonId === null ? null : (lessonById(this.lessonId) ?? null));
  /** The pair the page runs: the lesson's, else the one picked. */
  pair: { front: LabConfig | undefined; back: LabConfig | undefined; forwarding: Forwarding; direction: Direction } = $derived.by(() => {
    const l = this.view === 'lesson' ? this.lesson : null;
    const find = (id: string) => this.configs.find((c) => c.id === id);
    return l
      ? { front: find(l.front), back: find(l.back), forwarding: l.forwarding, direction: l.direction ?? 'request' }
      : { front: find(this.front), back: find(this.back), forwarding: this.forwarding, direction: 'request' };
  });
  result: ChainResult | null = $derived.by(() => {
    const { front, back, forwarding } = this.pair;
    if (!front || !back) return null;
    if (this.view === 'lesson' && this.lesson) return runLesson(this.lesson, this.input.bytes, front, back);
    return runChain(this.input.bytes, front, back, forwarding);
  });
  /** Why the pair page cannot run the origin's responses (a configuration without a response reader), or null. */
  responsesRefused: string | null = $derived.by(() => {
    const without = [this.pair.front, this.pair.back].find((c) => c && !c.parseResponses);
    return without ? `${without.label} reads no responses in the lab: its checks are about requests.` : null;
  });
  /**
   * The pair page's origin responses back through the pair, matched to the requests each side
   * read (or, with no requests typed, all answering the responses' method).
   */
  responseResult: ChainResult | null = $derived.by(() => {
    const { front, back, forwarding } = this.pair;
    if (this.view !== 'pair' || !front || !back || this.responses.bytes.length === 0 || this.responsesRefused) return null;
    const requests = this.input.bytes.length > 0 ? this.result : null;
    return runResponses(this.responses.bytes, front, back, forwarding, requests, this.responses.requestMethod);
  });
  met: boolean = $derived(this.lesson !== null && this.view === 'lesson' && this.result !== null && goalMet(this.lesson, this.result));

  constructor() {
    this.solved = typeof localStorage === 'undefined' ? [] : loadProgress();
    this.responses.mode = 'response';
    this.responses.setBytes(new Uint8Array(0));
  }

  /** Loads llhttp and the other parsers once (they are cached for offline use after that). */
  async load(): Promise<void> {
    if (this.loading !== 'idle') return;
    this.loading = 'loading';
    const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
    const llhttp = bundledLlhttp().then(
      (l) => (this.llhttp = l),
      (e) => (this.loadErrors = [...this.loadErrors, `llhttp: ${message(e)}`]),
    );
    const { loadExternalParsers } = await import('../lib/parsers/load.ts');
    const settled = await Promise.all(loadExternalParsers());
    const loaded: ExternalParser[] = [];
    for (const s of settled) {
      if (s.status === 'fulfilled') loaded.push(s.value);
      else this.loadErrors = [...this.loadErrors, message(s.reason)];
    }
    this.external = loaded;
    await llhttp;
    this.loading = 'done';
  }

  /** Records a solved lesson (kept across visits). */
  markSolved(id: string): void {
    if (this.solved.includes(id)) return;
    this.solved = [...this.solved, id];
    try {
      localStorage.setItem(PROGRESS_KEY, JSON.stringify(this.solved));
    } catch {
      // Storage may be off: progress then lasts for this page only.
    }
  }

  resetProgress(): void {
    this.solved = [];
    try {
      localStorage.removeItem(PROGRESS_KEY);
    } catch {
      // Nothing kept, nothing to remove.
    }
  }

  openLesson(id: string, bytes: Uint8Array | null = null): void {
    const l = lessonById(id);
    if (!l) throw new Error(`no lesson "${id}"`);
    this.lessonId = id;
    this.view = 'lesson';
    // The editor reads the input as the lesson's messages (a response lesson's are responses).
    this.input.mode = l.direction ?? 'request';
    this.input.setBytes(bytes ?? lessonBytes(l.start));
  }

  /** Goes where a lab fragment says; throws when it is not one. */
  restore(fragment: string): void {
    const route = parseLabFragment(fragment);
    switch (route.view) {
      case 'lessons':
        this.view = 'lessons';
        break;
      case 'lesson':
        this.openLesson(route.lesson, route.bytes);
        break;
      case 'pair':
        this.front = route.front;
        this.back = route.back;
        this.forwarding = route.forwarding;
        this.input.mode = 'request';
        this.input.setBytes(route.bytes);
        this.responses.requestMethod = route.responses?.method ?? 'GET';
        this.responses.setBytes(route.responses?.bytes ?? new Uint8Array(0));
        this.view = 'pair';
        break;
      case 'grid':
        this.forwarding = route.forwarding;
        this.input.mode = route.direction;
        this.input.requestMethod = route.method;
        this.input.setBytes(route.bytes);
        this.view = 'grid';
        break;
    }
  }

  /** The fragment of what is on screen. */
  fragment(): string {
    const bytes = this.input.bytes;
    switch (this.view) {
      case 'lessons':
        return labFragment({ view: 'lessons' });
      case 'lesson':
        return labFragment({ view: 'lesson', lesson: this.lessonId ?? LESSONS[0].id, bytes });
      case 'pair':
        return labFragment({ view: 'pair', front: this.front, back: this.back, forwarding: this.forwarding, bytes, responses: this.originResponses() });
      case 'grid':
        return labFragment({ view: 'grid', forwarding: this.forwarding, bytes, direction: this.input.mode, method: this.input.requestMethod });
    }
  }

  /** The pair page's origin responses, or null when there are none. */
  originResponses(): OriginResponses | null {
    return this.responses.bytes.length > 0 ? { bytes: this.responses.bytes, method: this.responses.requestMethod } : null;
  }

  /** The fragment of a pair with the grid's input: its requests, or its responses as the origin's (with no requests). */
  pairFragment(front: string, back: string): string {
    const bytes = this.input.bytes;
    return this.input.mode === 'response'
      ? labFragment({ view: 'pair', front, back, forwarding: this.forwarding, bytes: new Uint8Array(0), responses: { bytes, method: this.input.requestMethod } })
      : labFragment({ view: 'pair', front, back, forwarding: this.forwarding, bytes, responses: null });
  }
}


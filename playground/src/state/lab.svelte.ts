// The smuggling lab's state: which page, which pair and forwarding, the input (an editor of its
// own: a Playground instance, so the lab's editor works as the inspector's does), the parsers
// once loaded, and the lessons solved (kept in local storage).

import { bundledLlhttp } from '../lib/bundled-llhttp.ts';
import { runChain, type ChainResult, type Direction, type Forwarding } from '../lib/lab/chain.ts';
import { labConfigs, type LabConfig } from '../lib/lab/configs.ts';
import { goalMet, lessonById, lessonBytes, LESSONS, type Lesson } from '../lib/lab/lessons.ts';
import { labFragment, parseLabFragment, type LabRoute } from '../lib/lab/route.ts';
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
  /** The lab's input, with the inspector's editor. */
  input = new Playground();
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
  result: ChainResult | null = $derived(
    this.pair.front && this.pair.back ? runChain(this.input.bytes, this.pair.front, this.pair.back, this.pair.forwarding, this.pair.direction) : null,
  );
  met: boolean = $derived(this.lesson !== null && this.view === 'lesson' && this.result !== null && goalMet(this.lesson, this.result));

  constructor() {
    this.solved = typeof localStorage === 'undefined' ? [] : loadProgress();
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
        this.view = 'pair';
        break;
      case 'grid':
        this.forwarding = route.forwarding;
        this.input.mode = 'request';
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
        return labFragment({ view: 'pair', front: this.front, back: this.back, forwarding: this.forwarding, bytes });
      case 'grid':
        return labFragment({ view: 'grid', forwarding: this.forwarding, bytes });
    }
  }

  /** The fragment of a pair with the current input (the grid's links). */
  pairFragment(front: string, back: string): string {
    return labFragment({ view: 'pair', front, back, forwarding: this.forwarding, bytes: this.input.bytes });
  }
}


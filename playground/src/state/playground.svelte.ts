// The playground's state: one class, shared by every panel. The input is bytes; the editor's
// text is a view of them (raw with visible CR/LF, or escaped), kept canonical so that what the
// editor shows is exactly what is parsed.

import { analyze, type Analysis } from '../lib/analysis.ts';
import { latin1Bytes } from '../lib/bytes.ts';
import { bytesToEscaped, bytesToRaw, escapedToBytes, lfToCrlf, hasBareLf, rawToBytes } from '../lib/encoding.ts';
import { PRESETS, type Preset } from '../lib/presets.ts';
import { decodeShare, encodeShare } from '../lib/share.ts';
import type { EditorView, LeniencyFlag, Mode, ParseOptions, ShareState } from '../lib/types.ts';

export type Theme = 'light' | 'dark';

/** The message shown before anything is typed or loaded. */
export const WELCOME = latin1Bytes(
  'POST /api/items?page=2 HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\n' +
    'Content-Length: 13\r\nConnection: keep-alive\r\n\r\n{"name":"ok"}',
);

/** Text of `bytes` in a view. */
export function render(bytes: Uint8Array, view: EditorView): string {
  return view === 'raw' ? bytesToRaw(bytes) : bytesToEscaped(bytes);
}

/**
 * For a canonical rendering, the first character of each byte (and, at index `bytes.length`,
 * the text's length): each byte renders on its own, whatever its neighbours.
 */
export function charStarts(bytes: Uint8Array, view: EditorView): Int32Array {
  const starts = new Int32Array(bytes.length + 1);
  const widths = new Int32Array(256);
  for (let b = 0; b < 256; b++) widths[b] = render(Uint8Array.of(b), view).length;
  let at = 0;
  for (let i = 0; i < bytes.length; i++) {
    starts[i] = at;
    at += widths[bytes[i]];
  }
  starts[bytes.length] = at;
  return starts;
}

export class Playground {
  /** The input. Replaced, never mutated in place. */
  bytes = $state.raw<Uint8Array>(WELCOME);
  mode = $state<Mode>('request');
  /** Responses: the method of the request they answer. */
  requestMethod = $state('GET');
  lenient = $state<LeniencyFlag[]>([]);
  view = $state<EditorView>('raw');
  /** What the editor holds: the canonical text, or an escaped text being typed that does not parse yet. */
  text = $state(bytesToRaw(WELCOME));
  /** An escape that does not parse (escaped view), with its character index. */
  textError = $state<{ error: string; index: number } | null>(null);
  /** The preset last loaded, while the input is still its bytes. */
  presetId = $state<string | null>(null);

  /** Step mode: on, bytes fed, and bytes per push. */
  stepping = $state(false);
  fed = $state(0);
  piece = $state(1);

  /** The byte the keyboard or a click selected, and the part the pointer or focus is on. */
  selected = $state<number | null>(null);
  hoverPart = $state<number | null>(null);
  theme = $state<Theme>('light');

  options: ParseOptions = $derived({ mode: this.mode, requestMethod: this.requestMethod, lenient: this.lenient });
  /** The whole input as a stream that then ends. */
  full: Analysis = $derived(analyze(this.bytes, this.options));
  /** In step mode, the first `fed` bytes in pieces of `piece`, the stream still open. */
  stepped: Analysis | null = $derived(
    this.stepping ? analyze(this.bytes, this.options, { fed: this.fed, piece: this.piece, finish: false }) : null,
  );
  /** What the panels show. */
  shown: Analysis = $derived(this.stepped ?? this.full);
  starts: Int32Array = $derived(charStarts(this.bytes, this.view));
  preset: Preset | null = $derived(PRESETS.find((p) => p.id === this.presetId) ?? null);
  bareLf: boolean = $derived(hasBareLf(this.bytes));

  /** Replaces the input (preset, conversion, share link): the editor shows it canonically. */
  setBytes(bytes: Uint8Array, keepPreset = false) {
    this.bytes = bytes;
    this.text = render(bytes, this.view);
    this.textError = null;
    if (!keepPreset) this.presetId = null;
    this.selected = null;
    this.hoverPart = null;
    this.fed = Math.min(this.fed, bytes.length);
  }

  /**
   * The editor's text changed. Returns the caret position in the canonical text when it
   * replaced what was typed (pasted newlines gain their ␊, say), else null.
   */
  input(text: string, caret: number): number | null {
    if (this.view === 'raw') {
      const bytes = rawToBytes(text);
      const before = rawToBytes(text.slice(0, caret)).length;
      this.bytes = bytes;
      this.presetId = null;
      this.textError = null;
      const canonical = bytesToRaw(bytes);
      this.text = canonical;
      this.clampSelection();
      return canonical === text ? null : this.starts[Math.min(before, bytes.length)];
    }
    this.text = text;
    const parsed = escapedToBytes(text);
    if ('error' in parsed) {
      this.textError = parsed;
      return null;
    }
    this.textError = null;
    this.bytes = parsed.bytes;
    this.presetId = null;
    this.clampSelection();
    return null;
  }

  /** The escaped view is rewritten canonically when the editor loses focus. */
  tidy() {
    if (this.textError === null) this.text = render(this.bytes, this.view);
  }

  private clampSelection() {
    if (this.selected !== null && this.selected >= this.bytes.length) this.selected = null;
    this.hoverPart = null;
    this.fed = Math.min(this.fed, this.bytes.length);
  }

  setView(view: EditorView) {
    if (this.textError !== null) return;
    this.view = view;
    this.text = render(this.bytes, view);
  }

  convertToCrlf() {
    this.setBytes(lfToCrlf(this.bytes));
  }

  loadPreset(id: string) {
    const preset = PRESETS.find((p) => p.id === id);
    if (preset === undefined) return;
    this.mode = preset.options.mode;
    this.requestMethod = preset.options.requestMethod;
    this.lenient = [...preset.options.lenient];
    this.setBytes(preset.bytes, true);
    this.presetId = id;
    this.fed = 0;
  }

  toggleLenient(flag: LeniencyFlag, on: boolean) {
    this.lenient = on ? [...new Set([...this.lenient, flag])] : this.lenient.filter((f) => f !== flag);
  }

  setStepping(on: boolean) {
    this.stepping = on;
    if (on) this.fed = Math.min(this.fed, this.bytes.length);
  }

  /** Moves the step position by whole pieces. */
  step(delta: number) {
    const n = this.bytes.length;
    this.fed = Math.max(0, Math.min(n, this.fed + delta * this.piece));
  }

  shareState(): ShareState {
    return {
      bytes: this.bytes,
      options: { ...this.options, lenient: [...this.lenient] },
      view: this.view,
      step: this.stepping ? { fed: this.fed, piece: this.piece } : null,
      selected: this.selected,
    };
  }

  /** The URL fragment (without '#') that restores this state. */
  shareFragment(): string {
    return encodeShare(this.shareState());
  }

  /** Restores a share link's state; throws when the fragment is not one. */
  restore(fragment: string) {
    const state = decodeShare(fragment);
    this.mode = state.options.mode;
    this.requestMethod = state.options.requestMethod;
    this.lenient = [...state.options.lenient];
    this.view = state.view;
    this.setBytes(state.bytes);
    this.stepping = state.step !== null;
    this.fed = state.step?.fed ?? 0;
    this.piece = state.step?.piece ?? 1;
    this.selected = state.selected;
  }
}

export const playground = new Playground();

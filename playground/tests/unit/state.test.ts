// The playground's shared state (a class with runes, compiled by the Svelte plugin here too).
import { describe, expect, test } from 'vitest';
import { PRESETS } from '../../src/lib/presets.ts';
import { Playground, WELCOME, charStarts, render } from '../../src/state/playground.svelte.ts';

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const text = (b: Uint8Array) => String.fromCharCode(...b);

describe('the editor text is a canonical view of the bytes', () => {
  test('typed raw text with plain newlines becomes bare LFs, shown with their glyph', () => {
    const pg = new Playground();
    const typed = 'GET / HTTP/1.1\nHost: a\n\n';
    const caret = pg.input(typed, typed.length);
    expect(text(pg.bytes)).toBe('GET / HTTP/1.1\nHost: a\n\n');
    expect(pg.text).toBe('GET / HTTP/1.1␊\nHost: a␊\n␊\n');
    // The caret stays after the same byte: the end.
    expect(caret).toBe(pg.text.length);
    expect(pg.full.error?.code).toBe('bare_lf');
    expect(pg.bareLf).toBe(true);
    pg.convertToCrlf();
    expect(text(pg.bytes)).toBe('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(pg.full.status).toBe('complete');
    expect(pg.bareLf).toBe(false);
  });

  test('a caret inside pasted text keeps its byte', () => {
    const pg = new Playground();
    // The caret after "a\n" (byte 2) lands after "a␊\n" (character 3).
    expect(pg.input('a\nb', 2)).toBe(3);
    expect(pg.input(pg.text, 3)).toBeNull();
  });

  test('the escaped view holds a text that does not parse, without changing the bytes', () => {
    const pg = new Playground();
    pg.setView('escaped');
    expect(pg.text).toBe(render(WELCOME, 'escaped'));
    pg.input('GET / HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n', 0);
    expect(text(pg.bytes)).toBe('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
    const before = pg.bytes;
    pg.input('GET /\\x4 HTTP/1.1', 0);
    expect(pg.textError).not.toBeNull();
    expect(pg.bytes).toBe(before);
    // The view cannot switch while the text is invalid; once fixed, the text becomes canonical.
    pg.setView('raw');
    expect(pg.view).toBe('escaped');
    pg.input('GET /\\x41 HTTP/1.1\\r\\n', 0);
    pg.tidy();
    expect(pg.text).toBe('GET /A HTTP/1.1\\r\\n\n');
  });

  test('charStarts maps each byte to its first character', () => {
    const b = bytes('a\r\nb\x01');
    expect([...charStarts(b, 'raw')]).toEqual([0, 1, 2, 4, 5, 6]);
    expect([...charStarts(b, 'escaped')]).toEqual([0, 1, 3, 6, 7, 11]);
    expect(render(b, 'raw').length).toBe(6);
  });
});

test('a preset sets the bytes, the mode and the options; editing leaves the preset', () => {
  const pg = new Playground();
  const head = PRESETS.find((p) => p.options.requestMethod === 'HEAD')!;
  pg.loadPreset(head.id);
  expect(pg.mode).toBe('response');
  expect(pg.requestMethod).toBe('HEAD');
  expect(pg.preset?.id).toBe(head.id);
  expect(pg.bytes).toEqual(head.bytes);
  expect(pg.full.status).toBe(head.expect.status);
  pg.input(pg.text + 'x', pg.text.length + 1);
  expect(pg.preset).toBeNull();
});

test('options change the analysis', () => {
  const pg = new Playground();
  pg.setBytes(bytes('GET / HTTP/1.1\r\nHost: a\r\nX:  a\r\n  b\r\n\r\n'));
  expect(pg.full.error?.code).toBe('obs_fold');
  pg.toggleLenient('obsFold', true);
  expect(pg.full.status).toBe('complete');
  pg.toggleLenient('obsFold', false);
  expect(pg.lenient).toEqual([]);
  pg.setBytes(bytes('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n'));
  pg.mode = 'response';
  expect(pg.full.status).toBe('partial');
  pg.requestMethod = 'HEAD';
  expect(pg.full.status).toBe('complete');
});

test('step mode feeds a prefix in pieces and clamps to the input', () => {
  const pg = new Playground();
  pg.setBytes(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'));
  pg.setStepping(true);
  pg.piece = 8;
  expect(pg.shown.fed).toBe(0);
  pg.step(1);
  expect(pg.fed).toBe(8);
  expect(pg.shown.status).toBe('partial');
  pg.step(10);
  expect(pg.fed).toBe(pg.bytes.length);
  expect(pg.shown.status).toBe('complete');
  pg.step(-100);
  expect(pg.fed).toBe(0);
  pg.fed = 20;
  pg.setBytes(bytes('GET'));
  expect(pg.fed).toBe(3);
  pg.setStepping(false);
  expect(pg.stepped).toBeNull();
  expect(pg.shown.fed).toBe(3);
});

test('a share fragment restores the state exactly', () => {
  const pg = new Playground();
  pg.loadPreset(PRESETS[0].id);
  pg.mode = 'response';
  pg.requestMethod = 'CONNECT';
  pg.toggleLenient('bareLf', true);
  pg.toggleLenient('unknownVersion', true);
  pg.setView('escaped');
  pg.setStepping(true);
  pg.piece = 4;
  pg.fed = 12;
  pg.selected = 5;
  const restored = new Playground();
  restored.restore(pg.shareFragment());
  expect(restored.shareState()).toEqual(pg.shareState());
  expect(restored.text).toBe(pg.text);
  expect(restored.shown.fed).toBe(12);
  expect(() => restored.restore('v1.%%%')).toThrow();
});

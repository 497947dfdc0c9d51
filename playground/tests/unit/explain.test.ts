import { describe, expect, it } from 'vitest';
import { parseRequest, Decoder, type ErrorCode } from '@httpspan/wasm';
import indexDts from '../../../wasm/js/index.d.ts?raw';
import errorRs from '../../../core/src/error.rs?raw';
import { EXPLANATIONS, errorInfo, explainError, lineAndColumn, lineAt, lineFeeds, rfcUrl } from '../../src/lib/explain.ts';
import { latin1Bytes } from '../../src/lib/bytes.ts';

/** The members of the ErrorCode union, read from the package's declarations. */
function unionCodes(): string[] {
  const m = /export type ErrorCode\s*=([^;]*);/.exec(indexDts);
  if (!m) throw new Error('no ErrorCode union in wasm/js/index.d.ts');
  return [...m[1].matchAll(/'([a-z0-9_]+)'/g)].map((x) => x[1]);
}

/** code -> [status, rfc, message], read from core/src/error.rs. */
function rustKinds(): Map<string, { status: number; rfc: string; message: string }> {
  const codes = new Map<string, string>();
  for (const m of errorRs.matchAll(/\((\w+)\) => \{\s*"([a-z0-9_]+)"/g)) codes.set(m[1], m[2]);
  const kinds = new Map<string, { status: number; rfc: string; message: string }>();
  for (const m of errorRs.matchAll(/^\s*(\w+) => \((\d{3}), "([^"]+)", "([^"]+)"\),$/gm)) {
    kinds.set(codes.get(m[1])!, { status: Number(m[2]), rfc: m[3], message: m[4] });
  }
  return kinds;
}

const URL_PATTERN = /^https:\/\/www\.rfc-editor\.org\/rfc\/rfc\d+#section-\d+(\.\d+)*$/;

describe('explainError', () => {
  const codes = unionCodes();

  it('reads the 48 codes of the union', () => {
    expect(codes.length).toBe(48);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('explains every code of the union, and only those', () => {
    for (const code of codes) {
      const text = explainError(code as ErrorCode);
      expect(EXPLANATIONS, code).toHaveProperty(code);
      expect(text.length, code).toBeGreaterThan(40);
      expect(text.length, code).toBeLessThan(400);
      // One or two sentences, each ending in a period.
      const sentences = text.split(/(?<=\.)\s+(?=[A-Z])/);
      expect(sentences.length, code).toBeLessThanOrEqual(2);
      expect(text.endsWith('.'), code).toBe(true);
    }
    expect(Object.keys(EXPLANATIONS).sort()).toEqual([...codes].sort());
  });

  it('has a fallback for a code this build does not know', () => {
    expect(explainError('brand_new_code' as ErrorCode)).toMatch(/RFC/);
  });

  it('says why the smuggling-relevant errors are dangerous', () => {
    for (const code of [
      'bare_lf',
      'obs_fold',
      'whitespace_before_colon',
      'invalid_content_length',
      'content_length_with_transfer_encoding',
      'chunk_size_too_long',
    ] as const) {
      expect(explainError(code), code).toMatch(/smuggling|differently|different/);
    }
  });
});

describe('rfcUrl', () => {
  it('links every RFC section of core/src/error.rs, for every code of the union', () => {
    const kinds = rustKinds();
    expect(kinds.size).toBe(50);
    // The union leaves out only the two kinds of parser misuse, which the package, resetting
    // before each parse, cannot return.
    const union = new Set<string>(unionCodes());
    const missing = [...kinds.keys()].filter((code) => !union.has(code)).sort();
    expect(missing).toEqual(['buffer_shorter_than_parsed', 'parse_after_complete']);
    for (const code of unionCodes()) {
      const kind = kinds.get(code);
      expect(kind, code).toBeDefined();
      const url = rfcUrl(kind!.rfc);
      expect(url, kind!.rfc).toMatch(URL_PATTERN);
      const [, rfc, section] = /^RFC (\d+) ([\d.]+)$/.exec(kind!.rfc)!;
      expect(url).toBe(`https://www.rfc-editor.org/rfc/rfc${rfc}#section-${section}`);
    }
  });

  it('handles each form', () => {
    expect(rfcUrl('RFC 9112 5.1')).toBe('https://www.rfc-editor.org/rfc/rfc9112#section-5.1');
    expect(rfcUrl('RFC 9110 5.5')).toBe('https://www.rfc-editor.org/rfc/rfc9110#section-5.5');
    expect(rfcUrl('RFC 9112 3')).toBe('https://www.rfc-editor.org/rfc/rfc9112#section-3');
    expect(rfcUrl('RFC 9110 15.6.6')).toBe('https://www.rfc-editor.org/rfc/rfc9110#section-15.6.6');
    expect(rfcUrl('RFC 3986 2.1')).toBe('https://www.rfc-editor.org/rfc/rfc3986#section-2.1');
    expect(rfcUrl('RFC 6585 5')).toBe('https://www.rfc-editor.org/rfc/rfc6585#section-5');
    expect(rfcUrl('RFC 9112 A.2')).toBe('https://www.rfc-editor.org/rfc/rfc9112#appendix-A.2');
    expect(rfcUrl('RFC 9112')).toBe('https://www.rfc-editor.org/rfc/rfc9112');
    expect(rfcUrl('rfc9112 section 7.1')).toBe('https://www.rfc-editor.org/rfc/rfc9112#section-7.1');
    expect(rfcUrl('RFC 9112 3.2, 3986 3.3')).toBe('https://www.rfc-editor.org/rfc/rfc9112');
    expect(rfcUrl('policy')).toBe('https://www.rfc-editor.org/');
  });
});

describe('errorInfo', () => {
  it('places offsets on 1-based lines and byte columns', () => {
    const b = latin1Bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(lineAndColumn(b, 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn(b, 14)).toEqual({ line: 1, column: 15 }); // the CR
    expect(lineAndColumn(b, 15)).toEqual({ line: 1, column: 16 }); // the LF ends line 1
    expect(lineAndColumn(b, 16)).toEqual({ line: 2, column: 1 });
    expect(lineAndColumn(b, 20)).toEqual({ line: 2, column: 5 });
    expect(lineAndColumn(b, 25)).toEqual({ line: 3, column: 1 });
    expect(lineAndColumn(b, b.length)).toEqual({ line: 4, column: 1 });
    expect(lineAndColumn(b, b.length + 5)).toEqual({ line: 4, column: 1 });
    expect(lineAndColumn(new Uint8Array(0), 0)).toEqual({ line: 1, column: 1 });
    // Columns count bytes, and a lone CR does not end a line.
    expect(lineAndColumn(latin1Bytes('\xff\xfe\rX'), 3)).toEqual({ line: 1, column: 4 });
  });

  it('lineAt (step mode, once per step) gives lineAndColumn\'s line at every offset', () => {
    for (const text of ['GET / HTTP/1.1\r\nHost: a\r\n\r\n', '', '\n\n\n', 'a\rb\nc\n', 'no line end']) {
      const b = latin1Bytes(text);
      const feeds = lineFeeds(b);
      expect([...feeds]).toEqual([...b.keys()].filter((i) => b[i] === 0x0a));
      for (let offset = -1; offset <= b.length + 2; offset++) {
        expect(lineAt(feeds, b.length, offset), `${JSON.stringify(text)} at ${offset}`).toBe(lineAndColumn(b, offset).line);
      }
    }
  });

  it('fills every field from a ParseError', () => {
    const bytes = latin1Bytes('GET / HTTP/1.1\r\nHost : a\r\n\r\n');
    const result = parseRequest(bytes);
    expect(result.state).toBe('error');
    if (result.state !== 'error') return;
    const info = errorInfo(bytes, result.error);
    expect(info).toEqual({
      code: 'whitespace_before_colon',
      message: 'whitespace between field name and colon',
      offset: 20,
      line: 2,
      column: 5,
      status: 400,
      rfc: 'RFC 9112 5.1',
      rfcUrl: 'https://www.rfc-editor.org/rfc/rfc9112#section-5.1',
      explanation: EXPLANATIONS.whitespace_before_colon,
    });
  });

  it('uses stream offsets from the Decoder on the whole input', () => {
    const bytes = latin1Bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\nX: y\r\n\r\n');
    const decoder = new Decoder('request');
    const events = [...decoder.push(bytes), ...decoder.finish()];
    decoder.free();
    const error = events.find((e) => e.type === 'error');
    expect(error?.type).toBe('error');
    if (error?.type !== 'error') return;
    const info = errorInfo(bytes, error.error);
    expect(info.code).toBe('bare_lf');
    expect(info.offset).toBe(50);
    expect(bytes[info.offset]).toBe(0x0a);
    // Line 5 is "Host: a\n": the LF is its 8th byte.
    expect([info.line, info.column]).toEqual([5, 8]);
    expect(info.status).toBe(400);
  });
});

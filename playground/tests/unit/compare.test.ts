// The compare view's logic: httpspan (strict, each leniency flag, all) against llhttp, on the
// inputs request smuggling is made of. The outcomes asserted are those observed with
// @httpspan/wasm and undici's llhttp build; a change in either parser shows up here.

import { beforeAll, describe, expect, it } from 'vitest';
import { compare, parseWithHttpspan, type Comparison, type CompareColumn, type PeerResult } from '../../src/lib/compare.ts';
import { loadLlhttp, type Llhttp } from '../../src/lib/llhttp.ts';
import { LENIENCY_FLAGS } from '../../src/lib/types.ts';
import { readLlhttpWasm } from '../../vite-plugins/llhttp.ts';

const bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const LL = 'llhttp (undici wasm)';

let llhttp: Llhttp;
beforeAll(async () => {
  llhttp = await loadLlhttp(readLlhttpWasm());
});

function column(c: Comparison, id: string): CompareColumn {
  const found = c.columns.find((col) => col.id === id);
  if (!found) throw new Error(`no column ${id}`);
  return found;
}

/** A column's outcome in one line: status, complete messages, error code and offset. */
function outcome(col: CompareColumn): string {
  const r = col.result;
  const done = r.messages.filter((m) => m.complete).length;
  return r.error ? `${r.status} ${done} ${r.error.code}@${r.error.offset}` : `${r.status} ${done}`;
}

/** The cells of a row, as 'text' or 'text*' when they differ from strict. */
function row(c: Comparison, id: string): string[] {
  const found = c.rows.find((r) => r.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return found.cells.map((cell) => cell.text + (cell.differs ? '*' : ''));
}

/** Ids of the leniency columns that behave exactly like strict. */
function collapsed(c: Comparison): string[] {
  return c.columns.filter((col) => col.sameAsStrict).map((col) => col.id);
}

const lenientIds = LENIENCY_FLAGS.map((f) => `lenient:${f}`);
const without = (...ids: string[]): string[] => [...lenientIds, 'all-lenient'].filter((id) => !ids.includes(id));

describe('parseWithHttpspan', () => {
  it('reads pipelined requests with bodies', () => {
    const input = 'POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET /y HTTP/1.1\r\nHost: a\r\n\r\n';
    const r = parseWithHttpspan(bytes(input), 'request', 'GET');
    expect(r.status).toBe('complete');
    expect(r.consumed).toBe(79);
    expect(input.length).toBe(79);
    expect(r.messages.map((m) => [m.method, m.target, m.version, m.bodyLength, m.offset, m.complete])).toEqual([
      ['POST', '/x', 'HTTP/1.1', 3, 0, true],
      ['GET', '/y', 'HTTP/1.1', 0, 51, true],
    ]);
    expect(input.slice(51, 54)).toBe('GET');
    expect(String.fromCharCode(...r.messages[0].body)).toBe('abc');
  });

  it('gives every response the request method (HEAD: no body)', () => {
    const input = bytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n');
    const r = parseWithHttpspan(input, 'response', 'HEAD');
    expect(r.status).toBe('complete');
    expect(r.messages.map((m) => [m.status, m.bodyLength])).toEqual([[200, 0], [200, 0]]);
  });

  it('reports the ParseError code, offset and message', () => {
    const r = parseWithHttpspan(bytes('GET / HTTP/1.1\nHost: a\n\n'), 'request', 'GET');
    expect(r).toEqual({ status: 'error', messages: [], error: { code: 'bare_lf', reason: 'bare LF line ending', offset: 14 }, consumed: 14 });
    expect(parseWithHttpspan(bytes('GET / HTTP/1.1\nHost: a\n\n'), 'request', 'GET', ['bareLf']).status).toBe('complete');
  });

  it('reads trailer fields and stops after Connection: close', () => {
    const input = 'POST / HTTP/1.1\r\nHost: a\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nX-Sum: 1\r\n\r\nGET / HTTP/1.1\r\n\r\n';
    const r = parseWithHttpspan(bytes(input), 'request', 'GET');
    expect(r.status).toBe('complete');
    expect(r.consumed).toBe(input.indexOf('GET'));
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0]).toMatchObject({ trailers: [['X-Sum', '1']], keepAlive: false, bodyLength: 1 });
  });
});

describe('compare: the columns', () => {
  it('has strict, each flag, all lenient and llhttp, with labels', () => {
    const c = compare(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'), 'request', 'GET', llhttp);
    expect(c.columns.map((col) => col.id)).toEqual(['strict', ...lenientIds, 'all-lenient', 'llhttp']);
    expect(c.columns.map((col) => col.label)).toEqual([
      'httpspan strict',
      ...LENIENCY_FLAGS.map((f) => `httpspan + ${f}`),
      'httpspan all lenient',
      LL,
    ]);
    expect(column(c, 'all-lenient').flags).toEqual([...LENIENCY_FLAGS]);
    expect(c.columns.every((col) => col.result.status === 'complete' && !col.disagrees)).toBe(true);
    expect(collapsed(c)).toEqual(without());
    expect(column(c, 'llhttp').sameAsStrict).toBe(false);
    expect(c.summary).toEqual([]);
    expect(c.rows.map((r) => r.id)).toEqual(['status', 'messages', 'read', 'message-1-start', 'message-1-headers', 'message-1-body', 'message-1-framing', 'message-1-end', 'error']);
    expect(c.rows.flatMap((r) => r.cells).some((cell) => cell.differs)).toBe(false);
    // httpspan and llhttp report where the message ended, as the other columns do.
    const end = c.rows.find((r) => r.id === 'message-1-end')!;
    expect(new Set(end.cells.map((cell) => cell.text)).size).toBe(1);
    expect(end.cells[0].text).not.toBe('—');
  });

  it('leaves llhttp out when it is not loaded, and takes its label from the options', () => {
    const input = bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(compare(input, 'request', 'GET', null).columns.map((col) => col.id)).not.toContain('llhttp');
    expect(column(compare(input, 'request', 'GET', llhttp, { llhttpLabel: 'llhttp (undici 7.30.2)' }), 'llhttp').label).toBe('llhttp (undici 7.30.2)');
  });

  it('does not count the whitespace llhttp keeps after a field value', () => {
    const c = compare(bytes('GET / HTTP/1.1\r\nHost: a\r\nX: y  \r\n\r\n'), 'request', 'GET', llhttp);
    expect(column(c, 'llhttp').result.messages[0].headers[1]).toEqual(['X', 'y  ']);
    expect(column(c, 'strict').result.messages[0].headers[1]).toEqual(['X', 'y']);
    expect(column(c, 'llhttp').disagrees).toBe(false);
    expect(row(c, 'message-1-headers').at(-1)).toBe('2');
  });

  it('agrees when the input ends inside a body in both', () => {
    const c = compare(bytes('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nab'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('partial 0');
    expect(outcome(column(c, 'llhttp'))).toBe('partial 0');
    expect(row(c, 'messages')).toEqual(Array(11).fill('0 + 1 unfinished'));
    expect(row(c, 'message-1-body')).toEqual(Array(11).fill('2 bytes so far'));
    expect(c.summary).toEqual([]);
  });
});

describe('compare: smuggling inputs', () => {
  it('Content-Length with Transfer-Encoding: every parser rejects it', () => {
    const c = compare(bytes('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('error 0 content_length_with_transfer_encoding@45');
    expect(outcome(column(c, 'all-lenient'))).toBe('error 0 content_length_with_transfer_encoding@45');
    expect(outcome(column(c, 'llhttp'))).toBe('error 0 HPE_INVALID_TRANSFER_ENCODING@63');
    expect(collapsed(c)).toEqual(without());
    // Both reject: no disagreement, though the errors are named and placed differently.
    expect(column(c, 'llhttp').disagrees).toBe(false);
    expect(c.summary).toEqual([]);
    expect(column(c, 'llhttp').notes).toEqual([
      `Both reject the input: ${LL} at byte 63 (HPE_INVALID_TRANSFER_ENCODING), httpspan strict at byte 45 (content_length_with_transfer_encoding).`,
    ]);
    const error = c.rows.find((r) => r.id === 'error')!.cells.at(-1)!;
    expect(error).toEqual({
      text: 'HPE_INVALID_TRANSFER_ENCODING at byte 63',
      differs: false,
      note: 'content_length_with_transfer_encoding at byte 45 in strict; both reject',
    });
    expect(row(c, 'status')).toEqual(Array(11).fill('rejected'));
  });

  it('two Content-Length values: rejected by all, even with duplicateContentLength', () => {
    const c = compare(bytes('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nabcde'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('error 0 duplicate_content_length@45');
    expect(outcome(column(c, 'lenient:duplicateContentLength'))).toBe('error 0 duplicate_content_length@45');
    expect(outcome(column(c, 'llhttp'))).toBe('error 0 HPE_UNEXPECTED_CONTENT_LENGTH@61');
    expect(collapsed(c)).toEqual(without());
    expect(c.summary).toEqual([]);
  });

  it('the same Content-Length twice: only duplicateContentLength reads it (llhttp rejects)', () => {
    const c = compare(bytes('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nContent-Length: 4\r\n\r\nabcd'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'lenient:duplicateContentLength'))).toBe('complete 1');
    expect(column(c, 'lenient:duplicateContentLength').result.messages[0].bodyLength).toBe(4);
    expect(outcome(column(c, 'llhttp'))).toBe('error 0 HPE_UNEXPECTED_CONTENT_LENGTH@61');
    expect(collapsed(c)).toEqual(without('lenient:duplicateContentLength', 'all-lenient'));
    expect(c.summary).toEqual([
      'httpspan + duplicateContentLength reads 1 request where httpspan strict rejects the input at byte 45 (duplicate_content_length).',
      'httpspan all lenient reads 1 request where httpspan strict rejects the input at byte 45 (duplicate_content_length).',
    ]);
    expect(row(c, 'status')).toEqual(['rejected', ...Array(5).fill('rejected'), 'complete*', 'rejected', 'rejected', 'complete*', 'rejected']);
    expect(row(c, 'message-1-body')).toEqual(['—', ...Array(5).fill('—'), '4 bytes*', '—', '—', '4 bytes*', '—']);
    expect(row(c, 'error')).toEqual([
      'duplicate_content_length at byte 45',
      ...Array(5).fill('duplicate_content_length at byte 45'),
      '—*',
      'duplicate_content_length at byte 45',
      'duplicate_content_length at byte 45',
      '—*',
      'HPE_UNEXPECTED_CONTENT_LENGTH at byte 61',
    ]);
  });

  it('Transfer-Encoding: xchunked — llhttp reads the head before rejecting, which is no disagreement', () => {
    const c = compare(bytes('POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('error 0 chunked_not_last@26');
    expect(outcome(column(c, 'llhttp'))).toBe('error 0 HPE_INVALID_TRANSFER_ENCODING@57');
    expect(column(c, 'llhttp').result.messages).toHaveLength(1);
    expect(column(c, 'llhttp').result.messages[0].complete).toBe(false);
    expect(row(c, 'messages').at(-1)).toBe('0 + 1 unfinished');
    expect(row(c, 'message-1-start').at(-1)).toBe('POST / HTTP/1.1 (unfinished)');
    expect(column(c, 'llhttp').disagrees).toBe(false);
    expect(c.summary).toEqual([]);
  });

  it('Transfer-Encoding folded into Content-Length (" Transfer-Encoding: chunked"): rejected by all', () => {
    const c = compare(bytes('POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('error 0 obs_fold@45');
    // With obsFold the line joins Content-Length's value, which is then no number.
    expect(outcome(column(c, 'lenient:obsFold'))).toBe('error 0 invalid_content_length@43');
    expect(outcome(column(c, 'llhttp'))).toBe('error 0 HPE_INVALID_HEADER_TOKEN@45');
    expect(c.summary).toEqual([]);
    expect(column(c, 'lenient:obsFold').sameAsStrict).toBe(false);
    expect(column(c, 'lenient:obsFold').notes).toEqual([
      'Both reject the input: httpspan + obsFold at byte 43 (invalid_content_length), httpspan strict at byte 45 (obs_fold).',
    ]);
    // Same vocabulary: the moved error is highlighted in the httpspan column, not in llhttp's.
    expect(row(c, 'error')[2]).toBe('invalid_content_length at byte 43*');
    expect(row(c, 'error').at(-1)).toBe('HPE_INVALID_HEADER_TOKEN at byte 45');
  });

  it('Transfer-Encoding with a tab before chunked: read alike by all', () => {
    const c = compare(bytes('POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\tchunked\r\n\r\n0\r\n\r\n'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('complete 1');
    expect(outcome(column(c, 'llhttp'))).toBe('complete 1');
    expect(column(c, 'llhttp').result.messages[0].headers).toEqual([['Host', 'a'], ['Transfer-Encoding', 'chunked']]);
    expect(c.summary).toEqual([]);
  });

  it('obs-fold: only the obsFold flag reads it', () => {
    const c = compare(bytes('POST / HTTP/1.1\r\nHost: a\r\nX: y\r\n z\r\nContent-Length: 0\r\n\r\n'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('error 0 obs_fold@32');
    expect(outcome(column(c, 'lenient:obsFold'))).toBe('complete 1');
    // The value keeps the fold's raw bytes, as @httpspan/wasm documents.
    expect(column(c, 'lenient:obsFold').result.messages[0].headers[1]).toEqual(['X', 'y\r\n z']);
    expect(outcome(column(c, 'llhttp'))).toBe('error 0 HPE_INVALID_HEADER_TOKEN@32');
    expect(collapsed(c)).toEqual(without('lenient:obsFold', 'all-lenient'));
    expect(c.summary).toEqual([
      'httpspan + obsFold reads 1 request where httpspan strict rejects the input at byte 32 (obs_fold).',
      'httpspan all lenient reads 1 request where httpspan strict rejects the input at byte 32 (obs_fold).',
    ]);
  });

  it('bare LF: only the bareLf flag reads it', () => {
    const c = compare(bytes('GET / HTTP/1.1\nHost: a\n\n'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('error 0 bare_lf@14');
    expect(outcome(column(c, 'lenient:bareLf'))).toBe('complete 1');
    expect(outcome(column(c, 'llhttp'))).toBe('error 0 HPE_INVALID_VERSION@15');
    expect(collapsed(c)).toEqual(without('lenient:bareLf', 'all-lenient'));
    expect(c.summary).toEqual([
      'httpspan + bareLf reads 1 request where httpspan strict rejects the input at byte 14 (bare_lf).',
      'httpspan all lenient reads 1 request where httpspan strict rejects the input at byte 14 (bare_lf).',
    ]);
  });

  it('llhttp reads 2 requests where httpspan rejects a fragment in the target', () => {
    const c = compare(bytes('GET /a#b HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'llhttp'))).toBe('complete 2');
    expect(column(c, 'llhttp').result.messages[0].target).toBe('/a#b');
    expect(c.summary).toEqual([`${LL} reads 2 requests where httpspan strict rejects the input at byte 6 (fragment_in_target).`]);
    expect(row(c, 'messages').at(-1)).toBe('2*');
    expect(row(c, 'message-2-start').at(-1)).toBe('GET / HTTP/1.1*');
    expect(row(c, 'error').at(-1)).toBe('—*');
  });

  it('llhttp accepts a duplicate Host and a missing Host', () => {
    const dup = compare(bytes('GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n'), 'request', 'GET', llhttp);
    expect(dup.summary).toEqual([`${LL} reads 1 request where httpspan strict rejects the input at byte 25 (duplicate_host).`]);
    const missing = compare(bytes('GET / HTTP/1.1\r\n\r\n'), 'request', 'GET', llhttp);
    expect(outcome(column(missing, 'lenient:missingHost'))).toBe('complete 1');
    expect(missing.summary).toEqual([
      'httpspan + missingHost reads 1 request where httpspan strict rejects the input at byte 16 (missing_host).',
      'httpspan all lenient reads 1 request where httpspan strict rejects the input at byte 16 (missing_host).',
      `${LL} reads 1 request where httpspan strict rejects the input at byte 16 (missing_host).`,
    ]);
  });

  it('chunked in HTTP/1.0: llhttp reads it, then refuses the next request', () => {
    const c = compare(bytes('POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('error 0 transfer_encoding_in_http10@26');
    expect(outcome(column(c, 'llhttp'))).toBe('error 1 HPE_CLOSED_CONNECTION@62');
    expect(c.summary).toEqual([
      `${LL} reads 1 request, then rejects the input at byte 62 (HPE_CLOSED_CONNECTION) where httpspan strict rejects the input at byte 26 (transfer_encoding_in_http10).`,
    ]);
  });

  it('data after Connection: close: httpspan stops reading, llhttp rejects', () => {
    const c = compare(bytes('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('complete 1');
    expect(column(c, 'strict').result.consumed).toBe(46);
    expect(outcome(column(c, 'llhttp'))).toBe('error 1 HPE_CLOSED_CONNECTION@47');
    expect(c.summary).toEqual([
      `${LL} reads 1 request, then rejects the input at byte 47 (HPE_CLOSED_CONNECTION) where httpspan strict reads 1 request and stops at byte 46 (the connection closes), leaving 27 bytes unread.`,
    ]);
    expect(row(c, 'read')[0]).toBe('46 of 73');
  });

  it('CONNECT: llhttp leaves HTTP after the request, httpspan reads on', () => {
    const c = compare(bytes('CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\nxyz'), 'request', 'GET', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('partial 1');
    expect(outcome(column(c, 'llhttp'))).toBe('complete 1');
    expect(c.summary).toEqual([
      `${LL} reads 1 request and stops at byte 39 (the connection switches protocols), leaving 3 bytes unread where httpspan strict reads 1 request, then waits for more bytes: the input ends inside request 2.`,
    ]);
    expect(row(c, 'read').at(-1)).toBe('39 of 42*');
  });

  it('responses to HEAD: no body, in both', () => {
    const c = compare(bytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), 'response', 'HEAD', llhttp);
    expect(outcome(column(c, 'strict'))).toBe('complete 2');
    expect(outcome(column(c, 'llhttp'))).toBe('complete 2');
    expect(row(c, 'message-1-start')).toEqual(Array(11).fill('HTTP/1.1 200'));
    expect(row(c, 'message-1-body')).toEqual(Array(11).fill('0 bytes'));
    expect(c.rows.find((r) => r.id === 'message-1-start')!.label).toBe('Response 1: status-line');
    expect(c.summary).toEqual([]);
  });
});

describe('compare: sentences for messages read differently', () => {
  // Both real parsers agree on the framing of every input above that both accept, so a stub
  // stands in for llhttp to check the sentences for start lines, fields and bodies.
  function stub(result: PeerResult): Llhttp {
    return { parse: () => result } as unknown as Llhttp;
  }
  const input = bytes('POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n');

  it('names the start line, field line and body that differ', () => {
    const strict = parseWithHttpspan(input, 'request', 'GET');
    const m = strict.messages[0];
    const other: PeerResult = {
      ...strict,
      messages: [{ ...m, target: '/y', headers: [['Host', 'a'], ['Content-Length', '4']], bodyLength: 4, body: bytes('abcd') }],
    };
    const c = compare(input, 'request', 'GET', stub(other), { llhttpLabel: 'other' });
    expect(c.summary).toEqual([
      'other reads request 1 as "POST /y HTTP/1.1" where httpspan strict reads "POST /x HTTP/1.1".',
      'other reads field line 2 of request 1 as "Content-Length: 4" where httpspan strict reads "Content-Length: 0".',
      'other reads a body of 4 bytes in request 1 where httpspan strict reads 0 bytes.',
    ]);
    expect(row(c, 'message-1-start').at(-1)).toBe('POST /y HTTP/1.1*');
    expect(row(c, 'message-1-body').at(-1)).toBe('4 bytes*');
    const headers = c.rows.find((r) => r.id === 'message-1-headers')!.cells.at(-1)!;
    expect(headers).toEqual({
      text: '2',
      differs: true,
      note: 'reads field line 2 as "Content-Length: 4" (strict reads "Content-Length: 0")',
    });
    expect(column(c, 'llhttp').disagrees).toBe(true);
  });

  it('counts field lines and escapes control characters', () => {
    const strict = parseWithHttpspan(input, 'request', 'GET');
    const m = strict.messages[0];
    const extra: PeerResult = { ...strict, messages: [{ ...m, headers: [...m.headers, ['X', 'a\r\nb']] }] };
    expect(compare(input, 'request', 'GET', stub(extra), { llhttpLabel: 'other' }).summary).toEqual([
      'other reads 3 field lines in request 1 where httpspan strict reads 2.',
    ]);
    const changed: PeerResult = { ...strict, messages: [{ ...m, headers: [['Host', 'a\r\nb'], m.headers[1]] }] };
    expect(compare(input, 'request', 'GET', stub(changed), { llhttpLabel: 'other' }).summary).toEqual([
      'other reads field line 1 of request 1 as "Host: a\\r\\nb" where httpspan strict reads "Host: a".',
    ]);
  });
});

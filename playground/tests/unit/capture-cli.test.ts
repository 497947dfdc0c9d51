// The terminal command (cli/capture.ts), run as a user runs it: through tsx, on files the test writes.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capture, connection } from './capture-writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'httpspan-cli-'));
const root = new URL('../../', import.meta.url).pathname;

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(join(root, 'node_modules/.bin/tsx'), ['cli/capture.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function write(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const CLTE = 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\nHost: a\r\n\r\n';

describe('cli/capture.ts', () => {
  const clean = write('clean.pcap', capture(connection([{ request: 'GET /a HTTP/1.1\r\nHost: a\r\n\r\n', response: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok' }])));
  const smuggle = write('smuggle.pcap', capture(connection([{ request: CLTE, response: '' }])));

  it('prints one line per message with each parser\'s mark, and --check passes a clean capture', () => {
    const r = cli('--check', clean);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('1 TCP connections, 2 messages');
    expect(r.stdout).toMatch(/-> 0-28 {2}GET \/a {2}none 0 B {2}✓✓✓✓✓\n/);
    expect(r.stdout).toMatch(/<- 0-40 {2}200 OK {2}length 2 B {2}✓✓✓✓✓\n/);
  }, 60_000);

  it('--check fails on an error or a disagreement; --json is the summary the page exports', () => {
    expect(cli('--check', smuggle).status).toBe(2);
    const r = cli('--json', smuggle);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.parsers).toEqual(['httpspan', 'llhttp', 'httparse', 'picohttpparser', 'Go']);
    expect(json.connections[0].messages[0]).toMatchObject({
      direction: 'request', start: 0, end: CLTE.length, title: 'POST / HTTP/1.1', outcome: 'error',
      parsers: { httpspan: 'reject', llhttp: 'reject', httparse: 'accept', picohttpparser: 'accept', Go: 'accept' },
    });
  }, 60_000);

  it('--no-compare reads and frames only: no marks, no verdicts', () => {
    const r = cli('--no-compare', '--json', smuggle);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.parsers).toEqual([]);
    expect(json.connections[0].messages[0]).toMatchObject({ outcome: 'error', parsers: null, agreement: null });
  }, 60_000);

  it('a file that is not a capture: the reason on stderr, exit 1', () => {
    const r = cli(write('text.pcap', new TextEncoder().encode('GET / HTTP/1.1\r\n\r\n')));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('not a pcap or pcapng file: it starts with 47 45 54 20');
    expect(cli('--bogus', clean).status).toBe(1);
  }, 60_000);
});

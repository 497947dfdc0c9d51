import { expect, test } from 'vitest';
import { timeParse } from '../../src/lib/timing.ts';

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const REQ = { mode: 'request' as const, requestMethod: 'GET', lenient: [] };

test('calibrates batches to the clock, and one stall does not stop it', async () => {
  // The real clock, except that it jumps 50 ms between the first two readings: the first
  // calibration batch seems to take 50 ms.
  let calls = 0;
  const now = () => performance.now() + (++calls >= 2 ? 50 : 0);
  const input = bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
  const timing = await timeParse(input, REQ, { batches: 3, batchMs: 1, now });
  expect(timing.parsesPerBatch).toBeGreaterThan(8);
  expect(timing.state).toBe('complete');
  expect(timing.headLen).toBe(input.length);
  expect(timing.batches).toBe(3);
  expect(timing.medianNs).toBeGreaterThan(0);
});

test('reports a head that is invalid or incomplete', async () => {
  const fast = { batches: 1, batchMs: 0.01 };
  expect((await timeParse(bytes('GET / HTTP/1.1\r\n'), REQ, fast)).state).toBe('partial');
  expect((await timeParse(bytes('GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n'), REQ, fast)).state).toBe('error');
  const response = await timeParse(bytes('HTTP/1.1 204 No Content\r\n\r\n'), { ...REQ, mode: 'response' }, fast);
  expect(response.state).toBe('complete');
  expect(response.bytesPerSecond).toBeGreaterThan(0);
});

test('a second parser is timed alongside, batch for batch', async () => {
  let peerCalls = 0;
  const timing = await timeParse(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'), REQ, {
    batches: 4,
    batchMs: 0.5,
    peer: () => peerCalls++,
  });
  expect(timing.peer).not.toBeNull();
  expect(timing.peer!.parsesPerBatch).toBeGreaterThan(1);
  // Calibration (three tries per doubling) and then one batch per round.
  expect(peerCalls).toBeGreaterThanOrEqual(4 * timing.peer!.parsesPerBatch);
  expect(timing.peer!.medianNs).toBeGreaterThan(0);
  expect((await timeParse(bytes('GET'), REQ, { batches: 1, batchMs: 0.01 })).peer).toBeNull();
});

// A 50 MiB keep-alive capture in the capture view: how long it takes to show its connections and
// to compare every message, and the longest gap between frames meanwhile (reported, never
// asserted). A file of its own: tracing, which snapshots the DOM as it changes and would be
// measured as the page's own work, is off here.
import { unlinkSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { capture, connection } from '../unit/capture-writer.ts';
import { shot } from './helpers.ts';

test.use({ trace: 'off' });

test('a 50 MiB keep-alive capture opens without freezing the page (time reported)', async ({ page }, info) => {
  test.setTimeout(600_000);
  // 100 connections of keep-alive exchanges: small requests, responses with 8 KiB bodies.
  const body = 'x'.repeat(8192);
  const exchanges = Array.from({ length: 64 }, (_, i) => ({
    request: `GET /item/${i} HTTP/1.1\r\nHost: big.test\r\nUser-Agent: capture-test\r\nAccept: */*\r\n\r\n`,
    response: `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  }));
  const segs = [];
  for (let c = 0; c < 100; c++) segs.push(...connection(exchanges, { clientPort: 20000 + c, piece: 1448 }));
  const big = Buffer.from(capture(segs, 'ethernet'));
  expect(big.length).toBeGreaterThan(50 * 1024 * 1024);
  await page.goto('./');
  // The main thread must keep answering while the worker reads: the longest gap between
  // animation frames, and the tasks of 50 ms or more (the browser's long tasks).
  await page.evaluate(() => {
    const w = window as unknown as { longestFrame: number; longTasks: number[] };
    w.longestFrame = 0;
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push(Math.round(e.duration));
    }).observe({ entryTypes: ['longtask'] });
    let last = performance.now();
    const tick = (now: number) => {
      w.longestFrame = Math.max(w.longestFrame, now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  // Playwright passes buffers up to 50 MB; a larger file goes by path.
  const path = info.outputPath('big.pcap');
  writeFileSync(path, big);
  const started = Date.now();
  await page.getByTestId('capture-file').setInputFiles(path);
  await expect(page.getByTestId('capture-time')).toBeVisible({ timeout: 300_000 });
  const shown = Date.now() - started;
  await expect(page.getByTestId('capture-summary')).toContainText('12800 messages');
  await expect(page.getByTestId('capture-time')).toContainText('all parsers compared', { timeout: 540_000 });
  const text = await page.getByTestId('capture-time').textContent();
  const { longestFrame, longTasks } = await page.evaluate(() => {
    const w = window as unknown as { longestFrame: number; longTasks: number[] };
    return { longestFrame: w.longestFrame, longTasks: w.longTasks };
  });
  const line =
    `50 MiB capture (${big.length} bytes, 100 connections, 12800 messages): connections shown after ${shown} ms from setInputFiles; ` +
    `page says "${text}"; longest frame gap ${Math.round(longestFrame)} ms; long tasks (ms): ${longTasks.join(', ') || 'none'}`;
  console.log(line);
  info.annotations.push({ type: 'capture-50MiB', description: line });
  await shot(page, info, 'capture-50mib');
  unlinkSync(path);
});

// The capture view in Debian's Chromium: open a pcap, see its connections and messages, open a
// message in the inspector and its compare view, filter, share, export, bad files, the phone
// layout (capture-big.spec.ts times a 50 MiB capture).
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { capture, connection, frame, ipPacket, pcap } from '../unit/capture-writer.ts';
import { shot, watchErrors } from './helpers.ts';

const CLTE = 'POST /login HTTP/1.1\r\nHost: shop.test\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\nHost: shop.test\r\n\r\n';

/** Two connections: a keep-alive one with three exchanges, and one with a CL+TE request. */
function sample(): Buffer {
  const one = connection(
    [
      { request: 'GET /index.html HTTP/1.1\r\nHost: www.test\r\n\r\n', response: 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello' },
      { request: 'GET /api/items HTTP/1.1\r\nHost: api.test\r\n\r\n', response: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n' },
      { request: 'HEAD /big HTTP/1.1\r\nHost: www.test\r\n\r\n', response: 'HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n' },
    ],
    { clientPort: 41000, piece: 20 },
  );
  const two = connection([{ request: CLTE, response: 'HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n' }], { clientPort: 41001 });
  return Buffer.from(capture([...one, ...two], 'sll2'));
}

async function openCapture(page: Page, name: string, bytes: Buffer) {
  await page.getByTestId('capture-file').setInputFiles({ name, mimeType: 'application/vnd.tcpdump.pcap', buffer: bytes });
}

test('open a capture, see its connections, open a message and compare, filter, share, export', async ({ page }, info) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.goto('./');
  await openCapture(page, 'sample.pcap', sample());
  await expect(page.getByTestId('connection')).toHaveCount(2);
  await expect(page.getByTestId('capture-summary')).toContainText('2 TCP connections (2 HTTP/1.1), 8 messages');
  await expect(page.getByTestId('capture-message')).toHaveCount(8);
  await expect(page.locator('[data-connection="1"] [data-testid="connection-flags"]')).toHaveText('closed');
  // The other parsers' verdicts arrive from the worker.
  await expect(page.locator('[data-testid="verdicts"][data-disagree="true"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.locator('[data-testid="verdicts"][data-disagree="false"]')).toHaveCount(7);
  await shot(page, info, 'capture-connections');

  // The CL+TE request opens in the inspector: its error, and the compare view's disagreement.
  const clte = page.locator('[data-connection="2"] [data-testid="capture-message"][data-direction="request"]');
  await expect(clte).toHaveAttribute('data-outcome', 'error');
  await clte.getByTestId('open-message').click();
  await expect(page.getByTestId('status')).toHaveText('Error');
  await expect(page.getByTestId('capture-origin')).toContainText('connection #2, request 1');
  await expect(page.getByTestId('input')).toHaveValue(/Transfer-Encoding: chunked/);
  await page.locator('.compare').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('compare-framing')).toContainText('Framing differs', { timeout: 30_000 });
  await shot(page, info, 'capture-message-compare');

  // A response opens as a response to its request's method (HEAD: no body).
  await page.locator('[data-connection="1"] [data-testid="capture-message"][data-direction="response"]').nth(2).getByTestId('open-message').click();
  await expect(page.getByTestId('mode-response')).toBeChecked();
  await expect(page.getByTestId('request-method')).toHaveValue('HEAD');
  await expect(page.getByTestId('status')).toHaveText('Complete');

  // Filters.
  await page.getByTestId('filter-disagreements').check();
  await expect(page.getByTestId('capture-message')).toHaveCount(1);
  await expect(page.getByTestId('connection')).toHaveCount(1);
  await page.getByTestId('filter-disagreements').uncheck();
  await page.getByTestId('filter-errors').check();
  await expect(page.getByTestId('capture-message')).toHaveCount(1);
  await page.getByTestId('filter-errors').uncheck();
  await page.getByTestId('filter-text').fill('api.test');
  await expect(page.getByTestId('capture-message')).toHaveCount(2);
  await page.getByTestId('filter-text').fill('');

  // A message shared as a link restores as typed input.
  await page.locator('[data-connection="1"] [data-testid="capture-message"][data-direction="request"]').nth(1).getByTestId('open-message').click();
  await page.getByTestId('share').click();
  const url = page.url();
  expect(url).toContain('#v1.');
  const other = await page.context().newPage();
  await other.goto(url);
  await expect(other.getByTestId('input')).toHaveValue(/^GET \/api\/items HTTP\/1.1/);
  await expect(other.getByTestId('status')).toHaveText('Complete');
  await other.close();

  // JSON export: per message, connection, direction, offsets, each parser's verdict.
  const download = page.waitForEvent('download');
  await page.getByTestId('capture-export').click();
  const file = await (await download).path();
  const json = JSON.parse(readFileSync(file, 'utf8'));
  expect(json.parsers[0]).toBe('httpspan');
  expect(json.connections[1].messages[0]).toMatchObject({ direction: 'request', start: 0, title: 'POST /login HTTP/1.1', outcome: 'error', parsers: { httpspan: 'reject' } });
  expect(json.connections[1].messages[0].agreement).toContain('reads 2 requests');
  expect(errors).toEqual([]);
});

test('an overlap with other bytes, a retransmission and a gap are shown on their connection', async ({ page }) => {
  const c = { src: '10.0.0.1', dst: '10.0.0.2', srcPort: 40000, dstPort: 80 };
  const s = { src: '10.0.0.2', dst: '10.0.0.1', srcPort: 80, dstPort: 40000 };
  const segs = [
    { ...c, seq: 99, flags: 'S' },
    { ...s, seq: 499, flags: 'SA' },
    { ...c, seq: 100, payload: 'GET /safe HTTP/1.1\r\nHost: a\r\n\r\n' },
    { ...c, seq: 100, payload: 'GET /safe HTTP/1.1\r\n' },
    { ...c, seq: 105, payload: 'evil' },
    { ...s, seq: 500, payload: 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01' },
    { ...s, seq: 542, payload: '89' },
    { ...c, seq: 131, flags: 'R' },
  ];
  await page.goto('./');
  await openCapture(page, 'evasion.pcap', Buffer.from(capture(segs, 'vlan')));
  await expect(page.getByTestId('connection-conflict')).toHaveText(
    'client: packet 5 sends other bytes for stream bytes 5–8 than packet 3; the first copy is kept (an overlap evasion looks like this)',
  );
  await expect(page.getByTestId('connection-flags')).toHaveText('reset by the client · 20 B retransmitted · 1 gap');
  await expect(page.locator('[data-testid="capture-message"][data-direction="response"]')).toHaveAttribute('data-outcome', 'incomplete');
  await expect(page.getByTestId('capture-summary')).toContainText('Ethernet');
});

test('bad files get a clear error and the page goes on working', async ({ page }, info) => {
  const errors = watchErrors(page);
  await page.goto('./');
  await openCapture(page, 'empty.pcap', Buffer.alloc(0));
  await expect(page.getByTestId('capture-error')).toHaveText('empty.pcap: the file is empty (0 bytes) (at byte 0)');
  await openCapture(page, 'text.pcap', Buffer.from('GET / HTTP/1.1\r\n\r\n'));
  await expect(page.getByTestId('capture-error')).toContainText('not a pcap or pcapng file: it starts with 47 45 54 20');
  const good = sample();
  await openCapture(page, 'cut.pcap', good.subarray(0, good.length - 30));
  await expect(page.getByTestId('capture-problem')).toContainText('is cut off');
  await expect(page.getByTestId('connection')).toHaveCount(2);
  const udp = ipPacket({ src: '10.0.0.1', dst: '10.0.0.2', srcPort: 53, dstPort: 53, seq: 0 });
  udp[9] = 17;
  await openCapture(page, 'udp.pcap', Buffer.from(pcap([{ data: frame('ethernet', udp) }])));
  await expect(page.getByTestId('capture-summary')).toContainText('0 TCP connections');
  await shot(page, info, 'capture-no-tcp');
  // The inspector still works.
  await page.getByTestId('preset').selectOption('cl-te');
  await expect(page.getByTestId('status')).toHaveText('Error');
  expect(errors).toEqual([]);
});

test('a dropped file opens; the capture view has no accessibility violations (axe), in both themes', async ({ page }, info) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await page.goto('./');
  const bytes = [...sample()];
  await expect(page.getByRole('region', { name: 'drop a capture file here' })).toBeVisible();
  await page.evaluate((data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'dropped.pcap'));
    document.querySelector('[aria-label="drop a capture file here"]')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, bytes);
  await expect(page.getByTestId('capture-summary')).toContainText('dropped.pcap');
  await expect(page.locator('[data-testid="verdicts"][data-disagree="true"]')).toHaveCount(1, { timeout: 60_000 });
  await page.locator('[data-connection="2"] [data-testid="open-message"]').first().click();
  for (const theme of ['light', 'dark']) {
    if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.getByTestId('theme').click();
    const violations = (await new AxeBuilder({ page }).include('.capture').analyze()).violations.map((v) => `${theme}: ${v.impact} ${v.id}: ${v.nodes[0]?.any[0]?.message ?? v.help}`);
    expect(violations).toEqual([]);
  }
  await shot(page, info, 'capture-dark');
  expect(errors).toEqual([]);
});

test('a long capture draws its first rows, and more on request', async ({ page }) => {
  const exchanges = Array.from({ length: 120 }, (_, i) => ({ request: `GET /${i} HTTP/1.1\r\nHost: a\r\n\r\n`, response: 'HTTP/1.1 204 No Content\r\n\r\n' }));
  const segs = [0, 1, 2].flatMap((c) => connection(exchanges, { clientPort: 30000 + c }));
  await page.goto('./');
  await openCapture(page, 'long.pcap', Buffer.from(capture(segs)));
  await expect(page.getByTestId('capture-summary')).toContainText('720 messages');
  const first = await page.getByTestId('capture-message').count();
  expect(first).toBeLessThan(720);
  expect(first).toBeGreaterThan(100);
  await page.getByTestId('capture-more').click();
  await expect(page.getByTestId('capture-message')).toHaveCount(720);
  await expect(page.getByTestId('capture-more')).toHaveCount(0);
});

test('the capture view fits a 390 x 844 phone screen', async ({ page }, info) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./');
  await openCapture(page, 'sample.pcap', sample());
  await expect(page.locator('[data-testid="verdicts"][data-disagree]:not([data-disagree=""])')).toHaveCount(8, { timeout: 60_000 });
  const overflow = await page.evaluate(() => {
    const wide = [document.documentElement.scrollWidth > window.innerWidth ? `page ${document.documentElement.scrollWidth}` : ''];
    for (const panel of document.querySelectorAll<HTMLElement>('.panel')) {
      const box = panel.getBoundingClientRect();
      if (box.right > window.innerWidth + 0.5 || box.left < -0.5) wide.push(`${panel.getAttribute('aria-label')} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
    return wide.filter(Boolean);
  });
  expect(overflow).toEqual([]);
  await shot(page, info, 'capture-phone');
});

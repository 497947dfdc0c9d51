// The compare view's other parsers (httparse, picohttpparser, Go net/http) in Debian's Chromium,
// against the built site: loaded only when the compare view is seen, the gallery of every
// smuggling preset through every parser, a cell opening its preset, offline use once loaded,
// and the phone layout. Screenshots are kept in test-results/.
import { expect, test, type Page } from '@playwright/test';
import { shot, underServiceWorker, watchErrors } from './helpers.ts';

/** The smuggling presets' ids (requests, then responses), from the preset menu. */
function smugglingPresets(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid="preset"] optgroup[label="Smuggling attempts"] option, [data-testid="preset"] optgroup[label="Response smuggling"] option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
}
const PARSERS = ['strict', 'llhttp', 'httparse', 'picohttpparser', 'go'];
/** The requests that fetch the other parsers. */
const LAZY = /\/assets\/(go|httparse|picohttpparser|load)-[\w-]+\.(wasm|js)$/;

/** Scrolls to the compare view and waits for the three other columns. */
async function showCompare(page: Page) {
  await page.locator('.compare').scrollIntoViewIfNeeded();
  for (const id of ['httparse', 'picohttpparser', 'go']) {
    await expect(page.locator(`[data-testid="compare-table"] th[data-column="${id}"]`)).toBeVisible({ timeout: 30_000 });
  }
}

test('the first paint does not load the other parsers; the compare view does', async ({ page }, info) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  const requested: string[] = [];
  page.context().on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.setViewportSize({ width: 1400, height: 700 });
  await page.goto('./');
  await expect(page.getByTestId('input')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(requested.filter((p) => LAZY.test(p))).toEqual([]);
  await showCompare(page);
  const lazy = requested.filter((p) => LAZY.test(p));
  for (const name of ['go', 'httparse', 'picohttpparser', 'load']) expect(lazy.some((p) => p.includes(`/assets/${name}-`))).toBe(true);
  await page.getByTestId('preset').selectOption('cl-te');
  await expect(page.getByTestId('compare-framing')).toContainText('Framing differs');
  await expect(page.getByTestId('compare-built-from')).toContainText('picohttpparser-sys');
  await expect(page.getByTestId('preset-disagreement')).toContainText('httparse, picohttpparser, Go');
  await page.locator('.compare').scrollIntoViewIfNeeded();
  await shot(page, info, 'compare-all-parsers');
  expect(errors).toEqual([]);
});

test('the gallery shows every smuggling preset for every parser, and a cell opens its preset', async ({ page }, info) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.goto('./');
  await showCompare(page);
  await page.getByTestId('compare-gallery-view').click();
  const gallery = page.getByTestId('gallery');
  const smuggling = await smugglingPresets(page);
  expect(smuggling.length).toBeGreaterThan(5);
  await expect(gallery.locator('tbody tr')).toHaveCount(smuggling.length);
  for (const id of smuggling) {
    const row = gallery.locator(`tr[data-preset="${id}"]`);
    for (const parser of PARSERS) {
      await expect(row.locator(`[data-testid="gallery-cell"][data-column="${parser}"]`)).toHaveAttribute('data-verdict', /^(accept|reject|different)$/);
    }
  }
  // CL.TE: httpspan and llhttp reject, the three others accept.
  const clTe = gallery.locator('tr[data-preset="cl-te"]');
  await expect(clTe.locator('[data-column="strict"]')).toHaveAttribute('data-verdict', 'reject');
  await expect(clTe.locator('[data-column="go"]')).toHaveAttribute('data-verdict', 'accept');
  await gallery.scrollIntoViewIfNeeded();
  await gallery.screenshot({ path: info.outputPath('gallery.png') });
  await shot(page, info, 'gallery-page');
  await page.locator('tr[data-preset="obs-fold-transfer-encoding"] [data-column="go"]').click();
  await expect(page.getByTestId('preset')).toHaveValue('obs-fold-transfer-encoding');
  await expect(page.getByTestId('compare-table')).toBeVisible();
  // A response preset opens as responses.
  expect(smuggling).toContain('response-te-space-before-colon');
  await page.getByTestId('compare-gallery-view').click();
  await page.locator('tr[data-preset="response-te-space-before-colon"] [data-column="go"]').click();
  await expect(page.getByTestId('preset')).toHaveValue('response-te-space-before-colon');
  await expect(page.getByTestId('mode-response')).toBeChecked();
  expect(errors).toEqual([]);
});

test('the other parsers work offline once loaded', async ({ page, context }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await underServiceWorker(page);
  await showCompare(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('input')).toBeVisible();
  await showCompare(page);
  await page.getByTestId('preset').selectOption('bare-lf-field-line');
  await expect(page.getByTestId('compare-framing')).toContainText('Go net/http');
  await context.setOffline(false);
  expect(errors).toEqual([]);
});

test('every panel fits a 390 x 844 phone screen', async ({ page }, info) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./');
  await page.getByTestId('preset').selectOption('cl-te');
  await showCompare(page);
  const overflow = () =>
    page.evaluate(() => {
      const wide = [document.documentElement.scrollWidth > window.innerWidth ? `page ${document.documentElement.scrollWidth}` : ''];
      for (const panel of document.querySelectorAll<HTMLElement>('.panel')) {
        const box = panel.getBoundingClientRect();
        if (box.right > window.innerWidth + 0.5 || box.left < -0.5) wide.push(`${panel.getAttribute('aria-label')} ${Math.round(box.left)}..${Math.round(box.right)}`);
      }
      return wide.filter(Boolean);
    });
  expect(await overflow()).toEqual([]);
  await shot(page, info, 'phone');
  await page.getByTestId('compare-gallery-view').click();
  await expect(page.getByTestId('gallery')).toBeVisible();
  expect(await overflow()).toEqual([]);
  await shot(page, info, 'phone-gallery');
  expect(errors).toEqual([]);
});

test('step mode through a 100 KiB body at 1-byte pieces: time per forward step (reported, not asserted)', async ({ page }, info) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await page.goto('./');
  const body = 100 * 1024;
  const input = page.getByTestId('input');
  await input.click();
  await input.press('Control+a');
  await input.press('Delete');
  await input.evaluate((el, n) => {
    const data = new DataTransfer();
    data.setData('text/plain', `PUT /upload HTTP/1.1\r\nHost: a\r\nContent-Length: ${n}\r\n\r\n${'x'.repeat(n)}`);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, body);
  await expect(page.getByTestId('status')).toHaveText('Complete', { timeout: 30_000 });
  await page.getByTestId('step-toggle').check();
  await page.getByTestId('step-piece').selectOption('1');
  await page.getByTestId('step-slider').fill('60000');
  await expect(page.getByTestId('step-fed')).toContainText('60000 of');
  // Each step: click, then wait for the fed count to change and the next frame to be painted.
  const times = await page.evaluate(async () => {
    const next = document.querySelector<HTMLButtonElement>('[data-testid="step-next"]')!;
    const fed = document.querySelector<HTMLElement>('[data-testid="step-fed"]')!;
    const out: number[] = [];
    for (let k = 0; k < 40; k++) {
      const before = fed.textContent;
      const t0 = performance.now();
      next.click();
      while (fed.textContent === before) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      out.push(performance.now() - t0);
    }
    return out;
  });
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const report = `forward step at 1-byte pieces, 100 KiB body, 40 steps from byte 60000: median ${median.toFixed(1)} ms, fastest ${sorted[0].toFixed(1)} ms, slowest ${sorted.at(-1)!.toFixed(1)} ms`;
  console.log(report);
  info.annotations.push({ type: 'step timing', description: report });
  await expect(page.getByTestId('step-fed')).toContainText('60040 of');
  // The loop above starts each step in the animation frame callback of the previous one, so a step
  // that fits in a frame measures one frame interval (16.7 ms at 60 Hz). A finer measurement, over
  // 40 more steps: the main thread's own work per step, script (the click until the state and the
  // DOM are updated, which Svelte does in microtasks) plus rendering (from the next frame's
  // animation callbacks to the task after them, when that frame's style, layout and paint are done).
  const work = await page.evaluate(async () => {
    const next = document.querySelector<HTMLButtonElement>('[data-testid="step-next"]')!;
    const fed = document.querySelector<HTMLElement>('[data-testid="step-fed"]')!;
    const out: { script: number; render: number }[] = [];
    for (let k = 0; k < 40; k++) {
      const before = fed.textContent;
      const t0 = performance.now();
      next.click();
      for (let m = 0; m < 5; m++) await Promise.resolve();
      const script = performance.now() - t0;
      if (fed.textContent === before) throw new Error('the step was not in the DOM after the microtasks of its click');
      const render = await new Promise<number>((resolve) =>
        requestAnimationFrame(() => {
          const r0 = performance.now();
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve(performance.now() - r0);
          channel.port2.postMessage(null);
        }),
      );
      out.push({ script, render });
    }
    return out;
  });
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const totals = work.map((w) => w.script + w.render);
  const finer = `work per forward step (script + rendering of its frame), 40 more steps: median ${med(totals).toFixed(1)} ms (script ${med(work.map((w) => w.script)).toFixed(1)} ms, rendering ${med(work.map((w) => w.render)).toFixed(1)} ms), slowest ${Math.max(...totals).toFixed(1)} ms`;
  console.log(finer);
  info.annotations.push({ type: 'step work', description: finer });
  await expect(page.getByTestId('step-fed')).toContainText('60080 of');
  await shot(page, info, 'step-100k');
  expect(errors).toEqual([]);
});

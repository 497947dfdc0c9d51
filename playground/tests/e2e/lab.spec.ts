// The smuggling lab in Debian's Chromium, against the built site: every lesson solved by typing
// its stored answer, a desync shown byte by byte, the origin's responses on the pair page (HEAD
// included) and the grid on responses, the grid and its links, share links, progress across
// reloads, offline use, the 390 px layout and axe in both themes.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { LESSONS } from '../../src/lib/lab/lessons.ts';
import { shot, underServiceWorker, watchErrors } from './helpers.ts';

/** Opens a lab page and waits until every parser is loaded. */
async function openLab(page: Page, fragment = 'lab'): Promise<string[]> {
  const errors = watchErrors(page);
  await page.goto(`./#${fragment}`);
  await expect(page.getByTestId('lab-tab-lessons')).toBeVisible();
  await expect(page.getByTestId('lab-loading')).toHaveCount(0, { timeout: 60_000 });
  return errors;
}

/** Opens preset `id` in the inspector and sends it to the lab's grid; waits for every parser. */
async function openPresetInLab(page: Page, id: string): Promise<string[]> {
  const errors = watchErrors(page);
  await page.goto('./');
  await page.getByTestId('preset').selectOption(id);
  await page.getByTestId('open-in-lab').click();
  await expect(page.getByTestId('lab-loading')).toHaveCount(0, { timeout: 60_000 });
  return errors;
}

/** Types `text` into an editor's raw view: Enter is CRLF, Shift+Enter a bare LF, Alt+Enter a bare CR. */
async function typeBytes(page: Page, text: string, editor = 'input') {
  const input = page.getByTestId(editor);
  await input.click();
  await input.press('Control+a');
  await input.press('Delete');
  for (const piece of text.split(/(\r\n|\n|\r)/)) {
    if (piece === '\r\n') await input.press('Enter');
    else if (piece === '\n') await input.press('Shift+Enter');
    else if (piece === '\r') await input.press('Alt+Enter');
    else if (piece) await input.pressSequentially(piece);
  }
}

for (const lesson of LESSONS) {
  test(`lesson ${lesson.id}: the start does not meet the goal, the typed answer does`, async ({ page }, info) => {
    test.setTimeout(90_000);
    const errors = await openLab(page);
    await page.getByTestId(`lab-lesson-${lesson.id}`).click();
    await expect(page.getByTestId('lab-goal-status')).toHaveAttribute('data-met', 'false');
    await typeBytes(page, lesson.answer);
    await expect(page.getByTestId('lab-goal-status')).toHaveAttribute('data-met', 'true', { timeout: 15_000 });
    await expect(page.getByTestId('lab-afterword')).toBeVisible();
    await expect(page.getByTestId('lab-strict-refusal')).toContainText(/Strict httpspan (refuses this input at byte \d+|accepts)/);
    if (lesson.goal === 'back-refuses') {
      // The afterword names the byte the back end stops at; the page shows the same refusal.
      const at = /at upstream byte (\d+)/.exec(lesson.afterword)![1];
      await expect(page.getByTestId('lab-back-refusal')).toContainText(`refuses the forwarded request at upstream byte ${at}:`);
      await expect(page.getByTestId('lab-verdict')).toHaveAttribute('data-verdict', 'back-rejects');
    }
    if (lesson.direction === 'response') {
      // The input is responses: the page says so, and the next client's request gets the hidden one.
      await expect(page.getByTestId('lab-direction')).toBeVisible();
      await expect(page.getByTestId('lab-verdict')).toHaveAttribute('data-verdict', 'desync');
      await expect(page.getByTestId('lab-victim')).toContainText("answered with the front end's response 2");
      await expect(page.getByTestId('lab-upstream-stream')).toContainText('responses the front end (llhttp insecure) reads');
      await expect(page.getByTestId('lab-client-stream')).toContainText('responses the back end (Go ReadResponse) read');
    }
    await shot(page, info, `lesson-${lesson.id}`);
    // Solved lessons are kept in local storage.
    await page.getByTestId('lab-tab-lessons').click();
    await expect(page.getByTestId(`lab-solved-${lesson.id}`)).toBeVisible();
    await page.reload();
    await expect(page.getByTestId(`lab-solved-${lesson.id}`)).toBeVisible();
    expect(errors).toEqual([]);
  });
}

const SPACE_BEFORE_COLON_CL = 'POST / HTTP/1.1\r\nHost: h\r\nContent-Length : 23\r\n\r\nGET /admin HTTP/1.1\r\nX:';

test('a pair shows a desync byte by byte, and its share link restores it', async ({ page }, info) => {
  test.setTimeout(90_000);
  const errors = await openLab(page);
  await page.getByTestId('lab-tab-pair').click();
  await page.getByTestId('lab-front').selectOption('httpspan+spaceBeforeColon');
  await page.getByTestId('lab-back').selectOption('go');
  await typeBytes(page, SPACE_BEFORE_COLON_CL);
  const verdict = page.getByTestId('lab-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'desync');
  await expect(page.getByTestId('lab-victim')).toContainText('GET /admin HTTP/1.1');
  // The smuggled prefix is marked on the client's bytes: the 23 bytes after the head.
  const smuggled = page.getByTestId('lab-client-stream').locator('.bytes span.smuggled');
  await expect(smuggled).toHaveCount(23);
  await expect(page.getByTestId('lab-upstream-stream').locator('.bytes span.victim').first()).toBeVisible();
  await page.getByTestId('lab-upstream-stream').scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('lab-desync.png'), fullPage: false });
  await shot(page, info, 'lab-desync-page');
  // Re-serializing the same request ends the desync.
  await page.getByTestId('lab-reserialize').check();
  await expect(verdict).not.toHaveAttribute('data-verdict', 'desync');
  await page.getByTestId('lab-raw').check();
  const link = page.url();
  expect(link).toContain('#lab/pair/httpspan+spaceBeforeColon/go/raw/v1.');
  const other = await page.context().newPage();
  await other.goto(link);
  await expect(other.getByTestId('lab-verdict')).toHaveAttribute('data-verdict', 'desync', { timeout: 60_000 });
  await expect(other.getByTestId('lab-front')).toHaveValue('httpspan+spaceBeforeColon');
  expect(errors).toEqual([]);
});

/** The origin's answer with Transfer-Encoding hidden by a space: Go reads one response, llhttp insecure two. */
const TE_SPACE_RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Length: 48\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\npwned';

test('the pair page runs the origin’s responses back through the pair, and its share link keeps them', async ({ page }, info) => {
  test.setTimeout(90_000);
  const errors = await openLab(page);
  await page.getByTestId('lab-tab-pair').click();
  await page.getByTestId('lab-front').selectOption('llhttp-insecure');
  await page.getByTestId('lab-back').selectOption('go');
  await typeBytes(page, 'GET / HTTP/1.1\r\nHost: h\r\n\r\n');
  await expect(page.getByTestId('lab-verdict')).toHaveAttribute('data-verdict', 'agree');
  await expect(page.getByTestId('lab-responses-verdict')).toHaveCount(0);
  await typeBytes(page, TE_SPACE_RESPONSE, 'lab-responses-input');
  const verdict = page.getByTestId('lab-responses-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'desync');
  await expect(verdict).toContainText('The back end (Go ReadResponse) reads 1 response');
  await expect(verdict).toContainText('the front end to the ones it forwarded (GET)');
  await expect(page.getByTestId('lab-responses-victim')).toContainText("answered with the front end's response 2");
  // Both framings drawn on the bytes: Go's one response on the origin's bytes, llhttp's two below the forwarded ones.
  await expect(page.getByTestId('lab-responses-client-stream')).toContainText('responses the back end (Go ReadResponse) read');
  await expect(page.getByTestId('lab-responses-upstream-stream')).toContainText('responses the front end (llhttp insecure) reads');
  await expect(page.getByTestId('lab-responses-upstream-stream').locator('.bytes span.victim').first()).toBeVisible();
  await page.getByTestId('lab-responses-upstream-stream').scrollIntoViewIfNeeded();
  await shot(page, info, 'lab-pair-responses');
  const link = page.url();
  expect(link.split('#')[1].split('/')).toHaveLength(7);
  const other = await page.context().newPage();
  await other.goto(link);
  await expect(other.getByTestId('lab-responses-verdict')).toHaveAttribute('data-verdict', 'desync', { timeout: 60_000 });
  await expect(other.getByTestId('lab-responses-input')).toHaveValue(/Transfer-Encoding : chunked/);
  // Go's server reads no responses: the page says so rather than running them.
  await page.getByTestId('lab-back').selectOption('go-server');
  await expect(page.getByTestId('lab-responses-refused')).toContainText('reads no responses');
  expect(errors).toEqual([]);
});

test('a HEAD smuggled past the front end: the back end answers it without a body, the next client gets its Content-Length worth', async ({ page }, info) => {
  test.setTimeout(90_000);
  const errors = await openLab(page);
  await page.getByTestId('lab-tab-pair').click();
  await page.getByTestId('lab-front').selectOption('httpspan+spaceBeforeColon');
  await page.getByTestId('lab-back').selectOption('go');
  const hidden = 'HEAD /static HTTP/1.1\r\nHost: h\r\n\r\n';
  await typeBytes(page, `POST / HTTP/1.1\r\nHost: h\r\nContent-Length : ${hidden.length}\r\n\r\n` + hidden);
  await expect(page.getByTestId('lab-verdict')).toHaveAttribute('data-verdict', 'desync');
  const redirect = 'HTTP/1.1 302 Found\r\nLocation: https://evil.example/\r\nContent-Length: 0\r\n\r\n';
  await typeBytes(page, 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n' + `HTTP/1.1 200 OK\r\nContent-Length: ${redirect.length}\r\n\r\n` + redirect, 'lab-responses-input');
  await expect(page.getByTestId('lab-responses-verdict')).toHaveAttribute('data-verdict', 'desync');
  await expect(page.getByTestId('lab-responses-verdict')).toContainText('answers to the requests it read (POST, HEAD)');
  await expect(page.getByTestId('lab-responses-victim')).toContainText("answered with the front end's response 2");
  await shot(page, info, 'lab-pair-head');
  expect(errors).toEqual([]);
});

test('a response preset goes to the grid on responses; the switch and a cell keep the direction', async ({ page }, info) => {
  test.setTimeout(120_000);
  const errors = await openPresetInLab(page, 'response-te-space-before-colon');
  await expect(page.getByTestId('lab-grid-responses')).toBeChecked();
  const grid = page.getByTestId('lab-grid');
  await expect(page.getByTestId('lab-grid-count')).toHaveText('4 of 256 pairs desync.');
  await expect(grid.locator('[data-pair="llhttp-insecure>go"]')).toHaveAttribute('data-verdict', 'desync');
  await expect(grid.locator('[data-pair^="go-server>"]')).toHaveCount(0);
  await shot(page, info, 'lab-grid-responses');
  // The same bytes read as requests are another grid (17 × 17).
  await page.getByTestId('lab-grid-requests').check();
  await expect(page.getByTestId('lab-grid-count')).not.toHaveText('4 of 256 pairs desync.');
  await expect(grid.locator('[data-pair^="go-server>"]')).toHaveCount(17);
  await page.getByTestId('lab-grid-responses').check();
  await grid.locator('[data-pair="llhttp-insecure>go"]').click();
  await expect(page.getByTestId('lab-responses-verdict')).toHaveAttribute('data-verdict', 'desync');
  await expect(page.getByTestId('lab-responses-input')).toHaveValue(/Transfer-Encoding : chunked/);
  expect(errors).toEqual([]);
});

test('the grid names the desyncing pairs; a gallery preset goes to it and a cell opens its pair', async ({ page }, info) => {
  test.setTimeout(120_000);
  const errors = await openPresetInLab(page, 'te-in-http10');
  const grid = page.getByTestId('lab-grid');
  await expect(grid).toBeVisible();
  await expect(page.getByTestId('lab-grid-count')).toContainText('pairs desync');
  const desync = grid.locator('[data-verdict="desync"]');
  expect(await desync.count()).toBeGreaterThan(0);
  await shot(page, info, 'lab-grid');
  const pair = (await desync.first().getAttribute('data-pair'))!;
  await desync.first().click();
  await expect(page.getByTestId('lab-verdict')).toHaveAttribute('data-verdict', 'desync');
  await expect(page.getByTestId('lab-front')).toHaveValue(pair.split('>')[0]);
  await expect(page.getByTestId('lab-back')).toHaveValue(pair.split('>')[1]);
  // The keyboard reaches the grid's links.
  await page.getByTestId('lab-tab-grid').focus();
  await page.keyboard.press('Enter');
  await expect(grid).toBeVisible();
  expect(errors).toEqual([]);
});

test('the lab works offline once loaded', async ({ page, context }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await underServiceWorker(page);
  await page.goto('./#lab');
  await expect(page.getByTestId('lab-loading')).toHaveCount(0, { timeout: 60_000 });
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('lab-loading')).toHaveCount(0, { timeout: 60_000 });
  await page.getByTestId(`lab-lesson-${LESSONS[0].id}`).click();
  await expect(page.getByTestId('lab-goal-status')).toHaveAttribute('data-met', 'false');
  await context.setOffline(false);
  expect(errors).toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`a lesson where the back end refuses has no accessibility violations (axe), ${theme} theme`, async ({ page }, info) => {
    test.setTimeout(90_000);
    const errors = await openLab(page);
    if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.getByTestId('theme').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const lesson = LESSONS.find((l) => l.id === 'chunk-size-0x')!;
    await page.getByTestId(`lab-lesson-${lesson.id}`).click();
    await page.getByTestId('lab-show-answer').click();
    await page.getByTestId('lab-use-answer').click();
    await expect(page.getByTestId('lab-goal-status')).toHaveAttribute('data-met', 'true');
    await expect(page.getByTestId('lab-back-refusal')).toBeVisible();
    await expect(page.getByTestId('lab-verdict')).toHaveAttribute('data-verdict', 'back-rejects');
    const violations = (await new AxeBuilder({ page }).analyze()).violations.map(
      (v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes[0]?.target.join(' ')} ${v.nodes[0]?.any[0]?.message ?? v.help}`,
    );
    await shot(page, info, `lab-back-refuses-${theme}`);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });
}

for (const [theme, width] of [
  ['light', 1400],
  ['dark', 1400],
  ['light', 390],
  ['dark', 390],
] as const) {
  test(`the lab has no accessibility violations (axe), ${theme} theme, ${width} px`, async ({ page }, info) => {
    test.setTimeout(120_000);
    if (width === 390) await page.setViewportSize({ width: 390, height: 844 });
    const errors = await openLab(page);
    if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.getByTestId('theme').click();
    const found: string[] = [];
    const violations = async (what: string) =>
      found.push(
        ...(await new AxeBuilder({ page }).analyze()).violations.map(
          (v) => `${what}: ${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes[0]?.target.join(' ')} ${v.nodes[0]?.any[0]?.message ?? v.help}`,
        ),
      );
    const overflow = () => page.evaluate(() => (document.documentElement.scrollWidth > window.innerWidth ? [`page ${document.documentElement.scrollWidth}`] : []));
    await violations('lessons');
    await page.getByTestId(`lab-lesson-${LESSONS[0].id}`).click();
    await page.getByTestId('lab-use-answer').waitFor({ state: 'detached' });
    await page.getByTestId('lab-show-answer').click();
    await page.getByTestId('lab-use-answer').click();
    await expect(page.getByTestId('lab-goal-status')).toHaveAttribute('data-met', 'true');
    await violations('lesson');
    await page.goto(`./#lab/pair/httpspan+spaceBeforeColon/go/raw/${await page.evaluate(() => location.hash.split('/').pop())}`);
    await page.getByTestId('lab-tab-pair').click();
    await expect(page.getByTestId('lab-verdict')).toBeVisible();
    await violations('pair');
    expect(await overflow()).toEqual([]);
    await page.getByTestId('lab-front').selectOption('llhttp-insecure');
    await typeBytes(page, TE_SPACE_RESPONSE, 'lab-responses-input');
    await expect(page.getByTestId('lab-responses-verdict')).toHaveAttribute('data-verdict', 'desync');
    await violations('pair with responses');
    expect(await overflow()).toEqual([]);
    await page.getByTestId('lab-tab-grid').click();
    await expect(page.getByTestId('lab-grid')).toBeVisible();
    await violations('grid');
    expect(await overflow()).toEqual([]);
    await page.getByTestId('lab-grid-responses').check();
    await expect(page.getByTestId('lab-grid-method')).toBeVisible();
    await violations('grid on responses');
    expect(await overflow()).toEqual([]);
    await shot(page, info, `lab-${theme}-${width}`);
    expect(found).toEqual([]);
    expect(errors).toEqual([]);
  });
}

// End-to-end tests of the playground in Debian's Chromium, against the built site. Each test
// keeps a screenshot (playwright.config: screenshot 'on'); the ones named below are extra.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { shot, watchErrors } from './helpers.ts';

async function open(page: Page, path = './'): Promise<string[]> {
  const errors = watchErrors(page);
  await page.goto(path);
  await expect(page.getByTestId('input')).toBeVisible();
  return errors;
}

/** Replaces the input by typing it in the raw view: Enter types CRLF there. */
async function typeMessage(page: Page, lines: string[]) {
  const input = page.getByTestId('input');
  await input.click();
  await input.press('Control+a');
  await input.press('Delete');
  for (const [i, line] of lines.entries()) {
    if (line) await input.pressSequentially(line);
    if (i < lines.length - 1) await input.press('Enter');
  }
}

async function loadPreset(page: Page, id: string) {
  await page.getByTestId('preset').selectOption(id);
}

test('typing a request shows its fields, spans, known slots and semantics', async ({ page }, info) => {
  const errors = await open(page);
  await typeMessage(page, ['GET /hello?x=1 HTTP/1.1', 'Host: example.com', 'Accept: */*', 'X-Custom: yes', '', '']);
  await expect(page.getByTestId('input')).toHaveValue(/^GET \/hello\?x=1 HTTP\/1\.1␍␊\nHost: example\.com␍␊\n/);
  await expect(page.getByTestId('status')).toHaveText('Complete');
  const rows = page.getByTestId('field-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('Host');
  await expect(rows.nth(0)).toContainText('example.com');
  // "GET /hello?x=1 HTTP/1.1\r\n" is 25 bytes: the name at 25, the value at 31.
  await expect(rows.nth(0)).toContainText('(25, 4) (31, 11)');
  await expect(rows.nth(2)).toContainText('none');
  // Host and Accept are known headers: two bits lit.
  await expect(page.locator('[data-testid="known-bit"][data-on="true"]')).toHaveCount(2);
  await expect(page.getByTestId('known-bit')).toHaveCount(64);
  await expect(page.getByTestId('sem-framing')).toContainText('none');
  await expect(page.getByTestId('sem-keep-alive')).toContainText('yes');
  // Byte classes: the method's three bytes, the target's.
  await expect(page.locator('[data-testid="byte"][data-class="method"]')).toHaveCount(3);
  await expect(page.locator('[data-testid="byte"][data-class="target"]')).toHaveCount('/hello?x=1'.length);
  await expect(page.locator('[data-testid="byte"][data-class="eol"]')).toHaveCount(10);
  await shot(page, info, 'typed-request');
  expect(errors).toEqual([]);
});

test('hover and focus link fields and bytes both ways', async ({ page }, info) => {
  const errors = await open(page);
  await loadPreset(page, 'request-small');
  const row = page.getByTestId('field-row').first();
  const name = (await row.locator('td.name').textContent())!.trim();
  // Field row → bytes: the field line's bytes are lit, no others.
  await row.hover();
  const lit = page.locator('[data-testid="byte"].lit');
  const count = await lit.count();
  expect(count).toBeGreaterThan(name.length);
  const first = Number(await lit.first().getAttribute('data-offset'));
  await expect(page.getByTestId('byte').nth(first)).toHaveText(
    name.charCodeAt(0).toString(16).padStart(2, '0'),
  );
  // The editor lights the same bytes under its text: the textarea stays on top of them.
  const litRun = page.locator('.mirror .lit').first();
  await expect(litRun).toBeVisible();
  const box = (await litRun.boundingBox())!;
  // (The mirror ignores the pointer; let it take part in hit testing to see what is on top.)
  const top = await page.evaluate(([x, y]) => {
    (document.querySelector('.mirror') as HTMLElement).style.pointerEvents = 'auto';
    const hit = document.elementFromPoint(x, y);
    (document.querySelector('.mirror') as HTMLElement).style.pointerEvents = '';
    return hit?.getAttribute('data-testid') ?? hit?.className;
  }, [box.x + box.width / 2, box.y + box.height / 2]);
  expect(top).toBe('input');
  await shot(page, info, 'hover-field');
  // Byte → field: pointing at a byte of the name names the field and lights its row.
  await page.mouse.move(0, 0);
  await page.getByTestId('byte').nth(first + 1).hover();
  await expect(page.getByTestId('byte-info')).toContainText(`field line 1: ${name}`);
  await expect(row).toHaveClass(/lit-row/);
  // Keyboard: focus a row with Tab-like focus, then the grid with arrow keys.
  await page.mouse.move(0, 0);
  await row.focus();
  await expect(page.locator('[data-testid="byte"].lit')).toHaveCount(count);
  await page.getByTestId('byte').nth(0).click();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('byte-info')).toContainText('byte 1');
  await expect(page.getByTestId('byte-info')).toContainText('method');
  await page.keyboard.press('End');
  await expect(page.getByTestId('byte-info')).toContainText('empty line: end of the head');
  await shot(page, info, 'keyboard-byte');
  expect(errors).toEqual([]);
});

test('an error shows its byte, code, explanation, status and RFC link', async ({ page }, info) => {
  const errors = await open(page);
  await typeMessage(page, ['GET / HTTP/1.1', 'Host: a', 'X-Bad: a\u0001b', '', '']);
  // \x01 types as itself and shows as its control picture.
  await expect(page.getByTestId('input')).toHaveValue(/X-Bad: a␁b/);
  await expect(page.getByTestId('status')).toHaveText('Error');
  const panel = page.getByTestId('error');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('error-code')).toHaveText('invalid_field_value');
  // 16 + 9 bytes of lines, then "X-Bad: a": the control byte is at 33.
  await expect(page.getByTestId('error-offset')).toHaveText('33');
  await expect(panel).toContainText('line 3, column 9');
  await expect(page.getByTestId('error-status')).toHaveText('400');
  await expect(page.getByTestId('error-rfc')).toHaveAttribute('href', /^https:\/\/www\.rfc-editor\.org\/rfc\/rfc91(10|12)#section-/);
  await expect(page.locator('[data-testid="byte"][data-offset="33"]')).toHaveClass(/err-byte/);
  await expect(page.locator('.mirror .err-byte')).toHaveText('␁');
  // Bytes after the error were not read.
  await expect(page.locator('[data-testid="byte"][data-offset="34"]')).toHaveAttribute('data-class', 'unread');
  await shot(page, info, 'error');
  expect(errors).toEqual([]);
});

test('each preset parses as its explanation says', async ({ page }) => {
  const errors = await open(page);
  const options = page.locator('[data-testid="preset"] option[data-expect-status]');
  const presets = await options.evaluateAll((els) =>
    els.map((el) => ({
      id: (el as HTMLOptionElement).value,
      status: el.getAttribute('data-expect-status')!,
      code: el.getAttribute('data-expect-code')!,
    })),
  );
  expect(presets.length).toBeGreaterThanOrEqual(15);
  const badge = { complete: 'Complete', partial: 'Partial', error: 'Error' } as Record<string, string>;
  for (const p of presets) {
    await loadPreset(page, p.id);
    await expect(page.getByTestId('preset-explanation'), p.id).not.toBeEmpty();
    await expect(page.getByTestId('status'), p.id).toHaveText(badge[p.status]);
    if (p.code) await expect(page.getByTestId('error-code'), p.id).toHaveText(p.code);
    else await expect(page.getByTestId('error'), p.id).toHaveCount(0);
  }
  expect(errors).toEqual([]);
});

test('step mode reaches Complete at the last byte of the message', async ({ page }, info) => {
  const errors = await open(page);
  await typeMessage(page, ['PUT /x HTTP/1.1', 'Host: a', 'Content-Length: 2', '', 'ok']);
  const total = 'PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok'.length;
  await expect(page.getByTestId('status')).toHaveText('Complete');
  await page.getByTestId('step-toggle').check();
  const slider = page.getByTestId('step-slider');
  await slider.fill(String(total - 1));
  await expect(page.getByTestId('status')).toHaveText('Partial');
  await expect(page.getByTestId('step-fed')).toContainText(`${total - 1} of ${total}`);
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('status')).toHaveText('Complete');
  await expect(page.getByTestId('step-events')).toContainText('end: message 1 complete');
  // In the head: resumes at the start of the line in progress (byte 17, the Host line).
  await slider.fill('20');
  await expect(page.getByTestId('status')).toHaveText('Partial');
  await expect(page.getByTestId('step-resume')).toContainText('Resumes at byte 17 (line 2)');
  await expect(page.getByTestId('step-resume')).toContainText('the 3 bytes after it are held');
  await expect(page.locator('[data-testid="byte"][data-offset="25"]')).toHaveClass(/unfed/);
  await shot(page, info, 'step-mode');
  // The head ends with its final LF, byte 46: the head event comes when 47 bytes are fed, and
  // the message stays Partial (its body is due).
  await slider.fill('46');
  await expect(page.getByTestId('step-events')).toHaveText('No event yet.');
  await slider.fill('47');
  await expect(page.getByTestId('step-events')).toContainText('@47 head');
  await expect(page.getByTestId('status')).toHaveText('Partial');
  expect(errors).toEqual([]);
});

test('the editor colours follow step mode, hover and errors (CSS highlights over the mirror text)', async ({ page }, info) => {
  const errors = await open(page);
  await typeMessage(page, ['PUT /x HTTP/1.1', 'Host: a', 'Content-Length: 40', '', 'x'.repeat(40)]);
  await expect(page.getByTestId('status')).toHaveText('Complete');
  /** The text under each highlight's ranges, by class (the mirror's classes as the engine paints them). */
  const coloured = () =>
    page.evaluate(() => {
      const out: Record<string, string[]> = {};
      for (const [name, h] of CSS.highlights) {
        const texts = [...(h as Highlight)].map((r) => (r as Range).toString()).filter((t) => t !== '');
        if (texts.length > 0) out[name.replace(/^hs-/, '')] = texts.sort();
      }
      return out;
    });
  const whole = await coloured();
  expect(whole.method).toEqual(['PUT']);
  expect(whole.body).toEqual(['x'.repeat(40)]);
  expect(whole.name).toEqual(['Content-Length', 'Host']);
  await page.getByTestId('step-toggle').check();
  const head = 'PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 40\r\n\r\n'.length;
  await page.getByTestId('step-slider').fill(String(head + 5));
  await expect(page.getByTestId('step-fed')).toContainText(`${head + 5} of`);
  expect((await coloured()).body).toEqual(['xxxxx']);
  for (let k = 1; k <= 3; k++) {
    await page.getByTestId('step-next').click();
    await expect(page.getByTestId('step-fed')).toContainText(`${head + 5 + k} of`);
    expect((await coloured()).body).toEqual(['x'.repeat(5 + k)]);
  }
  // Pointing at a field row splits the mirror's text (a lit span): the ranges are placed again.
  await page.getByTestId('field-row').nth(1).hover();
  await expect(page.locator('.mirror .lit')).toHaveText('Content-Length: 40␍␊\n');
  const lit = await coloured();
  expect(lit.name).toEqual(['Content-Length', 'Host']);
  expect(lit.value).toEqual(['40', 'a']);
  expect(lit.body).toEqual(['x'.repeat(8)]);
  await page.getByTestId('step-next').click();
  expect((await coloured()).body).toEqual(['x'.repeat(9)]);
  await page.mouse.move(0, 0);
  await expect(page.locator('.mirror .lit')).toHaveCount(0);
  expect((await coloured()).body).toEqual(['x'.repeat(9)]);
  await page.locator('.editor').screenshot({ path: info.outputPath('editor-step.png') });
  // Back a step: the decoder starts again from byte 0; the colours follow.
  await page.getByTestId('step-back').click();
  await expect(page.getByTestId('step-fed')).toContainText(`${head + 8} of`);
  expect((await coloured()).body).toEqual(['x'.repeat(8)]);
  // An error: its byte is a span of its own, and no class colours it.
  await page.getByTestId('step-toggle').uncheck();
  await typeMessage(page, ['GET / HTTP/1.1', 'Host: a', 'X-Bad: a\u0001b', '', '']);
  await expect(page.locator('.mirror .err-byte')).toHaveText('␁');
  const failed = await coloured();
  expect(failed.accepted).toEqual(['GET / HTTP/1.1␍␊\nHost: a␍␊\n']);
  expect(Object.values(failed).flat().some((t) => t.includes('␁'))).toBe(false);
  expect(errors).toEqual([]);
});

test('a body of thousands of chunks: only the runs near the lines shown are highlighted, and they follow scrolling', async ({ page }) => {
  const errors = await open(page);
  let body = '';
  for (let k = 0; k < 2000; k++) body += `4\r\nabcd\r\n`;
  const input = page.getByTestId('input');
  await input.click();
  await input.press('Control+a');
  await input.press('Delete');
  await input.evaluate((el, text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, `POST /u HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n${body}0\r\n\r\n`);
  await expect(page.getByTestId('status')).toHaveText('Complete', { timeout: 30_000 });
  /** Every range: its class, its text, and whether it lies within a screenful of the mirror's view. */
  const ranges = () =>
    page.evaluate(() => {
      const mirror = document.querySelector<HTMLElement>('.mirror')!;
      const box = mirror.getBoundingClientRect();
      const out: { cls: string; text: string; near: boolean }[] = [];
      for (const [name, h] of CSS.highlights) {
        for (const r of h as Highlight) {
          const rect = (r as Range).getBoundingClientRect();
          const near = rect.bottom >= box.top - 2 * box.height && rect.top <= box.bottom + 2 * box.height;
          out.push({ cls: name.replace(/^hs-/, ''), text: (r as Range).toString(), near });
        }
      }
      return out;
    });
  const check = (rs: { cls: string; text: string; near: boolean }[]) => {
    // 2000 chunks make 8000 runs: a few hundred ranges at most, each near the view, each of its class.
    expect(rs.length).toBeGreaterThan(20);
    expect(rs.length).toBeLessThan(1000);
    for (const r of rs) {
      expect(r.near, `${r.cls} ${r.text}`).toBe(true);
      if (r.cls === 'body') expect(r.text).toMatch(/^(a?b?c?d?)$/);
      if (r.cls === 'chunk-size') expect(r.text).toMatch(/^[40]$/);
      if (r.cls === 'eol') expect(r.text).toMatch(/^[␍␊\n]+$/);
    }
  };
  const top = await ranges();
  check(top);
  expect(top.some((r) => r.cls === 'method' && r.text === 'POST')).toBe(true);
  // Scrolled to the end: the last chunk's ranges, not the head's.
  await input.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect.poll(async () => (await ranges()).some((r) => r.cls === 'chunk-size' && r.text === '0')).toBe(true);
  const end = await ranges();
  check(end);
  expect(end.some((r) => r.cls === 'method')).toBe(false);
  // Stepping with the view at the end: the body's last bytes are highlighted as they are fed.
  await page.getByTestId('step-toggle').check();
  const total = await page.evaluate(() => Number(document.querySelector<HTMLInputElement>('[data-testid="step-slider"]')!.max));
  await page.getByTestId('step-slider').fill(String(total - 9));
  await expect(page.getByTestId('step-fed')).toContainText(`${total - 9} of`);
  const bodies = async () => (await ranges()).filter((r) => r.cls === 'body').map((r) => r.text);
  expect((await bodies()).at(-1)).toBe('ab');
  await page.getByTestId('step-next').click();
  await expect(page.getByTestId('step-fed')).toContainText(`${total - 8} of`);
  expect((await bodies()).at(-1)).toBe('abc');
  check(await ranges());
  expect(errors).toEqual([]);
});

test('without CSS highlights the editor colours its text with a span per run', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { Highlight?: unknown }).Highlight;
  });
  const errors = await open(page);
  await typeMessage(page, ['PUT /x HTTP/1.1', 'Host: a', 'Content-Length: 4', '', 'abcd']);
  await expect(page.locator('.mirror .c-method')).toHaveText('PUT');
  await expect(page.locator('.mirror .c-body')).toHaveText('abcd');
  expect(await page.evaluate(() => CSS.highlights.size)).toBe(0);
  await page.getByTestId('step-toggle').check();
  await page.getByTestId('step-slider').fill(String('PUT /x HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n'.length + 2));
  await expect(page.locator('.mirror .c-body')).toHaveText('ab');
  await page.getByTestId('step-next').click();
  await expect(page.locator('.mirror .c-body')).toHaveText('abc');
  await page.getByTestId('field-row').first().hover();
  await expect(page.locator('.mirror .lit')).toHaveText(['Host', ':', ' ', 'a', '␍␊\n']);
  expect(errors).toEqual([]);
});

test('a share link restores input, options, view and step', async ({ page, context }, info) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = await open(page);
  await loadPreset(page, 'chunked-extensions-trailers');
  await page.getByTestId('view-escaped').check();
  await page.getByText(/^Leniency/).click();
  await page.getByTestId('lenient-obsFold').check();
  await page.getByTestId('step-toggle').check();
  await page.getByTestId('step-slider').fill('30');
  const text = await page.getByTestId('input').inputValue();
  await page.getByTestId('share').click();
  await expect(page.getByTestId('share-note')).toContainText('copied');
  const url = page.url();
  expect(url).toMatch(/#v1\./);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  const other = await context.newPage();
  const otherErrors = watchErrors(other);
  await other.goto(url);
  await expect(other.getByTestId('input')).toHaveValue(text);
  await expect(other.getByTestId('view-escaped')).toBeChecked();
  await expect(other.getByTestId('lenient-obsFold')).toBeChecked();
  await expect(other.getByTestId('step-toggle')).toBeChecked();
  await expect(other.getByTestId('step-fed')).toContainText('30 of');
  await expect(other.getByTestId('status')).toHaveText('Partial');
  await shot(other, info, 'restored');
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
});

test('compare shows llhttp and httpspan disagreeing on a smuggling preset', async ({ page }, info) => {
  const errors = await open(page);
  await loadPreset(page, 'request-small');
  await expect(page.locator('.compare')).not.toContainText('Loading llhttp');
  await expect(page.getByTestId('compare-summary')).toHaveText('Every parser reads these bytes the same way.');
  // Two Host fields: httpspan rejects, llhttp reads a request.
  await typeMessage(page, ['GET / HTTP/1.1', 'Host: a.example', 'Host: b.example', '', '']);
  await expect(page.getByTestId('compare-summary')).toContainText('llhttp');
  await expect(page.locator('[data-testid="compare-table"] td[data-differs="true"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="compare-table"] thead')).toContainText('llhttp (undici');
  await page.locator('.compare').scrollIntoViewIfNeeded();
  await shot(page, info, 'compare');
  expect(errors).toEqual([]);
});

test('raw and escaped views, LF to CRLF, and bare line ends typed', async ({ page }) => {
  const errors = await open(page);
  const input = page.getByTestId('input');
  await input.click();
  await input.press('Control+a');
  await input.press('Delete');
  // Pasted text has plain newlines: bare LFs, shown with their glyph.
  await page.evaluate(() => navigator.clipboard?.writeText?.('x').catch(() => {}));
  await input.fill('GET / HTTP/1.1\nHost: a\n\n');
  await input.dispatchEvent('input');
  await expect(input).toHaveValue('GET / HTTP/1.1␊\nHost: a␊\n␊\n');
  await expect(page.getByTestId('error-code')).toHaveText('bare_lf');
  await page.getByTestId('to-crlf').click();
  await expect(input).toHaveValue('GET / HTTP/1.1␍␊\nHost: a␍␊\n␍␊\n');
  await expect(page.getByTestId('status')).toHaveText('Complete');
  await page.getByTestId('view-escaped').check();
  await expect(input).toHaveValue('GET / HTTP/1.1\\r\\n\nHost: a\\r\\n\n\\r\\n\n');
  // Editing in the escaped view: \x escapes are bytes.
  await input.fill('GET /\\x41 HTTP/1.1\\r\\nHost: a\\r\\n\\r\\n');
  await expect(page.locator('[data-testid="byte"][data-offset="5"]')).toHaveText('41');
  await expect(page.getByTestId('status')).toHaveText('Complete');
  await page.getByTestId('view-raw').check();
  // Shift+Enter types a bare LF, Alt+Enter a bare CR.
  await input.press('Control+End');
  await input.press('Shift+Enter');
  await input.press('Alt+Enter');
  await expect(input).toHaveValue(/␍␊\n␊\n␍$/);
  expect(errors).toEqual([]);
});

test('pasted CRLFs stay CRLFs; pasted plain newlines are bare LFs', async ({ page }) => {
  const errors = await open(page);
  const input = page.getByTestId('input');
  const paste = (text: string) =>
    input.evaluate((el, t) => {
      const data = new DataTransfer();
      data.setData('text/plain', t);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  await input.click();
  await input.press('Control+a');
  await input.press('Delete');
  await paste('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
  await expect(input).toHaveValue('GET / HTTP/1.1␍␊\nHost: a␍␊\n␍␊\n');
  await expect(page.getByTestId('status')).toHaveText('Complete');
  await expect(page.getByTestId('to-crlf')).toBeDisabled();
  await input.press('Control+a');
  await input.press('Delete');
  await paste('GET / HTTP/1.1\nHost: a\n\n');
  await expect(input).toHaveValue('GET / HTTP/1.1␊\nHost: a␊\n␊\n');
  await expect(page.getByTestId('to-crlf')).toBeEnabled();
  expect(errors).toEqual([]);
});

test('copy as curl and as an escaped string', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = await open(page);
  await typeMessage(page, ['POST /items HTTP/1.1', 'Host: api.example', 'Content-Length: 2', '', '{}']);
  await expect(page.getByTestId('copy-command')).toHaveText('Copy as curl');
  await page.getByTestId('copy-command').click();
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain("curl --http1.1");
  expect(curl).toContain("'http://api.example/items'");
  expect(curl).toContain("--data-binary '{}'");
  await page.getByTestId('copy-escaped').click();
  await expect(page.getByTestId('copy-note')).toContainText('escaped string copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    '"POST /items HTTP/1.1\\r\\nHost: api.example\\r\\nContent-Length: 2\\r\\n\\r\\n{}"',
  );
  // Bytes curl cannot send as they are: printf | nc.
  await loadPreset(page, 'cl-te');
  await expect(page.getByTestId('copy-command')).toHaveText('Copy as printf | nc');
  expect(errors).toEqual([]);
});

test('responses: the request method changes the framing', async ({ page }) => {
  const errors = await open(page);
  await page.getByTestId('mode-response').check();
  await typeMessage(page, ['HTTP/1.1 200 OK', 'Content-Length: 5', '', '']);
  await expect(page.getByTestId('status')).toHaveText('Partial');
  await page.getByTestId('request-method').selectOption('HEAD');
  await expect(page.getByTestId('status')).toHaveText('Complete');
  await expect(page.locator('[data-testid="byte"][data-class="status"]')).toHaveCount(3);
  await expect(page.locator('[data-testid="byte"][data-class="reason"]')).toHaveCount(2);
  expect(errors).toEqual([]);
});

test('timing measures the SIMD128 build', async ({ page }) => {
  const errors = await open(page);
  await loadPreset(page, 'request-large');
  await expect(page.getByTestId('backend')).toHaveText('simd128');
  await page.getByTestId('time-run').click();
  await expect(page.getByTestId('timing')).toContainText('per parse', { timeout: 20_000 });
  await expect(page.getByTestId('timing')).toContainText('over the 733-byte head');
  await expect(page.getByTestId('timing-peer')).toContainText(/llhttp \(undici [\d.]+\): [\s\S]* per parse [\s\S]*llhttp takes [\d.]+× httpspan's time \((httpspan|llhttp) is faster/);
  expect(errors).toEqual([]);
});

test('dark and light themes', async ({ page }, info) => {
  const errors = await open(page);
  const html = page.locator('html');
  const theme = await html.getAttribute('data-theme');
  await page.getByTestId('theme').click();
  const other = theme === 'dark' ? 'light' : 'dark';
  await expect(html).toHaveAttribute('data-theme', other);
  await shot(page, info, `theme-${other}`);
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', other);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe(other === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
  expect(errors).toEqual([]);
});

test('works offline once loaded', async ({ page, context }) => {
  const errors = await open(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The worker controls the page after a reload; then the network goes away.
  await page.reload();
  await expect(page.getByTestId('input')).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('input')).toBeVisible();
  await loadPreset(page, 'request-small');
  await expect(page.getByTestId('status')).toHaveText('Complete');
  await expect(page.locator('.compare')).not.toContainText('could not be loaded');
  await context.setOffline(false);
  expect(errors).toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`no accessibility violations (axe), ${theme} theme`, async ({ page }) => {
    // Four full-page axe runs take about 17 s on a quiet 2-core machine; give a busy one room.
    test.setTimeout(120_000);
    const errors = await open(page);
    if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.getByTestId('theme').click();
    const violations = async (what: string) =>
      (await new AxeBuilder({ page }).analyze()).violations.map(
        (v) => `${what}: ${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes[0]?.any[0]?.message ?? v.help}`,
      );
    const found: string[] = [];
    for (const [id, status] of [
      ['cl-te', 'Error'],
      ['chunked-extensions-trailers', 'Complete'],
      ['websocket-101-response', 'Complete'],
    ] as const) {
      await loadPreset(page, id);
      await expect(page.getByTestId('status')).toHaveText(status);
      found.push(...(await violations(id)));
    }
    await page.getByTestId('step-toggle').check();
    await page.getByTestId('step-slider').fill('30');
    await expect(page.getByTestId('step-fed')).toContainText('30 of');
    found.push(...(await violations('step mode')));
    expect(found).toEqual([]);
    expect(errors).toEqual([]);
  });
}

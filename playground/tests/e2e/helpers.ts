// What both Playwright files use: the page's errors collected, and extra named screenshots.
import type { Page, TestInfo } from '@playwright/test';

/** Fails the test on any error the page logs or throws. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/** A full-page screenshot kept in the test's output folder as NAME.png. */
export async function shot(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });
}

/** Loads the site and reloads it until the service worker controls the page (offline tests). */
export async function underServiceWorker(page: Page) {
  await page.goto('./');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

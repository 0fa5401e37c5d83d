/**
 * Headless Chromium for the browser tests: Debian's `chromium` package, driven by
 * playwright-core over the DevTools protocol (no browser is downloaded). Without the binary
 * the browser tests are skipped, and the closing line of the test run names them; with
 * MODEL_GATE_BROWSER_TESTS=required (CI) a missing browser fails them instead.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { describe } from 'vitest';

export const CHROMIUM = process.env.MODEL_GATE_CHROMIUM ?? '/usr/bin/chromium';
const REQUIRED = process.env.MODEL_GATE_BROWSER_TESTS === 'required';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

/** `describe` when the browser tests can run (or must), `describe.skip` otherwise. */
export const describeInBrowser: typeof describe =
  chromiumAvailable() || REQUIRED ? describe : (describe.skip as typeof describe);

/** A fresh profile each launch (playwright gives it its own user-data-dir), nothing in the background. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What a page did besides rendering: console errors, uncaught errors, dialogs, requests. */
export interface PageWatch {
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
  /** Every request but the page's own file. */
  requests: string[];
}

export function watchPage(page: Page, pageUrl: () => string): PageWatch {
  const watch: PageWatch = { consoleErrors: [], pageErrors: [], dialogs: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') watch.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => watch.pageErrors.push(e.message));
  page.on('dialog', (d) => {
    watch.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (r.url().split('#')[0] !== pageUrl().split('#')[0]) watch.requests.push(r.url());
  });
  return watch;
}

/** Opens the page at `url` (a fresh load, not a hash change) and waits until its script has run. */
export async function openAt(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 15_000 });
}

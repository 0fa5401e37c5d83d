/**
 * The speed part of report.html in Chromium: a run of churn and speed on the demo scenario (the
 * candidate decodes at 40 tokens/s against 60) shows one table row and one dot per timed churn
 * answer, the most slowed first and the middle one near ×1.5, and the page logs no error.
 */
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runJob } from '../../src/pipeline/run.js';
import {
  describeInBrowser,
  launchChromium,
  openAt,
  type PageWatch,
  watchPage,
} from '../support/browser.js';
import { at, demoConfig, quiet, simulatedJob } from '../pipeline/simulatedJob.js';

describeInBrowser('report.html’s speed part, in Chromium', () => {
  const job = simulatedJob('fixtures/simulator/demo.yml', 'model-gate-speed-page-');
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;
  let url: string;

  beforeAll(async () => {
    const loaded = demoConfig(job, 'out', [at(['churn', 'speed'], 'checks')]);
    const outcome = await runJob({ loaded, limit: 3, progress: quiet });
    url = pathToFileURL(outcome.files.page as string).href;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    watch = watchPage(page, () => url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows per item both decode rates, their ratio, and a dot per item', async () => {
    await openAt(page, url);
    const part = page.locator('section#speed');
    await part.waitFor();
    const rows = await part.locator('tbody tr').allInnerTexts();
    expect(rows.length).toBeGreaterThan(0);
    const ratios = rows.map((row) => Number(/×([\d.]+)/.exec(row)?.[1]));
    // The most slowed first, and the item in the middle near the true ×1.5.
    expect(ratios).toEqual([...ratios].sort((a, b) => b - a));
    const middle = ratios[Math.floor(ratios.length / 2)];
    expect(middle).toBeGreaterThan(1.4);
    expect(middle).toBeLessThan(1.6);
    await expect(part.locator('svg.speed-scatter circle').count()).resolves.toBe(rows.length);
    expect(watch.pageErrors).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.requests).toEqual([]);
  });
});

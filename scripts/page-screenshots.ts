/**
 * Screenshots of report.html's main views for the docs (docs/images/report-*.png): the demo is
 * run, its page opened in headless Chromium (Debian's package), and each view captured.
 *
 *   npx tsx scripts/page-screenshots.ts
 */
import { CHECKS } from '../src/checks/builtIn.js';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { chromium, type Page } from 'playwright-core';
import { runDemo } from '../src/pipeline/demo.js';

const OUT = 'docs/images';
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

async function open(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForSelector('body[data-ready]');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-shots-'));
  const outcome = await runDemo({ checks: CHECKS, scenario: 'demo', outDir: dir, progress: quiet });
  const url = pathToFileURL(outcome.files.page as string).href;
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.MODEL_GATE_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    const shot = (name: string) => page.screenshot({ path: path.join(OUT, `report-${name}.png`) });
    await open(page, url);
    await shot('verdict');
    await open(page, `${url}#item=law-05`);
    await shot('churn-item');
    await open(page, `${url}#item=support-06`);
    await shot('churn-open-item');
    await open(page, `${url}#game=3`);
    await shot('dragon-game');
    await open(page, url);
    await page
      .locator(
        'table.matrix[data-model="demo-cand:1b"] td[data-row="technique"][data-col="sourcing"] button',
      )
      .click();
    await page.locator('table.matrix[data-model="demo-cand:1b"]').scrollIntoViewIfNeeded();
    await page.evaluate('window.scrollBy(0, -60)');
    await shot('personas-confusion');
  } finally {
    await browser.close();
  }
}

await main();

/**
 * Hostile text in report.html is inert: a sample log whose answers hold `<script>`,
 * `<img onerror>`, `</script>` and bidi controls (churn answer texts kept with keep-text, an open
 * item's answers, persona answers) is analysed into a page, opened in Chromium, and every drill-down showing those
 * answers is opened: none of it becomes an element or runs, and it reads as characters.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { runJob } from '../../src/pipeline/run.js';
import {
  describeInBrowser,
  launchChromium,
  openAt,
  type PageWatch,
  watchPage,
} from '../support/browser.js';
import { at, demoConfig, quiet, simulatedJob } from '../pipeline/simulatedJob.js';

const PAYLOAD = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '</script><script>window.__pwned = "close"</script>',
  '<svg onload="window.__pwned = \'svg\'"></svg>',
  '\u202Eevil\u202C \u2066isolate\u2069 \u200Fmark',
  '<a href="javascript:window.__pwned=1">link</a>',
].join('\n');

/** An open item (label grader) of the demo. */
const OPEN_ITEM = 'support-05';

describeInBrowser('report.html with hostile answers, in Chromium', () => {
  const job = simulatedJob('fixtures/simulator/demo.yml', 'model-gate-hostile-page-');
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;
  let url: string;

  beforeAll(async () => {
    // The demo's items with an open one among the first three, which a smoke run measures.
    const demo = parse(readFileSync('fixtures/items/demo.yml', 'utf8'));
    const open = demo.items.findIndex((item: { id: string }) => item.id === OPEN_ITEM);
    demo.items.splice(1, 0, ...demo.items.splice(open, 1));
    const items = path.join(job.root, 'items.yml');
    writeFileSync(items, stringify(demo));
    // The checks whose pages show answers: speed's chart would be the page's one SVG element.
    const loaded = demoConfig(job, 'out', [
      at(['churn', 'dragon', 'personas'], 'checks'),
      at(true, 'churn', 'keepText'),
      at(items, 'churn', 'items'),
    ]);
    const first = await runJob({ loaded, limit: 3, progress: quiet });
    const log = first.files.logs[0] as string;
    const hostile = readFileSync(log, 'utf8')
      .split('\n')
      .map((line) => {
        if (!line) return line;
        const record = JSON.parse(line);
        // An open answer keeps its text after the payload: it is graded with it.
        if (record.check === 'churn' && record.kind === 'call')
          record.text = `${PAYLOAD}\n${record.text ?? record.answer}`;
        if (record.check === 'personas' && record.status === 'ok')
          record.text = `${PAYLOAD}\n${record.text}`;
        return JSON.stringify(record);
      })
      .join('\n');
    writeFileSync(log, hostile);
    const outcome = await analyseLogs({ loaded, logs: [log], outDir: path.join(job.root, 'page') });
    url = pathToFileURL(outcome.files.page as string).href;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    watch = watchPage(page, () => url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** Nothing ran, no element came from the data, and the payload shows as text. */
  async function assertInert(shownIn: string): Promise<void> {
    await expect(page.evaluate('typeof window.__pwned')).resolves.toBe('undefined');
    // Run in the page: every script, handler, image, drawing and link there is.
    const counts = await page.evaluate(`({
      scripts: document.querySelectorAll('script').length,
      handlers: document.querySelectorAll('[onerror],[onload],[onclick],iframe,object,embed').length,
      imgs: [...document.querySelectorAll('img')].filter((i) => !i.src.startsWith('data:image/svg+xml;base64,')).length,
      svgs: [...document.querySelectorAll('svg')].filter((s) => !s.classList.contains('maze')).length,
      links: [...document.querySelectorAll('a')].filter((a) => !a.getAttribute('href')?.startsWith('#')).length,
    })`);
    expect(counts).toEqual({ scripts: 2, handlers: 0, imgs: 0, svgs: 0, links: 0 });
    const shown = await page.locator(shownIn).first().innerText();
    expect(shown).toContain('<script>window.__pwned = "script"</script>');
    expect(shown).toContain('<img src=x onerror=');
    // Bidi controls are shown as escapes, never acted on.
    expect(shown).toContain('\\u202Eevil\\u202C');
    expect(shown).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F]/);
  }

  it('a churn item’s answer examples show the markup as characters', async () => {
    await openAt(page, `${url}#item=law-01`);
    await page.locator('#churn-item .answer-text').first().waitFor();
    await assertInert('#churn-item');
  });

  it('an open item’s answers, counted and as examples, show the markup as characters', async () => {
    await openAt(page, `${url}#item=${OPEN_ITEM}`);
    await page.locator('#churn-item .answer-text').first().waitFor();
    await assertInert('#churn-item');
    // Each distinct answer is listed under its first characters: the payload's first lines.
    const listed = await page.locator('#churn-item code.answer').first().innerText();
    expect(listed).toMatch(/^<script>window.__pwned = "script"<\/script> <img src=x onerror=/);
  });

  it('a persona answer behind a confusion cell and an assistant shows the markup as characters', async () => {
    await openAt(page, `${url}#assistant=technique`);
    await assertInert('#personas-assistant');
    await page.locator('table.matrix td.diag button').first().click();
    await assertInert('#personas-cell');
  });

  it('ran nothing, logged no error and requested nothing', () => {
    expect(watch.dialogs).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.requests).toEqual([]);
  });
});

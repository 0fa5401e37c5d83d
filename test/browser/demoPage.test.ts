/**
 * The demo's report.html in headless Chromium: deep links open an item, a game and an
 * assistant; clicks reach an item, a game and a confusion cell; what is shown agrees with
 * report.json and the item and persona files; the page logs no error and requests nothing.
 * One demo run and one browser for the file.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadItemsFile } from '../../src/checks/churn/items.js';
import type { ChurnSection } from '../../src/checks/churn/section.js';
import type { DragonSection } from '../../src/checks/dragon/section.js';
import type { PersonasSection } from '../../src/checks/personas/section.js';
import type { Report } from '../../src/report/types.js';
import {
  describeInBrowser,
  launchChromium,
  openAt,
  type PageWatch,
  watchPage,
} from '../support/browser.js';
import { sharedDemo } from '../support/sharedDemo.js';

describeInBrowser('report.html of the demo, in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let watch: PageWatch;
  let url: string;
  let report: Report;

  beforeAll(async () => {
    // The run test/pipeline/demo.test.ts reads too, made once.
    const outcome = await sharedDemo();
    report = outcome.report;
    url = pathToFileURL(outcome.files.page as string).href;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    watch = watchPage(page, () => url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  const churn = () => report.checks.churn as ChurnSection & { estimator: 'sampled' };
  const text = (selector: string) => page.locator(selector).first().innerText();

  it('opened at #item=<a flagged item>, shows its question and both models’ counts', async () => {
    const row = churn().comparison?.items.find((i) => i.fisherBh === 'deteriorated');
    expect(row).toBeDefined();
    const id = row?.id as string;
    await openAt(page, `${url}#item=${encodeURIComponent(id)}`);
    const detail = page.locator(`#churn-item[data-item="${id}"]`);
    await expect(detail.count()).resolves.toBe(1);
    const items = readFileSync('fixtures/items/general.yml', 'utf8');
    const question = (await detail.locator('.question').innerText()).trim();
    expect(question.length).toBeGreaterThan(10);
    expect(items).toContain(question);
    const models = report.run.config.models;
    for (const [i, model] of [models.baseline, models.candidate].entries()) {
      const block = detail.locator(`.model-answers[data-model="${model}"]`);
      const counts = (await block.locator('.count').allInnerTexts()).map(Number);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(row?.n[i]);
      await expect(block.innerText()).resolves.toContain(`${row?.x[i]} of ${row?.n[i]} right`);
    }
    await expect(page.locator('#churn tr.selected').getAttribute('data-key')).resolves.toBe(id);
    // The item's title is scrolled into view below the sticky header, not under it.
    const header = await page.locator('header.top').boundingBox();
    const title = await detail.locator('h3').boundingBox();
    expect(title?.y).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
  });

  it('opened at #item=<an open item>, shows its prompt, expected answer, grader and both models’ counts', async () => {
    const rows = churn().comparison?.items ?? [];
    // A label item with report.json's evidence: every part of the open view has something to show.
    const row = rows.find((r) => r.offLabel !== undefined && r.examples !== undefined);
    expect(row).toBeDefined();
    const id = row?.id as string;
    const item = loadItemsFile('fixtures/items/demo.yml').items.find((i) => i.id === id);
    if (item?.kind !== 'open') throw new Error(`${id} is not an open item of the demo`);
    await openAt(page, `${url}#item=${encodeURIComponent(id)}`);
    const detail = page.locator(`#churn-item[data-item="${id}"]`);
    await expect(detail.locator('.question').innerText()).resolves.toBe(item.prompt);
    await expect(detail.locator('.expected').innerText()).resolves.toBe(String(item.expected));
    const grader = await detail.locator('.grader').innerText();
    expect(grader).toContain(row?.grader);
    expect(grader).toContain(row?.graderFingerprint);
    expect(grader).toContain('an answer none of the labels is wrong and counted off-label');
    const models = report.run.config.models;
    for (const [i, model] of [models.baseline, models.candidate].entries()) {
      const block = detail.locator(`.model-answers[data-model="${model}"]`);
      const counts = (await block.locator('.count').allInnerTexts()).map(Number);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(row?.n[i]);
      const shown = await block.innerText();
      expect(shown).toContain(`${row?.x[i]} of ${row?.n[i]} right`);
      expect(shown).toContain(`off-label (none of the labels): ${row?.offLabel?.[i]}`);
      // The evidence report.json carries is what the page shows.
      expect(shown).toContain('(the report’s evidence)');
      const pair = i === 0 ? row?.examples?.baseline : row?.examples?.candidate;
      for (const text of [pair?.correct, pair?.wrong]) if (text) expect(shown).toContain(text);
    }
  });

  it('opened at #game=<seed>, shows that seed’s game of each model side by side', async () => {
    const dragon = report.checks.dragon as DragonSection;
    const seed = 3;
    await openAt(page, `${url}#game=${seed}`);
    const replays = page.locator(`#dragon-game[data-game="${seed}"] .replay`);
    await expect(replays.count()).resolves.toBe(2);
    for (const series of [dragon.baseline, dragon.candidate]) {
      const game = series?.games.find((g) => g.seed === seed);
      const replay = page.locator(`.replay[data-model="${series?.model}"]`);
      await expect(replay.locator('.moves tbody tr').count()).resolves.toBe(game?.decisions);
      await expect(replay.innerText()).resolves.toContain(
        `${game?.result} in ${game?.turns} turns`,
      );
    }
    // A decision clicked: the maze shows the player where that decision left it.
    const first = replays.first();
    await first.locator('.moves tbody tr').first().click();
    await expect(first.locator('.step-text').innerText()).resolves.toMatch(
      /^decision 1 of \d+ · turn 1 · /,
    );
  });

  it('opened at #assistant=<name>, shows its system prompt and its recognition by each model', async () => {
    const personas = report.checks.personas as PersonasSection;
    const name = 'sourcing';
    await openAt(page, `${url}#assistant=${name}`);
    const detail = page.locator(`#personas-assistant[data-assistant="${name}"]`);
    const shown = await detail.innerText();
    const catalogue = readFileSync('fixtures/personas/catalogue.yml', 'utf8');
    const prompt = (await detail.locator('.text').first().innerText()).trim();
    expect(prompt.length).toBeGreaterThan(20);
    expect(catalogue.replace(/\s+/g, ' ')).toContain(prompt.replace(/\s+/g, ' ').slice(0, 60));
    for (const model of personas.models) {
      const r = model.recognition.find((x) => x.assistant === name);
      expect(shown).toContain(`${r?.recognised} of ${r?.answers}`);
    }
  });

  it('says so when a link names an item the report does not hold', async () => {
    await openAt(page, `${url}#item=${encodeURIComponent('no such <item>')}`);
    await expect(text('#route-notice')).resolves.toBe(
      'This report has no item "no such <item>" to show.',
    );
    await expect(page.locator('#churn-item').count()).resolves.toBe(0);
  });

  it('clicks through an item, a game and a confusion cell from the top of the page', async () => {
    await openAt(page, url);
    await page.locator('#churn tbody tr.clickable').nth(2).click();
    await expect(page.evaluate('location.hash')).resolves.toMatch(/^#item=/);
    await page.locator('#churn-item').waitFor();
    await page.locator('#dragon tbody tr.clickable').first().click();
    await page.locator('#dragon-game[data-game="0"]').waitFor();
    // The candidate's answers of technique taken for sourcing: as many as its matrix says.
    const personas = report.checks.personas as PersonasSection;
    const candidate = personas.models[1];
    const names = personas.catalogue.assistants.map((a) => a.name);
    const [row, col] = [names.indexOf('technique'), names.indexOf('sourcing')];
    const count = candidate?.confusion[row]?.[col] ?? 0;
    expect(count).toBeGreaterThan(0);
    const cell = page.locator(
      `table.matrix[data-model="${candidate?.model}"] td[data-row="technique"][data-col="sourcing"] button`,
    );
    await cell.click();
    const answers = page.locator(
      `#personas-cell[data-cell="${candidate?.model}/technique/sourcing"] li`,
    );
    await expect(answers.count()).resolves.toBe(count);
    await expect(answers.first().getAttribute('data-attributed')).resolves.toBe('sourcing');
  });

  it('sorts and filters the item table by domain, class, q and text', async () => {
    await openAt(page, url);
    const items = churn().comparison?.items ?? [];
    await page.selectOption('#churn select[aria-label="domain"]', 'law');
    await page.selectOption('#churn select[aria-label="class"]', 'deteriorated');
    const expected = items.filter((i) => i.domain === 'law' && i.fisherBh === 'deteriorated');
    await expect(page.locator('#churn tbody tr.clickable').count()).resolves.toBe(expected.length);
    await page.fill('#churn input[aria-label="q at most"]', '0.01');
    const strong = expected.filter((i) => (i.q ?? 1) <= 0.01);
    await expect(page.locator('#churn tbody tr.clickable').count()).resolves.toBe(strong.length);
    await page.selectOption('#churn select[aria-label="class"]', '');
    await page.fill('#churn input[aria-label="q at most"]', '');
    await page.fill('#churn input[aria-label="search items"]', 'habeas corpus');
    await expect(page.locator('#churn tbody tr.clickable').count()).resolves.toBe(1);
    await page.fill('#churn input[aria-label="search items"]', '');
    await page.locator('#churn th button', { hasText: 'Δp' }).click();
    const first = await page.locator('#churn tbody tr.clickable').first().getAttribute('data-key');
    const lowest = [...items]
      .filter((i) => i.domain === 'law')
      .sort((a, b) => (a.delta ?? 0) - (b.delta ?? 0))[0];
    const keys = items
      .filter((i) => i.delta === lowest?.delta && i.domain === 'law')
      .map((i) => i.id);
    expect(keys).toContain(first);
  });

  it('logged no error, raised no dialog and requested nothing while it was used', () => {
    expect(watch.pageErrors).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.dialogs).toEqual([]);
    expect(watch.requests).toEqual([]);
  });

  it('references nothing outside the file', async () => {
    const html = readFileSync(new URL(url), 'utf8');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-/);
    expect(await text('h1')).toContain('FAIL');
  });
});

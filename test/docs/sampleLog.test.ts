/**
 * docs/sample-log.md: the example log from "another harness" is accepted by analyze for its
 * config with the hand-computed accuracies, the prompt-hash rule as written reproduces
 * model-gate's hashes, and every field of the example records is documented.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isChoiceItem, loadItemsFile } from '../../src/checks/churn/items.js';
import type { OpenItem } from '../../src/checks/churn/openItems.js';
import { churnPromptHash, itemPromptHash } from '../../src/checks/churn/prompt.js';
import { loadConfig } from '../../src/config/load.js';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { parseSampleLog } from '../../src/sampleLog/index.js';

const page = readFileSync('docs/sample-log.md', 'utf8');
const LOG = 'docs/examples/harness/samples.jsonl';

describe('docs/sample-log.md', () => {
  it('the example log is analysed for its config, nothing left out, accuracies as counted by hand', async () => {
    const outcome = await analyseLogs({
      loaded: loadConfig({ checks: CHECKS, file: 'docs/examples/harness/model-gate.yml', env: {} }),
      logs: [LOG],
      outDir: mkdtempSync(path.join(tmpdir(), 'model-gate-harness-')),
      requireMatchingLogs: true,
    });
    expect(outcome.report.run.warnings).toEqual([]);
    const churn = outcome.report.checks.churn;
    expect(churn?.itemCounts.total).toBe(3);
    // base:1b answered B,A | B,B | C,B against B, B, B: 4 of 6 correct; cand:1b 6 of 6.
    const requests = outcome.report.run.requests.map((r) => [r.model, r.ok, r.total]);
    expect(requests).toEqual([
      ['base:1b', 6, 6],
      ['cand:1b', 6, 6],
    ]);
    const records = parseSampleLog(readFileSync(LOG, 'utf8'), LOG).records;
    const correct = (model: string) =>
      records.filter(
        (r) => r.kind === 'call' && r.model === model && r.check === 'churn' && r.correct,
      ).length;
    expect([correct('base:1b'), correct('cand:1b')]).toEqual([4, 6]);
  });

  it('a log without its run record is reported under the config’s two models', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-harness-'));
    const bare = path.join(dir, 'samples.jsonl');
    const lines = readFileSync(LOG, 'utf8').trim().split('\n');
    writeFileSync(bare, `${lines.filter((l) => JSON.parse(l).kind !== 'run').join('\n')}\n`);
    const outcome = await analyseLogs({
      loaded: loadConfig({ checks: CHECKS, file: 'docs/examples/harness/model-gate.yml', env: {} }),
      logs: [bare],
      outDir: path.join(dir, 'out'),
      requireMatchingLogs: true,
    });
    const { baseline, candidate } = outcome.report.run.models;
    expect(baseline).toMatchObject({ model: 'base:1b', digest: null, quantization: null });
    expect(candidate).toMatchObject({ model: 'cand:1b', digest: null, quantization: null });
    const summary = readFileSync(outcome.files.summary, 'utf8').split('\n');
    expect(summary.slice(0, 4).join('\n')).toContain('Baseline `base:1b` → candidate `cand:1b`');
    expect(summary.join('\n')).not.toContain('single-model run');
    expect(outcome.report.run.warnings).toEqual([
      'no run record in the logs: server and model provenance unknown',
    ]);
  });

  it('the hash rule as written gives model-gate’s churn prompt hash', () => {
    const item = loadItemsFile('docs/examples/items.yml')
      .items.filter(isChoiceItem)
      .find((i) => i.id === 'arith-01');
    if (!item) throw new Error('arith-01 missing');
    const user = [
      'Multiple-choice question.',
      '',
      'Question:',
      item.question,
      '',
      'Options:',
      ...item.choices.map((c, i) => `${'ABCDEFGHIJ'[i]}. ${c}`),
      '',
      'Answer with the letter of the best option.',
    ].join('\n');
    const text = JSON.stringify({
      version: 'churn-prompt/1',
      messages: [
        {
          role: 'system',
          content:
            'You are taking a multiple-choice test. Choose the single best option. Reply with a JSON object of the form {"answer": "<letter>"} and nothing else.',
        },
        { role: 'user', content: user },
      ],
      format: {
        type: 'object',
        properties: { answer: { type: 'string', enum: ['A', 'B', 'C', 'D'] } },
        required: ['answer'],
        additionalProperties: false,
      },
    });
    const hash = createHash('sha256').update(text, 'utf8').digest('hex');
    expect(hash).toBe(churnPromptHash(item));
    expect(page).toContain(`  ${text}\n`);
    expect(page).toContain(`Its SHA-256 is \`${hash}\``);
  });

  it('the hash rule as written gives the open items’ prompt hash, with and without a system', () => {
    const items = loadItemsFile('docs/examples/open-items.yml').items as OpenItem[];
    for (const id of ['refund-40-days', 'opening-hours']) {
      const item = items.find((i) => i.id === id) as OpenItem;
      const messages = [
        ...(item.system === null ? [] : [{ role: 'system', content: item.system }]),
        { role: 'user', content: item.prompt },
      ];
      const text = JSON.stringify({ version: 'churn-open/1', messages });
      expect(createHash('sha256').update(text, 'utf8').digest('hex')).toBe(itemPromptHash(item));
    }
    expect(page).toContain('`{"version": "churn-open/1", "messages": […]}`');
  });

  it('shows the example’s first call record as it is in the file', () => {
    const firstCall = readFileSync(LOG, 'utf8').split('\n')[1] as string;
    expect(page).toContain(`\`\`\`json\n${firstCall}\n\`\`\``);
  });

  it('documents every field of the example records', () => {
    const { records, runs } = parseSampleLog(readFileSync(LOG, 'utf8'), LOG);
    const fields = new Set<string>();
    const collect = (value: object, skip: string[] = []) => {
      for (const [key, inner] of Object.entries(value)) {
        if (skip.includes(key)) continue;
        fields.add(key);
        if (key === 'options' && inner && typeof inner === 'object') collect(inner);
      }
    };
    for (const r of [...records, ...runs]) collect(r);
    for (const run of runs) for (const m of run.models) collect(m);
    collect(runs[0]?.provider ?? {});
    const undocumented = [...fields].filter((f) => !page.includes(`\`${f}\``));
    expect(undocumented).toEqual([]);
  });
});

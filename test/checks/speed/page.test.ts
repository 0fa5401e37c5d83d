import { describe, expect, it } from 'vitest';
import { type BuiltInConfig, CHECKS } from '../../../src/checks/builtIn.js';
import { foldRecords } from '../../../src/checks/fold.js';
import { speedCheck } from '../../../src/checks/speed/index.js';
import { ITEM_ROWS, speedCollect, speedPage } from '../../../src/checks/speed/pageData.js';
import type { SpeedPage } from '../../../src/checks/speed/page/types.js';
import type { SpeedCallRecord } from '../../../src/checks/speed/records.js';
import { SPEED_PROMPTS } from '../../../src/checks/speed/plan.js';
import type { CheckContext } from '../../../src/checks/types.js';
import { configSchema } from '../../../src/config/schema.js';
import { SAMPLE_LOG_VERSION, type SampleRecord } from '../../../src/sampleLog/index.js';

const MODELS = { baseline: 'base:1b', candidate: 'cand:1b' };

function context(): CheckContext<BuiltInConfig> {
  const config = configSchema(CHECKS).parse({ models: MODELS, checks: ['speed'] });
  return { config, baseDir: process.cwd(), models: { ...MODELS } };
}

/** An answer of `tokens` tokens decoded at `rate` tokens/s (no timings when rate is null). */
function call(
  model: string,
  key: string,
  rate: number | null,
  tokens: number,
  sample = 0,
): SpeedCallRecord {
  const evalDuration = rate === null ? 0 : Math.round((tokens / rate) * 1e9);
  return {
    v: SAMPLE_LOG_VERSION,
    kind: 'call',
    check: 'speed',
    model,
    digest: null,
    key,
    sample,
    options: { temperature: 0, seed: 0, num_ctx: 4096, num_predict: 256, think: false },
    prompt_sha256: 'f'.repeat(64),
    status: 'ok',
    latency_ms: 1000,
    attempts: 1,
    prompt: key,
    prompt_tokens: 20,
    completion_tokens: tokens,
    ...(rate === null
      ? {}
      : {
          timings: {
            eval_count: tokens,
            eval_duration: evalDuration,
            total_duration: evalDuration,
          },
        }),
  } satisfies SpeedCallRecord;
}

function page(records: readonly SampleRecord[]): SpeedPage {
  const ctx = context();
  const section = foldRecords(speedCheck.fold, records, SPEED_PROMPTS, ctx);
  const collected = foldRecords(speedCollect, records, SPEED_PROMPTS, ctx);
  return speedPage({ section, collected, definitions: SPEED_PROMPTS, ctx });
}

describe('the speed part of report.html', () => {
  it('lists per item each model’s decode rate and answer length, most slowed first', () => {
    const part = page([
      call('base:1b', 'a', 50, 100),
      call('cand:1b', 'a', 50, 100),
      call('base:1b', 'b', 60, 80),
      call('cand:1b', 'b', 20, 160),
      // Two answers of one item: the medians of its answers.
      call('base:1b', 'c', 40, 100),
      call('base:1b', 'c', 60, 120, 1),
      call('cand:1b', 'c', 40, 110),
      call('base:1b', 'd', null, 90),
    ]);
    expect(part.items.columns).toEqual([
      'item',
      'base:1b decode tokens/s',
      'cand:1b decode tokens/s',
      'decode time per token, candidate ÷ baseline',
      'base:1b output tokens',
      'cand:1b output tokens',
    ]);
    expect(part.items.rows).toEqual([
      ['speed · b', '60', '20', '×3', '80', '160'],
      ['speed · c', '50', '40', '×1.25', '110', '110'],
      ['speed · a', '50', '50', '×1', '100', '100'],
      ['speed · d', '–', '–', '–', '90', '–'],
    ]);
    expect(part.points).toEqual([
      [60, 20],
      [50, 40],
      [50, 50],
    ]);
    expect(part.moreItems).toBe(0);
    expect(part.notes).toEqual([
      '1 items without a decode rate under both models are listed after the others.',
    ]);
  });

  it('shows the first items and counts the rest', () => {
    const records = Array.from({ length: ITEM_ROWS + 7 }, (_, i) => [
      call('base:1b', `item-${i}`, 50, 100),
      call('cand:1b', `item-${i}`, 50 - i * 0.5, 100),
    ]).flat();
    const part = page(records);
    expect(part.items.rows).toHaveLength(ITEM_ROWS);
    expect(part.moreItems).toBe(7);
    // The slowest candidate answer is the last item's.
    expect(part.items.rows[0]?.[0]).toBe(`speed · item-${ITEM_ROWS + 6}`);
  });
});

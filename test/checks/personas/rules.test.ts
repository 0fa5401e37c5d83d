import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCatalogue } from '../../../src/checks/personas/catalogue.js';
import { personasRules, SIMULATED_NIGHTLY_NO_CHANGE } from '../../../src/checks/personas/rules.js';
import { personasSettingsSchema } from '../../../src/checks/personas/settings.js';
import { simulatedRecords } from './simulated.js';
import { analyse, BUDGET } from './records.js';

const file = path.resolve('fixtures/personas/catalogue.yml');

describe('personas rule cards', () => {
  it('gives each failing rule half the check share and the effect it detects at these settings', async () => {
    const catalogue = await readCatalogue(file, 'fixtures/personas/catalogue.yml');
    const records = ['sim-base:1b', 'sim-next:2b'].flatMap((model) =>
      simulatedRecords(catalogue, model, { catalogue: file, 'same-voice': [['flavour', 'taste']] }),
    );
    const settings = personasSettingsSchema.parse({ permutations: 200, samples: 1 });
    const section = analyse(records, catalogue, settings, 'sim-base:1b', 'sim-next:2b');
    const cards = personasRules(section, settings, BUDGET);
    expect(cards.map((c) => c.rule)).toEqual(['min-recognition', 'merged-pair']);
    for (const card of cards) expect(card.falseAlarmRate).toBeCloseTo(BUDGET / 2, 15);
    // 4 non-control assistants: 4 recognition tests and 6 pairs.
    expect(cards[0]?.falseAlarmBasis).toMatch(
      /min-p over 4 assistants, calibrated by swapping .*, only those the baseline told apart can fail;/,
    );
    expect(cards[1]?.falseAlarmBasis).toMatch(/min-p over 6 pairs/);
    expect(cards[1]?.falseAlarmBasis).toMatch(
      /simulated: \d+\.\d% \[\d+\.\d%, \d+\.\d%\] in \d+ no-change runs$/,
    );
    expect(cards[1]?.detects).toMatch(
      /^at 8 probes × 1 sample \(16 answers per pair\), a pair crossing in \d+% of its answers on the baseline merges detectably \(80% of runs\) when ≥ \d+% of its answers cross over on the candidate$/,
    );
    expect(cards[0]?.detects).toMatch(/^at 8 probes × 1 sample \(8 answers per assistant\)/);
  });

  it('states the nightly test and its own simulated rate for a single model', async () => {
    const catalogue = await readCatalogue(file, 'fixtures/personas/catalogue.yml');
    const records = simulatedRecords(catalogue, 'sim-base:1b', { catalogue: file });
    const settings = personasSettingsSchema.parse({ permutations: 200, samples: 1 });
    const section = analyse(records, catalogue, settings, 'sim-base:1b', null);
    const [hits, runs] = SIMULATED_NIGHTLY_NO_CHANGE['merged-pair'];
    const cards = personasRules(section, settings, BUDGET);
    expect(cards[1]?.falseAlarmBasis).toMatch(
      /^one-sided Fisher test shrunk by the probes' dispersion, Bonferroni over 6 pairs/,
    );
    expect(cards[1]?.falseAlarmBasis).toContain(
      `simulated night against night: ${((100 * hits) / runs).toFixed(1)}% [`,
    );
    expect(cards[1]?.falseAlarmBasis).toContain(`in ${runs} no-change runs`);
  });
});

/**
 * The churn analysis as a fold. Sampled choice items at a fixed K, the large case, are folded
 * into the tally as they arrive: two bits per sample (valid, correct), the greedy outcome and
 * request counts, per item and model, never the records. Open items (their answers graded
 * again by today's graders), adaptive sampling (each item's path replayed) and the logprobs
 * estimator read their records whole: they are kept until the fold finishes.
 */
import type { SampleRecord } from '../../sampleLog/index.js';
import { type CheckContext, type CheckFold, checkFalseAlarmBudget } from '../types.js';
import { analyseChurn, analyseTally, sampledK } from './analyse.js';
import { analyseChurnLogprobs } from './analyseLogprobs.js';
import type { ChurnAnalysisInput } from './analyseShared.js';
import type { ChurnItem } from './items.js';
import { emptyOpenCounts } from './openGrading.js';
import type { ChurnSection } from './section.js';
import { type ChurnConfig, samplingOf } from './settings.js';
import { TallyBuilder } from './tally.js';

type Input = Omit<ChurnAnalysisInput, 'records'>;

/** What the fold reads of the check's definitions. */
interface Definitions {
  items: ChurnItem[];
  warnings: string[];
}

type ChurnFoldState =
  | { input: Input; tally: TallyBuilder; records: null }
  | { input: Input; tally: null; records: SampleRecord[] };

function analysisInput(definitions: Definitions, ctx: CheckContext<ChurnConfig>): Input {
  return {
    items: definitions.items,
    settings: ctx.config.churn,
    baseline: ctx.models.baseline,
    candidate: ctx.models.candidate,
    warnings: definitions.warnings,
    falseAlarmShare: checkFalseAlarmBudget(ctx.config),
  };
}

export const churnFold: CheckFold<Definitions, ChurnSection, ChurnFoldState, ChurnConfig> = {
  start(definitions, ctx) {
    const input = analysisInput(definitions, ctx);
    const { settings, items } = input;
    const folded =
      settings.estimator === 'sampled' &&
      samplingOf(settings) !== 'adaptive' &&
      items.every((item) => item.kind !== 'open');
    if (!folded) return { input, tally: null, records: [] };
    const tally = new TallyBuilder(items, sampledK(settings), input.baseline, input.candidate);
    return { input, tally, records: null };
  },
  add(state, record) {
    if (state.tally) state.tally.add(record);
    else state.records.push(record);
  },
  finish(state) {
    const { input } = state;
    if (state.tally) return analyseTally(input, state.tally.result(), emptyOpenCounts(), null);
    const analyse = input.settings.estimator === 'logprobs' ? analyseChurnLogprobs : analyseChurn;
    return analyse({ ...input, records: state.records });
  },
};

/**
 * A check's analysis as a fold: the state starts from the definitions, takes the records that
 * count one at a time, in log order, and ends as the check's section of report.json. Which
 * record counts for a unit is decided before a check sees it (src/sampleLog/counted.ts), the
 * same for every check: a fold only keeps what its statistics need per item, game or
 * assistant, and a later record of the same measurement replaces an earlier one.
 */
import { countedRecords, type SampleRecord } from '../sampleLog/index.js';
import type { GateConfig } from '../config/schema.js';
import type {
  CheckContext,
  CheckFold,
  CheckPage,
  CheckPageGroup,
  CheckPageInput,
} from './types.js';

/**
 * The section of a list of records: those that count (a list the log reader already reduced is
 * taken as it is), folded in order.
 */
export function foldRecords<Definitions, Section, Config extends GateConfig = GateConfig>(
  fold: CheckFold<Definitions, Section, unknown, Config>,
  records: readonly SampleRecord[],
  definitions: Definitions,
  ctx: CheckContext<Config>,
): Section {
  const state = fold.start(definitions, ctx);
  for (const [at, record] of countedRecords(records).records.entries()) fold.add(state, record, at);
  return fold.finish(state);
}

/**
 * The fold of an analysis that reads its records whole (a check with few of them: its games
 * or assistants' answers): they are kept until the fold finishes.
 */
export function keptRecords<Definitions, Section, Config extends GateConfig = GateConfig>(
  analyse: (
    records: readonly SampleRecord[],
    definitions: Definitions,
    ctx: CheckContext<Config>,
  ) => Section,
): CheckFold<Definitions, Section, KeptRecords<Definitions, Config>, Config> {
  return {
    start: (definitions, ctx) => ({ definitions, ctx, records: [] }),
    add: (state, record) => {
      state.records.push(record);
    },
    finish: (state) => analyse(state.records, state.definitions, state.ctx),
  };
}

interface KeptRecords<Definitions, Config extends GateConfig> {
  definitions: Definitions;
  ctx: CheckContext<Config>;
  records: SampleRecord[];
}

/** The fold that keeps its records as they come (a page part of a check with few records). */
export function recordList<Definitions, Config extends GateConfig = GateConfig>(): CheckFold<
  Definitions,
  readonly SampleRecord[],
  SampleRecord[],
  Config
> {
  return {
    start: () => [],
    add: (records, record) => {
      records.push(record);
    },
    finish: (records) => records,
  };
}

/**
 * A page part from its fold and its data: what the fold collects is what the data reads (the
 * host holds it as unknown between the two).
 */
export function pagePart<Definitions, Section, Config extends GateConfig, Collected>(
  collect: CheckFold<Definitions, Collected, unknown, Config>,
  data: (input: CheckPageInput<Definitions, Section, Config, Collected>) => CheckPage,
): CheckPageGroup<Definitions, Section, Config, unknown> {
  return {
    collect,
    data: (input) => data({ ...input, collected: input.collected as Collected }),
  };
}

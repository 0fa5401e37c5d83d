/**
 * The report's types, inferred from its schema (report/schema.ts): one description of
 * report.json. Check sections are typed by their checks, the headline by checks/headline.ts.
 */
import type { z } from 'zod';
import type { reportSchema } from './schema.js';

export type Report = z.output<typeof reportSchema>;

/** Metadata of the run: server, models, config, logs, tallies, warnings, coverage. */
export type RunMetadata = Report['run'];

/**
 * Every rule that did not pass (`reasons`, most severe first; info findings last); fail/warn
 * findings of a check whose own measurement was inconclusive (`suppressed`: shown, not counted,
 * see src/report/verdict.ts); every gate rule as a test (`rules`).
 */
export type Verdict = Report['verdict'];

/** Per model, how its requests went (all checks together). */
export type RequestTally = RunMetadata['requests'][number];

/** How much of the plan the report covers. Anything short of complete is `inconclusive`. */
export type Coverage = NonNullable<RunMetadata['coverage']>;

/** Per check and model: the planned units and what became of them (see src/pipeline/coverage.ts). */
export type CoverageRow = Coverage['rows'][number];

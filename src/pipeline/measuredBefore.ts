/**
 * A sample log the run did not write is not a measurement of the run (docs/security.md, "A log
 * this run did not write"). Two rules:
 *
 * - a log that git tracks is planted: a pull request committed it. It is refused before
 *   anything is asked, whether it lies at the run's log or in the cache folder. A log written
 *   on this machine — by an interrupted run of the same job, or restored into the cache folder
 *   by actions/cache — is never tracked, and is resumed as before;
 * - a run that finds part of its plan already in the log (resumed, or from the cache) says so
 *   in its report's findings — hence in the verdict table of the summary and of the
 *   pull-request comment — and says in so many words when it asked nothing at all: such
 *   records were measured before this run, by whatever wrote them.
 */
import { existsSync } from 'node:fs';
import type { GateFinding } from '../checks/types.js';
import type { CheckName } from '../config/schema.js';
import { InputError } from '../errors.js';
import { trackedByGit } from '../files/tracked.js';
import { shownPath } from '../text/shownPath.js';

/** Refuses a sample log that git tracks; `what` says which ("sample log", "cached sample log"). */
export function refusePlantedLog(file: string, what: string): void {
  if (!existsSync(file) || trackedByGit(file) !== true) return;
  throw new InputError(
    `${file}: this ${what} is committed in the repository; a log this run did not write is not its measurement`,
    [
      'model-gate resumes only a log written on this machine (by an interrupted run, or restored into the cache folder): remove the log from the repository (git rm --cached), or name another log (output.log, --log)',
      `to report on a stored log, run model-gate analyze --log ${file}`,
    ],
  );
}

/** The units a run found already in its log, out of its plan. */
export interface MeasuredBefore {
  units: number;
  planned: number;
  /** The run's sample log. */
  log: string;
}

/** The report's statement of what the run did not measure itself; null when it measured all. */
export function measuredBeforeFinding(
  check: CheckName,
  before: MeasuredBefore,
): GateFinding | null {
  const { units, planned } = before;
  if (units <= 0 || planned <= 0) return null;
  const log = shownPath(before.log, process.cwd());
  const message =
    units >= planned
      ? `this run asked the models nothing: all ${planned} units of the plan were in the sample log ${log} when it started (an interrupted run resumed, or the cache); the verdict rests on records measured before this run`
      : `${units} of ${planned} units were in the sample log ${log} when this run started (an interrupted run resumed, or the cache): their records were measured before this run`;
  return {
    check,
    rule: 'measured-before',
    severity: 'info',
    message,
    values: { units, planned },
  };
}

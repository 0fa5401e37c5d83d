import type { AnyCheck } from '../checks/types.js';
import type { LoadedConfig } from '../config/load.js';
import type { Shard } from '../config/overrides.js';
import type { ExitCode } from '../errors.js';
import type { Report } from '../report/types.js';
import type { GateOutcome } from '../report/verdict.js';

export interface JobFiles {
  dir: string;
  report: string;
  summary: string;
  /** report.html (every run writes it; absent only in outcomes built by hand). */
  page?: string;
  charts: string[];
  /** Sample logs the report was computed from. */
  logs: string[];
  /** Other files of the run for the artifact: gpu.csv, the nightly history. */
  extra?: string[];
}

export interface JobOutcome {
  report: Report;
  files: JobFiles;
  /** 0 pass/warn, 1 fail, 3 inconclusive (the verdict as an exit code: `decision.exitCode`). */
  exitCode: ExitCode;
  /**
   * What the verdict means for the job under `fail-on`, decided once where the report is made:
   * the exit code, the action step's state and its sentence all read it.
   */
  decision: GateOutcome;
  /** True when the run was interrupted: the report covers what was measured so far. */
  cancelled: boolean;
  /**
   * "i/n" when the run measured one shard: its verdict covers a slice of the plan, not the
   * gate's, and the exit code only says whether the slice was measured (0, or 3 interrupted).
   */
  shard?: string;
  /** What the checks' loaders accepted but a user should fix (a run says them first). */
  inputWarnings?: string[];
}

export interface RunJobOptions {
  loaded: LoadedConfig<AnyCheck>;
  shard?: Shard | null;
  /** Folder kept across runs (actions/cache) whose sample log is reused and refreshed. */
  cacheDir?: string | null;
  /** `--keep-history`: the cached log keeps the records of models no longer in the config. */
  keepHistory?: boolean;
  /** `--limit N`: a smoke run over the first N items, maze seeds and probes of each check. */
  limit?: number | null;
  /** `--fresh`: start a new sample log (the previous one is kept renamed) and ignore the cache. */
  fresh?: boolean;
  signal?: AbortSignal;
  /** The log was emptied first (the demo): an interrupted run is started over, not resumed. */
  startsOver?: boolean;
  /** Where progress lines go (stderr by default). */
  progress?: NodeJS.WritableStream;
  /** Whether progress may redraw one line (a terminal) or prints plain lines (CI logs). */
  interactive?: boolean;
}

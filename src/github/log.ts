/** Where publishing reports what it did: the runner's log and annotations. Injected in tests. */
import * as core from '@actions/core';
import { forLog } from '../text/sinks.js';

export interface ActionLog {
  info(message: string): void;
  /** An annotation the reader sees on the run page. */
  notice(message: string): void;
  warning(message: string): void;
}

/** Nothing a terminal or the runner would act on, no registered secret (the runner masks them too). */
const shown = forLog;

export const coreLog: ActionLog = {
  info: (message) => core.info(shown(message)),
  notice: (message) => core.notice(shown(message)),
  warning: (message) => core.warning(shown(message)),
};

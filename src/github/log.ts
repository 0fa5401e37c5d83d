/** Where publishing reports what it did: the runner's log and annotations. Injected in tests. */
import * as core from '@actions/core';
import { forLog } from '../text/sinks.js';

export interface ActionLog {
  info(message: string): void;
  /** An annotation the reader sees on the run page. */
  notice(message: string): void;
  warning(message: string): void;
}

/** The runner's log: nothing a terminal or the runner would act on, no registered secret. */
export const coreLog: ActionLog = {
  info: (message) => core.info(forLog(message)),
  notice: (message) => core.notice(forLog(message)),
  warning: (message) => core.warning(forLog(message)),
};

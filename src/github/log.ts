/** Where publishing reports what it did: the runner's log and annotations. Injected in tests. */
import * as core from '@actions/core';
import { neutraliseLines } from '../text/neutralise.js';

export interface ActionLog {
  info(message: string): void;
  /** An annotation the reader sees on the run page. */
  notice(message: string): void;
  warning(message: string): void;
}

export const coreLog: ActionLog = {
  info: (message) => core.info(neutraliseLines(message)),
  notice: (message) => core.notice(neutraliseLines(message)),
  warning: (message) => core.warning(neutraliseLines(message)),
};

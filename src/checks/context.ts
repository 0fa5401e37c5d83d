/** A check's context from a loaded config: what every stage of a check reads. */
import type { LoadedConfig } from '../config/load.js';
import type { CheckContext } from './types.js';

export function checkContext(loaded: LoadedConfig): CheckContext {
  const { config } = loaded;
  return {
    config,
    baseDir: loaded.baseDir,
    configFile: loaded.file,
    models: { baseline: config.models.baseline, candidate: config.models.candidate ?? null },
  };
}

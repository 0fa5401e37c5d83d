/** A check's context from a loaded config: what every stage of a check reads. */
import type { LoadedConfig } from '../config/load.js';
import type { CheckContext } from './types.js';
import type { GateConfig } from '../config/schema.js';

export function checkContext<Config extends GateConfig>(
  loaded: Pick<LoadedConfig, 'baseDir' | 'file'> & { config: Config },
): CheckContext<Config> {
  const { config } = loaded;
  return {
    config,
    baseDir: loaded.baseDir,
    configFile: loaded.file,
    models: { baseline: config.models.baseline, candidate: config.models.candidate ?? null },
  };
}

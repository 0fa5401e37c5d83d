/**
 * The file a check's setting names (churn.items, personas.catalogue). A relative path is read
 * from the config file's folder. The built-in set, the setting's default, ships in the package:
 * when the config's folder holds no file of that name it is read from the package, so the
 * defaults work in any folder, not only in a checkout of model-gate.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { INIT_HINT, resolveConfigPath } from '../config/load.js';
import { InputError } from '../errors.js';
import { packageRoot } from '../packageRoot.js';
import { shownPath } from '../text/shownPath.js';
import type { CheckContext } from './types.js';

export interface DefinitionsSetting {
  /** The setting as a user writes it: "churn.items". */
  key: string;
  /** Its value in the config. */
  value: string;
  /** Its default: the built-in set, a path inside the package. */
  builtIn: string;
  /** What the file is, for the message: "items file". */
  what: string;
  /** What it must hold, for the hint: "a .jsonl, .json or .yaml file of multiple-choice items". */
  expected: string;
}

/** The absolute path to read; throws InputError naming the setting and the config to edit. */
export function definitionsFile(ctx: CheckContext, setting: DefinitionsSetting): string {
  const local = resolveConfigPath(ctx, setting.value);
  if (existsSync(local)) return local;
  if (setting.value === setting.builtIn) {
    const shipped = path.join(packageRoot(), setting.builtIn);
    if (existsSync(shipped)) return shipped;
  }
  const where = path.isAbsolute(setting.value) ? '' : ` (looked for ${local})`;
  const edit = ctx.configFile
    ? [`set ${setting.key} in ${shownPath(ctx.configFile, process.cwd())} to ${setting.expected}`]
    : [`${INIT_HINT}; then set ${setting.key} in it to ${setting.expected}`];
  throw new InputError(`${setting.value}: ${setting.what} not found${where}`, edit);
}

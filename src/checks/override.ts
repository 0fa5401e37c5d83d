/**
 * A setting of a check's block that a user may give outside model-gate.yml (`Check.overrides`):
 * a flag of `run` and `validate`, and an action input of the same name. The registry hands it
 * to the config; the CLI builds the flag and its help from it.
 */
import type { OverrideParser } from '../config/overrides.js';

export interface CheckOverride {
  /** The flag's and the input's name, kebab-case: "samples" is `--samples` and input `samples`. */
  name: string;
  /** The value in the flag's help: "<K>" shows `--samples <K>`. */
  value: string;
  /** The flag's help, naming the setting it sets. */
  help: string;
  /** Where the value lands in the check's settings block (camelCase keys): ["samples"]. */
  setting: readonly string[];
  /** How the text given becomes the value; the check's settings schema validates it after. */
  parse: OverrideParser;
}

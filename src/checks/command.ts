/**
 * Commands a check adds to the CLI (`Check.commands`): `model-gate <group> <command>`, e.g. the
 * maze game's `dragon maze`. The CLI builds them from the registry; a check describes their
 * options and runs them, printing through `out`, and returns the exit code.
 */

export interface CommandOption {
  /** As commander spells it: `--seed <n>`, `--json`. */
  flags: string;
  description: string;
  default?: string;
  required?: boolean;
}

export interface CheckCommand {
  name: string;
  description: string;
  options: readonly CommandOption[];
  /** Runs the command with its parsed options; returns the exit code. Bad flags: InputError. */
  run(options: Record<string, unknown>, out: (text: string) => void): Promise<number>;
}

/** A check's group of commands (`model-gate <name> …`). */
export interface CheckCommands {
  name: string;
  description: string;
  commands: readonly CheckCommand[];
}

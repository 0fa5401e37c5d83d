/**
 * Commands a check adds to the CLI: its own group (`Check.commands`), `model-gate <group>
 * <command>`, e.g. the maze game's `dragon maze`; and converters under the shared `import`
 * group (`Check.imports`), e.g. churn's `import promptfoo`. The CLI builds them from the
 * registry; a check describes their arguments and options and runs them, printing through
 * `out` and `err`, and returns the exit code.
 */

export interface CommandOption {
  /** As commander spells it: `--seed <n>`, `--json`. */
  flags: string;
  description: string;
  default?: string;
  required?: boolean;
}

/** A positional argument of a command: `<config>` when required, `[dir]` when not. */
export interface CommandArgument {
  /** Its key among the options `run` gets: "config". */
  name: string;
  required: boolean;
  /** Shown under "Arguments:" in the command's help; absent: the usage line alone names it. */
  description?: string;
}

export interface CheckCommand {
  name: string;
  description: string;
  /** Its positional arguments, in order; each reaches `run` under its name. */
  arguments?: readonly CommandArgument[];
  options: readonly CommandOption[];
  /** A command line shown under "Example:" at the end of its help. */
  example?: string;
  /**
   * Runs the command with its parsed arguments and options, printing results through `out`
   * and notes through `err`; returns the exit code. Bad flags: InputError.
   */
  run(
    options: Record<string, unknown>,
    out: (text: string) => void,
    err: (text: string) => void,
  ): Promise<number>;
}

/** A check's group of commands (`model-gate <name> …`). */
export interface CheckCommands {
  name: string;
  description: string;
  commands: readonly CheckCommand[];
}

/**
 * Errors a user can act on. Only the entry points (CLI, action) turn them into output and an
 * exit code; everything below throws them with a message that names the file, field or flag.
 */

/** Exit codes shared by the CLI and the action (see the README). */
export const ExitCode = {
  pass: 0,
  regression: 1,
  badInput: 2,
  infrastructure: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Bad config, items, catalogue or flags: nothing was run. Exit code 2. */
export class InputError extends Error {
  readonly exitCode = ExitCode.badInput;
  constructor(
    message: string,
    /** Extra lines (one per problem) shown under the message. */
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = 'InputError';
  }
}

/** Server unreachable, model missing, measurement perturbed: could not measure. Exit code 3. */
export class InfrastructureError extends Error {
  readonly exitCode = ExitCode.infrastructure;
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'InfrastructureError';
  }
}

export type GateError = InputError | InfrastructureError;

export function isGateError(error: unknown): error is GateError {
  return error instanceof InputError || error instanceof InfrastructureError;
}

/** One human-readable block for a user-facing error, without a stack trace. */
export function formatGateError(error: GateError): string {
  const details = error instanceof InputError ? error.details : [];
  const lines = [error.message, ...details.map((d) => `  - ${d}`)];
  if (error instanceof InfrastructureError && error.hint) lines.push(`  hint: ${error.hint}`);
  return lines.join('\n');
}

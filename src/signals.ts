/** The signals that ask model-gate to stop: Ctrl-C, and a CI runner cancelling the job. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Calls `handler` on SIGINT or SIGTERM (with `once`, at most once per signal: a repeated signal
 * then gets Node's default, exiting) until the returned function removes it.
 */
export function onStopSignals(
  handler: (name: NodeJS.Signals) => void,
  options: { once?: boolean } = {},
): () => void {
  for (const name of STOP_SIGNALS) {
    if (options.once) process.once(name, handler);
    else process.on(name, handler);
  }
  return () => {
    for (const name of STOP_SIGNALS) process.off(name, handler);
  };
}

/**
 * A report as two runs of the same measurement must agree on it: timestamps, latencies, where
 * the files were written and how much of the plan a run found already in its log (the
 * `measured-before` statement: a resumed run says so, an uninterrupted one has nothing to
 * say) are left out.
 */
const VOLATILE_KEY = /latency|At$|^elapsed|duration/i;
const MEASURED_BEFORE = 'measured-before';

export function comparableReport(report: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(report)) as {
    run: { config: { output: unknown }; loadedBefore: unknown; operations?: unknown };
    verdict?: { reasons?: { rule?: unknown }[] };
  };
  if (copy.verdict?.reasons) {
    copy.verdict.reasons = copy.verdict.reasons.filter((r) => r.rule !== MEASURED_BEFORE);
  }
  copy.run.config.output = null;
  // What the server held before the run and the GPU telemetry of the last run's series are
  // the server's state, not the measurement.
  copy.run.loadedBefore = null;
  delete copy.run.operations;
  return strip(copy);
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!VOLATILE_KEY.test(key)) out[key] = strip(inner);
  }
  return out;
}

/** The adaptive-sampling lines of the churn section: the design, its requests, where items stopped. */
import { percent } from '../../../text/format.js';
import type { AdaptiveSamplingSummary } from '../section.js';

const count = (value: number): string => value.toLocaleString('en-US');

type StopRow = AdaptiveSamplingSummary['stopped'][number];

const REASONS: readonly [string, (row: StopRow) => number][] = [
  ['settled', (row) => row.settled],
  ['decided', (row) => row.decided],
  ['futile', (row) => row.futility],
  ['at the maximum', (row) => row.samplesMax],
  ['not finished', (row) => row.open],
];

/** "20 settled, 9 decided, 30 futile, 14 at the maximum": every reason, zeros included (not finished only when some are). */
function whyStopped(rows: readonly StopRow[]): string {
  return REASONS.map(([name, of]) => [name, rows.reduce((sum, row) => sum + of(row), 0)] as const)
    .filter(([name, n]) => n > 0 || name !== 'not finished')
    .map(([name, n]) => `${count(n)} ${name}`)
    .join(', ');
}

/** The stopping rules in words. */
function rules(s: AdaptiveSamplingSummary): string {
  const parts = [
    `as settled when both models' pooled share right is at most ${percent(s.settledShare, 0)} or at least ${percent(1 - s.settledShare, 0)}`,
  ];
  if (s.decided) {
    parts.push(
      `as decided once its stage-wise p-value is at most ${s.decided.pAtMost.toPrecision(2)} times the items decided by then, at least one (alpha over the items, each: flagged whatever the others show)`,
    );
  }
  if (s.futility) {
    // The futility bar tightens after its first look unless its factor is 1.
    const { p, from, tighten } = s.futility;
    const tightening =
      tighten === undefined || tighten === 1 ? '' : `, the bar × ${tighten} at each further look`;
    parts.push(`as futile when its p-value is above ${p} from ${from} samples${tightening}`);
  }
  return parts.join('; ');
}

export function adaptiveSamplingLines(s: AdaptiveSamplingSummary): string[] {
  const { used, fixed, saved, savedShare } = s.requests;
  const stops = s.stopped.map((row) => {
    const reasons = REASONS.map(([name, of]) => [name, of(row)] as const)
      .filter(([, n]) => n > 0)
      .map(([name, n]) => `${name} ${count(n)}`);
    return `${count(row.items)} at ${row.samples} (${reasons.join(', ')})`;
  });
  return [
    `**Sampling:** adaptive, ${s.samplesFirst} + ${s.samplesStep} per item and model up to ${s.samplesMax}: ${count(used)} stochastic requests (both models) where a fixed K = ${s.samplesMax} takes ${count(fixed)}, ${count(saved)} saved (${percent(savedShare)}); items stopped: ${whyStopped(s.stopped)}.`,
    '',
    `An item stops ${rules(s)}. Items stopped, by samples per model: ${stops.join('; ')}.`,
    '',
  ];
}

/** The adaptive-sampling lines of the churn section: the design, its requests, where items stopped. */
import { percent } from '../../../text/format.js';
import type { AdaptiveSamplingSummary } from '../section.js';

const count = (value: number): string => value.toLocaleString('en-US');

export function adaptiveSamplingLines(s: AdaptiveSamplingSummary): string[] {
  const futility = s.futility
    ? `, or when its p-value is above ${s.futility.p} from ${s.futility.from} samples`
    : '';
  const { used, fixed, saved, savedShare } = s.requests;
  const stops = s.stopped.map((row) => {
    const reasons = (
      [
        ['settled', row.settled],
        ['decided', row.decided],
        ['no change shown', row.futility],
        ['samples-max', row.samplesMax],
        ['not finished', row.open],
      ] as const
    )
      .filter(([, n]) => n > 0)
      .map(([name, n]) => `${name} ${count(n)}`);
    return `${count(row.items)} at ${row.samples} (${reasons.join(', ')})`;
  });
  return [
    `**Adaptive sampling:** ${s.samplesFirst} samples per item and model, then ${s.samplesStep} more while an item is open, up to ${s.samplesMax}; an item stops when both models' pooled share right is at most ${percent(s.settledShare, 0)} or at least ${percent(1 - s.settledShare, 0)}${futility}. It used ${count(used)} stochastic requests (both models) where a fixed K = ${s.samplesMax} takes ${count(fixed)}: ${count(saved)} saved (${percent(savedShare)}).`,
    '',
    `Items stopped, by samples per model: ${stops.join('; ')}.`,
    '',
  ];
}

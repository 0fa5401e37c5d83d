/**
 * Findings about how a series was measured, not about the model: another model on the server
 * before the series, another compute process on the GPU during it. They are given to every
 * check that measured the series, so a perturbed series makes each of them inconclusive.
 */
import type { GateFinding } from '../checks/types.js';
import type { CheckName } from '../config/schema.js';
import type { RunOperations } from './types.js';

const pct = (v: number) => `${Math.round(v * 100)}%`;

export function operationsFindings(
  ops: RunOperations,
  checks: readonly CheckName[],
  contentionShare: number,
): GateFinding[] {
  const one: Omit<GateFinding, 'check'>[] = [];
  for (const s of ops.series) {
    const left = s.foreign.filter((m) => !s.unloaded.includes(m));
    const freed = s.foreign.filter((m) => s.unloaded.includes(m));
    if (left.length > 0) {
      one.push({
        rule: 'other-models-loaded',
        severity: 'warn',
        message: `${left.join(', ')} ${left.length === 1 ? 'was' : 'were'} loaded on the server during the series of ${s.model}: ${left.length === 1 ? 'it shares' : 'they share'} memory and compute with it (runner.unload-others: true frees them first).`,
        values: { model: s.model, loaded: left.join(', ') },
      });
    }
    if (freed.length > 0) {
      one.push({
        rule: 'other-models-loaded',
        severity: 'info',
        message: `${freed.join(', ')} ${freed.length === 1 ? 'was' : 'were'} loaded on the server and unloaded before the series of ${s.model}.`,
        values: { model: s.model, unloaded: freed.join(', ') },
      });
    }
  }
  for (const g of ops.gpu.series) {
    if (g.contendedSamples === 0) continue;
    const perturbed = g.contendedShare > contentionShare;
    one.push({
      rule: 'gpu-contention',
      severity: perturbed ? 'inconclusive' : 'warn',
      message: `Another compute process was on the GPU during the series of ${g.model} (${g.foreign.join(', ')}) in ${g.contendedSamples} of ${g.samples} samples (${pct(g.contendedShare)}, limit ${pct(contentionShare)})${perturbed ? ': the series is perturbed' : ''}.`,
      values: {
        model: g.model,
        contendedSamples: g.contendedSamples,
        samples: g.samples,
        share: g.contendedShare,
        limit: contentionShare,
      },
    });
  }
  return checks.flatMap((check) => one.map((f) => ({ check, ...f })));
}

import type { WorkUnit } from '../../src/runner/types.js';
import { probeUnits } from './probe.js';

export const KILL_MODELS = ['base:1b', 'cand:1b'];

/** 15 probes per model: long enough to kill in the middle of the baseline's series. */
export function killPlan(): WorkUnit[] {
  return KILL_MODELS.flatMap((model) => probeUnits(model, 15));
}

export const KILL_SCENARIO = `
parallel: 2
models:
  - name: base:1b
    latency-ms: 15
    probe: {}
  - name: cand:1b
    latency-ms: 15
    probe: {}
`;

import type { WorkUnit } from '../../src/checks/workUnit.js';
import { probeUnits } from './probe.js';

export const KILL_MODELS = ['base:1b', 'cand:1b'];

/** 20 probes per model at 40 ms: long enough to kill in the middle of the baseline's series. */
export function killPlan(): WorkUnit[] {
  return KILL_MODELS.flatMap((model) => probeUnits(model, 20));
}

export const KILL_SCENARIO = `
parallel: 2
models:
  - name: base:1b
    latency-ms: 40
    probe: {}
  - name: cand:1b
    latency-ms: 40
    probe: {}
`;

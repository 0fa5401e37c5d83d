import type { CheckOc, OcOptions } from './types.js';

/** Operating characteristics of the churn gate rules (scenarios defined with the rules). */
export async function operatingCharacteristics(_options: OcOptions): Promise<CheckOc> {
  throw new Error('churn: operating characteristics not measured yet');
}

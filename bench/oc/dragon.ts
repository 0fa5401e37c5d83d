import type { CheckOc, OcOptions } from './types.js';

/** Operating characteristics of the dragon gate rules (scenarios defined with the rules). */
export async function operatingCharacteristics(_options: OcOptions): Promise<CheckOc> {
  throw new Error('dragon: operating characteristics not measured yet');
}

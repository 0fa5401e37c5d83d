import type { CheckOc, OcOptions } from './types.js';

/** Operating characteristics of the personas gate rules (scenarios defined with the rules). */
export async function operatingCharacteristics(_options: OcOptions): Promise<CheckOc> {
  throw new Error('personas: operating characteristics not measured yet');
}

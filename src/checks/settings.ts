/**
 * The shape every check's block of model-gate.yml shares: its own keys, then a `gate:` block
 * of limits that may be left out whole (each limit has its default), both strict so a
 * misspelt key is an error that names it.
 */
import { z } from 'zod';

/** A share 0–1 with its default and its sentence in the config reference. */
export function share(fallback: number, description: string) {
  return z.number().min(0).max(1).default(fallback).describe(description);
}

/** A share 0–1 that is unset unless the user sets it: an example shows how. */
export function optionalShare(description: string, example: number) {
  return z
    .number()
    .min(0)
    .max(1)
    .optional()
    .meta({ description, examples: [example] });
}

/** A check's settings: `fields`, then `gate:` (described by `gate`), the whole by `block`. */
export function checkSettings<Fields extends z.ZodRawShape, Gate extends z.ZodRawShape>(
  fields: Fields,
  gate: Gate,
  describe: { gate: string; block: string },
) {
  // Every limit has a default or is optional, so an absent block reads as an empty one.
  const empty = {} as z.input<z.ZodObject<Gate, z.core.$strict>>;
  const limits = z.object(gate).strict().prefault(empty).describe(describe.gate);
  return z
    .object({ ...fields, gate: limits })
    .strict()
    .describe(describe.block);
}

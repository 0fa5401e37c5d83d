/**
 * The JSON Schema of model-gate.yml for editors (schema/config.schema.json), generated from
 * the zod schema that validates the config, so the two cannot disagree. The zod schema works
 * on camelCase keys (the file is camelised before validation); the file a user edits is
 * kebab-case, so every property name is written back in kebab-case.
 */
import { z } from 'zod';
import { camelToKebab, renameKeys } from './keys.js';
import type { ConfigSchema } from './schema.js';

/** Where editors fetch the schema of this version (the npm package carries schema/). */
export function configSchemaUrl(version: string): string {
  return `https://unpkg.com/model-gate@${version}/schema/config.schema.json`;
}

/** Largest safe integer: zod's bound for every `.int()`, noise in an editor's hints. */
const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

/** `schema`: the config schema with the checks' blocks (`configSchema()` of the check registry). */
export function configJsonSchema(configSchema: ConfigSchema): Record<string, unknown> {
  const generated = z.toJSONSchema(configSchema, {
    target: 'draft-2020-12',
    io: 'input',
    override: keepInputMetadata,
  });
  const { $schema, ...rest } = generated as Record<string, unknown>;
  return {
    $schema,
    title: 'model-gate.yml',
    description:
      'Config of model-gate (CLI and GitHub Action). Every setting is optional except models.baseline; precedence: defaults < this file < action inputs / CLI flags.',
    ...(kebabCase(rest) as Record<string, unknown>),
  };
}

/**
 * zod leaves out the default and examples of a schema that transforms its input (a seed range
 * "0-9" read as a list): those a setting gives in its metadata are input values, and are kept.
 */
function keepInputMetadata(context: {
  zodSchema: unknown;
  jsonSchema: Record<string, unknown>;
}): void {
  const meta = z.globalRegistry.get(context.zodSchema as z.ZodType) as
    | Record<string, unknown>
    | undefined;
  for (const key of ['default', 'examples']) {
    if (meta && key in meta && !(key in context.jsonSchema)) context.jsonSchema[key] = meta[key];
  }
}

function kebabCase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(kebabCase);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value !== null && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [camelToKebab(name), kebabCase(inner)]),
      );
    } else if (key === 'required' && Array.isArray(value)) {
      out[key] = value.map((name) => camelToKebab(String(name)));
    } else if (key === 'default') {
      // Defaults are values of the file: kebab-case keys there too.
      out[key] = renameKeys(value, camelToKebab);
    } else if (
      (key === 'maximum' || key === 'minimum') &&
      Math.abs(Number(value)) === SAFE_INTEGER_BOUND
    ) {
      // Dropped: an integer with no real bound.
    } else {
      out[key] = kebabCase(value);
    }
  }
  return out;
}

/**
 * What a simulated model says when no scripted behaviour recognises the prompt: the smallest
 * answer that fits the requested JSON schema, or one plain sentence. Deterministic, so a test
 * that does not care about content still gets a well-formed, repeatable reply.
 */
import type { JsonSchema } from '../providers/types.js';
import type { SimulatedChat } from './behaviour.js';

export function genericAnswer(chat: SimulatedChat): string {
  if (chat.format) return JSON.stringify(valueFor(chat.format, 0));
  return `Simulated answer from ${chat.model}.`;
}

function valueFor(schema: JsonSchema, depth: number): unknown {
  if (depth > 8) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = isSchemaMap(schema.properties) ? schema.properties : {};
      const out: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(properties))
        out[name] = valueFor(inner, depth + 1);
      return out;
    }
    case 'array': {
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const items = isSchema(schema.items) ? schema.items : {};
      return Array.from({ length: minItems }, () => valueFor(items, depth + 1));
    }
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'simulated';
  }
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isSchemaMap(value: unknown): value is Record<string, JsonSchema> {
  return isSchema(value) && Object.values(value).every(isSchema);
}

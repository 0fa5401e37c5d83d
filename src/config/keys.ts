/** YAML and action inputs use kebab-case; the typed config uses camelCase. */
import { fieldPath } from './issues.js';

export function kebabToCamel(key: string): string {
  return key.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function camelToKebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Recursively renames kebab-case keys of plain objects; arrays and scalars pass through. */
export function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[kebabToCamel(key)] = camelizeKeys(inner);
    return out;
  }
  return value;
}

/** "churn.gate.maxDeteriorated" as the user wrote it: "churn.gate.max-deteriorated". */
export function displayPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return fieldPath(path.map((s) => (typeof s === 'number' ? s : camelToKebab(String(s)))));
}

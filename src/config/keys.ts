/** YAML and action inputs use kebab-case; the typed config uses camelCase. */
import { fieldPath } from './issues.js';

export function kebabToCamel(key: string): string {
  return key.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function camelToKebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Renames the keys of plain objects at every depth; arrays and scalars pass through. */
export function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((inner) => renameKeys(inner, rename));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[rename(key)] = renameKeys(inner, rename);
  return out;
}

export const camelizeKeys = (value: unknown): unknown => renameKeys(value, kebabToCamel);

/** "churn.gate.maxDeteriorated" as the user wrote it: "churn.gate.max-deteriorated". */
export function displayPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return fieldPath(path.map((s) => (typeof s === 'number' ? s : camelToKebab(String(s)))));
}

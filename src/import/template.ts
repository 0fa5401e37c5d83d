/**
 * The part of promptfoo's templating (Nunjucks) that an import can render faithfully: `{{ name }}`
 * and `{{ name.field }}` replaced by the test's variables. Anything else — filters, tags,
 * comments — is reported, never guessed. A variable the test does not give renders empty, as
 * in promptfoo, and is returned in `missing` for the import to say so.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\}\}/g;
const OTHER_SYNTAX = /\{%|\{#|\{\{(?!\s*[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*\}\})/;

/** The text, and the variables it names that the test does not give (rendered empty). */
export type Rendered = { text: string; missing: string[] } | { problem: string };

function lookup(vars: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = vars;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) {
      return undefined;
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function renderTemplate(
  template: string,
  vars: Readonly<Record<string, unknown>>,
): Rendered {
  if (OTHER_SYNTAX.test(template)) {
    return {
      problem: 'the prompt uses template syntax beyond {{ variable }} (filters, tags or comments)',
    };
  }
  const missing: string[] = [];
  const text = template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = lookup(vars, name);
    // An undefined variable renders empty, as Nunjucks renders it for promptfoo.
    if (value === undefined || value === null) {
      if (!missing.includes(name)) missing.push(name);
      return '';
    }
    return asText(value);
  });
  return { text, missing };
}

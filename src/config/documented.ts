/**
 * A model-gate.yml that documents every setting: one line per key of the config's JSON Schema
 * (schema/config.schema.json), with its default, or an example where it has none, and its
 * description. `model-gate init` writes it with the starter's values set and every other
 * setting commented out; the repository's model-gate.yml is the same text with every default
 * set. Both come from the schema that validates the config, so a new setting cannot be left
 * out of them.
 */

/** The part of a JSON Schema node this file reads. */
export interface SchemaNode {
  description?: string;
  default?: unknown;
  examples?: readonly unknown[];
  enum?: readonly unknown[];
  properties?: Record<string, SchemaNode>;
  required?: readonly string[];
}

export interface DocumentedConfigOptions {
  /** Comment lines at the top, without the "# "; an empty string is an empty comment line. */
  header: readonly string[];
  /** Settings written as active lines, by kebab-case path ("models.baseline"). */
  values?: Readonly<Record<string, unknown>>;
  /** True: every setting with a default is active; false: commented out, showing its default. */
  activeDefaults: boolean;
}

/**
 * The repository's model-gate.yml: every setting with its default, the two models as examples
 * (`npm run schema` writes it; a test fails while it is not current).
 */
export const REPOSITORY_CONFIG: DocumentedConfigOptions = {
  header: [
    'yaml-language-server: $schema=./schema/config.schema.json',
    'model-gate configuration: every setting with its default and what it does; the two models',
    'are examples, and a setting without a default is commented out with an example value.',
    'Precedence: built-in defaults < this file < action inputs / CLI flags.',
    "Relative paths (items, catalogue, previous report) are read from this file's folder; the",
    'built-in items and catalogue (the defaults) come with model-gate wherever it is installed.',
    'Generated from the config schema by npm run schema: edit the schema, not this file.',
  ],
  values: { 'models.baseline': 'qwen2.5:7b', 'models.candidate': 'qwen2.5:14b' },
  activeDefaults: true,
};

/** Where descriptions start, and the width a comment wraps at. */
const COMMENT_COLUMN = 32;
const WIDTH = 100;

interface Line {
  text: string;
  active: boolean;
}

export function documentedConfig(schema: SchemaNode, options: DocumentedConfigOptions): string {
  const out = options.header.map((line) => (line ? `# ${line}` : '#'));
  let previousWasBlock = true;
  for (const [key, node] of Object.entries(schema.properties ?? {})) {
    const isBlock = node.properties !== undefined;
    // Blocks stand apart; the top-level scalars between them form one group.
    if (isBlock || previousWasBlock) out.push('');
    const required = schema.required?.includes(key) ?? false;
    out.push(...setting(key, node, [key], 0, required, options).map((l) => l.text));
    previousWasBlock = isBlock;
  }
  return `${out.join('\n')}\n`;
}

function setting(
  key: string,
  node: SchemaNode,
  at: readonly string[],
  depth: number,
  required: boolean,
  options: DocumentedConfigOptions,
): Line[] {
  const indent = '  '.repeat(depth);
  if (node.properties) {
    const inner = Object.entries(node.properties).flatMap(([name, child]) =>
      setting(
        name,
        child,
        [...at, name],
        depth + 1,
        node.required?.includes(name) ?? false,
        options,
      ),
    );
    // A block with no active line is commented out whole: an empty `churn:` would read as null.
    const active = inner.some((l) => l.active);
    const head = commented(`${indent}${active ? '' : '# '}${key}:`, describe(node));
    return [...head.map((text) => ({ text, active })), ...inner];
  }
  const path = at.join('.');
  const given = options.values && path in options.values;
  const hasDefault = 'default' in node;
  const example = node.examples?.[0];
  const value = given ? options.values?.[path] : hasDefault ? node.default : example;
  const active = Boolean(given || (hasDefault ? options.activeDefaults : required));
  const shown = value === undefined ? '' : ` ${yamlValue(value)}`;
  const lines = commented(`${indent}${active ? '' : '# '}${key}:${shown}`, describe(node));
  return lines.map((text) => ({ text, active }));
}

/** The description, led by the allowed values when it does not name each of them. */
function describe(node: SchemaNode): string {
  const description = node.description ?? '';
  const values = (node.enum ?? []).map(String);
  if (values.length === 0 || values.every((v) => description.includes(v))) return description;
  return description ? `${values.join(' | ')}: ${description}` : values.join(' | ');
}

/** `code` with `comment` beside it from COMMENT_COLUMN, wrapped onto indented comment lines. */
function commented(code: string, comment: string): string[] {
  if (!comment) return [code];
  const column = Math.max(COMMENT_COLUMN, code.length + 2);
  const lines: string[] = [];
  let line = `${code.padEnd(column)}#`;
  for (const word of comment.split(/\s+/)) {
    if (line.length + 1 + word.length > WIDTH && !line.endsWith('#') && !line.endsWith('#  ')) {
      lines.push(line);
      line = `${' '.repeat(column)}#  `;
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** A value as YAML writes it on one line: lists in flow style, strings quoted when needed. */
function yamlValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(yamlValue).join(', ')}]`;
  if (typeof value === 'string') {
    const plain =
      /^[A-Za-z0-9_./%:-][A-Za-z0-9_./%:@ -]*$/.test(value) && !/[:#]\s|\s$/.test(value);
    const ambiguous = /^(true|false|null|yes|no|on|off|~|[-+]?[\d.]+(e[-+]?\d+)?)$/i.test(value);
    return plain && !ambiguous ? value : JSON.stringify(value);
  }
  return JSON.stringify(value);
}

/**
 * The documented configs come from the config schema: the repository's model-gate.yml (every
 * default set) and the starter `model-gate init` writes (the starter's values set, every other
 * setting commented out with its default). Neither may miss a setting, and a default shown in a
 * comment must be the default the loader applies.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import {
  documentedConfig,
  REPOSITORY_CONFIG,
  type SchemaNode,
} from '../../src/config/documented.js';
import { configJsonSchema } from '../../src/config/jsonSchema.js';
import { loadConfig } from '../../src/config/load.js';
import { starterFiles } from '../../src/pipeline/init.js';

const schema = configJsonSchema(configSchema(CHECKS)) as SchemaNode;

/** Every setting of the schema by kebab-case path, blocks apart. */
function leaves(node: SchemaNode, at: string[] = []): { path: string; node: SchemaNode }[] {
  return Object.entries(node.properties ?? {}).flatMap(([key, child]) =>
    child.properties
      ? leaves(child, [...at, key])
      : [{ path: [...at, key].join('.'), node: child }],
  );
}

/** The settings a YAML text names, active or commented out, by path (from indentation). */
function namedSettings(text: string): { path: string; active: boolean; line: string }[] {
  const found: { path: string; active: boolean; line: string }[] = [];
  const stack: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^( *)(# )?([a-z][a-z0-9-]*):( |$)/.exec(line);
    if (!match) continue;
    const depth = (match[1] as string).length / 2;
    stack.length = depth;
    stack.push(match[3] as string);
    found.push({ path: stack.join('.'), active: match[2] === undefined, line });
  }
  return found;
}

const starterText = (): string => {
  const file = starterFiles({ checks: CHECKS, baseline: 'llama3.2:3b' }).find(
    (f) => f.file === 'model-gate.yml',
  );
  if (!file) throw new Error('init writes no model-gate.yml');
  return file.text;
};

function load(text: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-documented-'));
  const file = path.join(dir, 'model-gate.yml');
  writeFileSync(file, text);
  return loadConfig({ checks: CHECKS, file, env: {} }).config;
}

describe('the config documented from its schema', () => {
  it('describes every setting in the schema (a new one without a description fails here)', () => {
    const undocumented = leaves(schema).filter((l) => !l.node.description);
    expect(undocumented.map((l) => l.path)).toEqual([]);
    const unshown = leaves(schema).filter(
      (l) => !('default' in l.node) && l.node.examples === undefined,
    );
    expect(unshown.map((l) => l.path)).toEqual([]);
  });

  it('model-gate.yml is the one generated from the schema', () => {
    const generated = documentedConfig(schema, REPOSITORY_CONFIG);
    // Regenerate with: npm run schema
    expect(readFileSync('model-gate.yml', 'utf8')).toBe(generated);
    const named = namedSettings(generated).map((s) => s.path);
    for (const { path: key } of leaves(schema)) expect(named).toContain(key);
  });

  it('the starter names every setting, and each commented default is the default applied', () => {
    const text = starterText();
    const named = namedSettings(text);
    const settings = new Set(leaves(schema).map((l) => l.path));
    for (const { path: key } of leaves(schema)) {
      expect(
        named.map((s) => s.path),
        key,
      ).toContain(key);
    }
    // The active lines are the starter's own choices, nothing else.
    expect(named.filter((s) => s.active && settings.has(s.path)).map((s) => s.path)).toEqual([
      'provider.kind',
      'models.baseline',
      'models.candidate',
      'checks',
      'fail-on',
      'runner.concurrency',
      'churn.items',
      'dragon.seeds',
      'personas.catalogue',
    ]);
    // Uncommenting every setting that has a default changes nothing: the comments tell the truth.
    const withDefault = new Set(
      leaves(schema)
        .filter((l) => 'default' in l.node)
        .map((l) => l.path),
    );
    const opened = uncommentDefaults(text, withDefault);
    expect(opened).not.toBe(text);
    expect(load(opened)).toEqual(load(text));
  });
});

/** The text with every commented-out setting that has a default (and its block lines) active. */
function uncommentDefaults(text: string, withDefault: ReadonlySet<string>): string {
  const stack: string[] = [];
  return text
    .split('\n')
    .map((line) => {
      const match = /^( *)# ([a-z][a-z0-9-]*):( |$)(.*)$/.exec(line);
      const active = /^( *)([a-z][a-z0-9-]*):( |$)/.exec(line);
      const found = match ?? active;
      if (!found) return line;
      const indent = found[1] as string;
      stack.length = indent.length / 2;
      stack.push((match ? match[2] : (active as RegExpExecArray)[2]) as string);
      if (!match) return line;
      const key = stack.join('.');
      const isBlock = /^\s*(#|$)/.test(match[4] ?? '');
      return withDefault.has(key) || isBlock ? `${indent}${line.slice(indent.length + 2)}` : line;
    })
    .join('\n');
}

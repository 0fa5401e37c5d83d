/**
 * The import graph of `src/` follows the flow of a run:
 *
 *   config → plan → run → sample log → analyse → report → publish
 *
 * A module may import modules of its own layer and of earlier layers, never of a later one: a
 * stage uses what came before it and knows nothing of what consumes it. The layers, first to last:
 *
 * - base: statistics, text helpers, errors, stop signals, the version, rendering primitives (the
 *   page's DOM helpers among them), the package root, the safe file writer; importable by all. `stats/` imports nothing from the project at all.
 * - config: `config/`. It names no check: each check's settings block is handed to it by the
 *   check registry (`registerCheckSettings`), its type declared by the check's `settings.ts`.
 * - graders: one file per grader type and the host that reads an item's grader through their
 *   list (`graders/`); the checks and the simulator read open answers with them.
 * - importers: one file per foreign suite format (`import/`), turned into items files; the
 *   check that reads such items checks each one, handed in by the command.
 * - model access: providers (request/response types used by plans, clients used by the run) and
 *   GPU telemetry.
 * - sample log: the record schema, reader and writer — the contract between the run, which
 *   writes it, and the analysis, which reads it, so it sits before both.
 * - checks: each check owns its part of the later stages (plan, analyse, gate, section), and
 *   `history/` is shaped the same way (the nights' section and table, the checks' nightly rules
 *   run over them); none of them imports the runner, the report builder or the publishers.
 * - simulator: a fake model server that answers the checks' prompts.
 * - plan: the plan as units of work, read against a log (which records belong to which unit,
 *   which units a log already answers, how the plan grows and splits into shards): what the
 *   runner executes and what the analysis measures coverage against, so it sits before both.
 * - run: the runner, which executes work units and writes the sample log.
 * - operations: what the run itself measured (preflight, GPU), analysed for the report.
 * - report: report building and rendering from the analysis results.
 * - publish: GitHub outputs, comment, artifacts.
 * - pipeline: the orchestration that calls the stages in order.
 * - entry points: CLI and the action's main.
 *
 * Plus: no module imports itself back through a chain of imports (type-only imports included),
 * no folder of `src/` does either (folder `a/` importing `b/` while `b/` imports `a/` is a
 * cycle even when no file is on one), and no check imports another check's folder.
 */
import { describe, expect, it } from 'vitest';
import { importEdges, sourceFiles } from './sourceGraph.js';

/** Layers in flow order; a member is a folder (`name/`), a file, or a `*` pattern for one path part. */
const LAYERS: readonly { name: string; members: readonly string[] }[] = [
  {
    name: 'base',
    members: [
      'stats/',
      'text/',
      'files/',
      'render/',
      'errors.ts',
      'signals.ts',
      'version.ts',
      'packageRoot.ts',
    ],
  },
  { name: 'config', members: ['config/'] },
  { name: 'graders', members: ['graders/'] },
  { name: 'importers', members: ['import/'] },
  { name: 'model access', members: ['providers/', 'gpu/'] },
  { name: 'sample log', members: ['sampleLog/'] },
  { name: 'checks', members: ['checks/', 'history/'] },
  { name: 'simulator', members: ['simulator/'] },
  { name: 'plan', members: ['plan/'] },
  { name: 'run', members: ['runner/'] },
  { name: 'operations', members: ['operations/'] },
  { name: 'report', members: ['report/'] },
  { name: 'publish', members: ['github/'] },
  { name: 'pipeline', members: ['pipeline/'] },
  {
    name: 'entry points',
    members: ['cli/', 'cli.ts', 'main.ts', 'index.ts'],
  },
];

/**
 * Imports against the flow that are still in the code, each with the change that removes it.
 * The list only shrinks: an entry whose import is gone fails the test until it is deleted here.
 */
const KNOWN_LAYER_EXCEPTIONS: Readonly<Record<string, string>> = {};

/** Import cycles still in the code (files of one cycle, sorted, joined by ' ↔ '). */
const KNOWN_CYCLES: Readonly<Record<string, string>> = {};

function memberMatches(member: string, file: string): boolean {
  if (member.endsWith('/')) return file.startsWith(member);
  if (!member.includes('*')) return file === member;
  const pattern = new RegExp(`^${member.split('*').map(escapeRegExp).join('[^/]+')}$`);
  return pattern.test(file);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The layer of a file: the most specific member that matches (a file beats its folder). */
function layerOf(file: string): number {
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach((layer, index) => {
    for (const member of layer.members) {
      if (memberMatches(member, file) && member.length > bestLength) {
        best = index;
        bestLength = member.length;
      }
    }
  });
  return best;
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(
  files: readonly string[],
  edges: readonly { from: string; to: string }[],
): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, order.get(target) ?? 0));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return found;
}

/** The folder of `src/` a file is in (its first path part); a file at the top is its own. */
function folderOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? file : file.slice(0, slash + 1);
}

/** The innermost folder a file is in (`checks/churn/report/`); a file at the top: `''`. */
function innerFolderOf(file: string): string {
  return file.slice(0, file.lastIndexOf('/') + 1);
}

/**
 * The import graph between folders: an edge wherever a file of one imports a file of another,
 * except between a folder and one inside it (a check's folder uses the checks' shared types,
 * and the registry lists the checks' folders).
 */
function folderGraph(
  edges: readonly { from: string; to: string }[],
  folder: (file: string) => string = folderOf,
): {
  folders: string[];
  edges: { from: string; to: string }[];
} {
  const between = new Map<string, { from: string; to: string }>();
  for (const edge of edges) {
    const from = folder(edge.from);
    const to = folder(edge.to);
    if (!from.startsWith(to) && !to.startsWith(from)) between.set(`${from} ${to}`, { from, to });
  }
  const folders = [...new Set([...between.values()].flatMap((e) => [e.from, e.to]))].sort();
  return { folders, edges: [...between.values()] };
}

/** Each folder cycle, with one file import per direction between two of its folders. */
function folderCycles(
  edges: readonly { from: string; to: string }[],
  folder: (file: string) => string,
): string[] {
  const graph = folderGraph(edges, folder);
  return cycles(graph.folders, graph.edges).map((component) => {
    const inside = new Set(component);
    const between = edges.filter(
      (e) =>
        inside.has(folder(e.from)) && inside.has(folder(e.to)) && folder(e.from) !== folder(e.to),
    );
    const back = between.filter((e) =>
      between.some((f) => folder(f.from) === folder(e.to) && folder(f.to) === folder(e.from)),
    );
    const shown = [...new Map(back.map((e) => [`${folder(e.from)} ${folder(e.to)}`, e])).values()];
    return `${component.join(' ↔ ')}: ${shown.map((e) => `${e.from} → ${e.to}`).join(', ')}`;
  });
}

/** The check a file belongs to (`checks/<name>/…`), or null outside a check's folder. */
function checkOf(file: string): string | null {
  const match = /^checks\/([^/]+)\//.exec(file);
  return match?.[1] ?? null;
}

describe('import graph of src/', () => {
  const files = sourceFiles();
  const edges = importEdges(files);

  it('puts every source file in a layer', () => {
    expect(files.filter((file) => layerOf(file) < 0)).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });

  it('imports only from the same or an earlier stage of the flow', () => {
    const against = edges
      .filter((edge) => layerOf(edge.to) > layerOf(edge.from))
      .map(
        (edge) =>
          `${edge.from} → ${edge.to} (${LAYERS[layerOf(edge.from)]?.name} imports ${LAYERS[layerOf(edge.to)]?.name})`,
      );
    const known = new Set(Object.keys(KNOWN_LAYER_EXCEPTIONS));
    const edgeOf = (line: string): string => line.replace(/ \(.*$/, '');
    expect(against.filter((line) => !known.has(edgeOf(line)))).toEqual([]);
    const present = new Set(against.map(edgeOf));
    expect(
      [...known].filter((edge) => !present.has(edge)),
      'fixed: delete from KNOWN_LAYER_EXCEPTIONS',
    ).toEqual([]);
  });

  it('has no import cycle between modules', () => {
    const found = cycles(files, edges).map((component) => component.join(' ↔ '));
    const known = new Set(Object.keys(KNOWN_CYCLES));
    expect(found.filter((cycle) => !known.has(cycle))).toEqual([]);
    expect(
      [...known].filter((cycle) => !found.includes(cycle)),
      'fixed: delete from KNOWN_CYCLES',
    ).toEqual([]);
  });

  it('has no import cycle between folders', () => {
    expect(folderCycles(edges, folderOf)).toEqual([]);
    expect(folderGraph(edges).folders).toEqual(expect.arrayContaining(['config/', 'checks/']));
  });

  it('has no import cycle between inner folders that do not hold one another', () => {
    expect(folderCycles(edges, innerFolderOf)).toEqual([]);
    expect(folderGraph(edges, innerFolderOf).folders).toContain('checks/churn/report/');
  });

  it("keeps each check out of the other checks' folders", () => {
    const across = edges.filter((edge) => {
      const from = checkOf(edge.from);
      const to = checkOf(edge.to);
      return from !== null && to !== null && from !== to;
    });
    expect(across.map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
  });

  it('keeps stats/ free of imports from the rest of the project', () => {
    const outside = edges.filter(
      (edge) => edge.from.startsWith('stats/') && !edge.to.startsWith('stats/'),
    );
    expect(outside.map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
  });

  it('judges a toy graph as intended (the rules are not blind)', () => {
    expect(
      cycles(
        ['a', 'b', 'c'],
        [
          { from: 'a', to: 'b' },
          { from: 'b', to: 'a' },
          { from: 'b', to: 'c' },
        ],
      ),
    ).toEqual([['a', 'b']]);
    expect(cycles(['a', 'b'], [{ from: 'a', to: 'b' }])).toEqual([]);
    expect(LAYERS[layerOf('checks/churn/settings.ts')]?.name).toBe('checks');
    expect(LAYERS[layerOf('checks/churn/analyse.ts')]?.name).toBe('checks');
    expect(layerOf('report/summary.ts')).toBeGreaterThan(layerOf('runner/run.ts'));
  });

  it('finds a cycle between folders that no file is on (the folder rule is not blind)', () => {
    // a/x → b/y and b/z → a/w: no file imports itself back, but folder a/ and b/ do.
    const fileEdges = [
      { from: 'a/x.ts', to: 'b/y.ts' },
      { from: 'b/z.ts', to: 'a/w.ts' },
      { from: 'c.ts', to: 'a/x.ts' },
    ];
    expect(cycles(['a/x.ts', 'a/w.ts', 'b/y.ts', 'b/z.ts', 'c.ts'], fileEdges)).toEqual([]);
    const graph = folderGraph(fileEdges);
    expect(cycles(graph.folders, graph.edges)).toEqual([['a/', 'b/']]);
    const oneWay = folderGraph([fileEdges[0] as { from: string; to: string }]);
    expect(cycles(oneWay.folders, oneWay.edges)).toEqual([]);
    // Inner folders: siblings in a cycle are found; a folder and one inside it are not a cycle.
    const inner = [
      { from: 'x/a/f.ts', to: 'x/b/g.ts' },
      { from: 'x/b/h.ts', to: 'x/a/k.ts' },
      { from: 'x/a/k.ts', to: 'x/types.ts' },
      { from: 'x/registry.ts', to: 'x/a/f.ts' },
    ];
    expect(folderCycles(inner, innerFolderOf)).toEqual([
      'x/a/ ↔ x/b/: x/a/f.ts → x/b/g.ts, x/b/h.ts → x/a/k.ts',
    ]);
    expect(folderCycles(inner.slice(2), innerFolderOf)).toEqual([]);
    expect(checkOf('checks/churn/plan.ts')).toBe('churn');
    expect(checkOf('checks/registry.ts')).toBeNull();
  });

  it('finds the imports it judges (the reader is not blind)', () => {
    // A known import of each kind: a value import, a type-only import and a re-export.
    expect(edges).toContainEqual({ from: 'cli.ts', to: 'cli/program.ts', typeOnly: false });
    expect(edges.some((edge) => edge.typeOnly)).toBe(true);
    expect(edges.some((edge) => edge.from === 'sampleLog/index.ts')).toBe(true);
  });
});

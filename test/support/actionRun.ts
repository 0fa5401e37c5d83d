/** What a test reads back from one run of the bundled action: exit code, log, job summary, outputs. */
export interface ActionRun {
  code: number | null;
  stdout: string;
  summary: string;
  outputs: Record<string, string>;
}

/** GITHUB_OUTPUT holds `name<<delimiter\nvalue\ndelimiter` blocks. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!head) continue;
    const [, name, delimiter] = head;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? '');
    outputs[name as string] = value.join('\n');
  }
  return outputs;
}

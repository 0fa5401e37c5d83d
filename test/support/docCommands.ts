/**
 * The shell commands README.md and docs/*.md give a reader: every line of a fenced `sh`, `bash`
 * or `shell` block (comments and continuations joined), and every inline code span that starts
 * with `npx`, `npm`, `node` or `model-gate`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface DocCommand {
  /** As written, whitespace collapsed, a trailing `# comment` of a block line removed. */
  command: string;
  /** "README.md:148". */
  where: string;
}

const SHELL_FENCE = /^\s*```(sh|bash|shell)\s*$/;
const FENCE = /^\s*```/;
const INLINE = /`((?:npx|npm|node|model-gate) [^`]+)`/g;

export function documentFiles(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => path.join('docs', f));
  return ['README.md', ...docs];
}

export function documentedCommands(root: string): DocCommand[] {
  return documentFiles(root).flatMap((file) =>
    commandsOf(readFileSync(path.join(root, file), 'utf8'), file),
  );
}

export function commandsOf(markdown: string, file: string): DocCommand[] {
  const found: DocCommand[] = [];
  const lines = markdown.split('\n');
  let fence: 'shell' | 'other' | null = null;
  let pending = '';
  let pendingLine = 0;
  const prose: { text: string; line: number }[] = [];
  lines.forEach((line, i) => {
    if (fence === null) {
      if (SHELL_FENCE.test(line)) fence = 'shell';
      else if (FENCE.test(line)) fence = 'other';
      else prose.push({ text: line, line: i + 1 });
      return;
    }
    if (FENCE.test(line)) {
      fence = null;
      return;
    }
    if (fence !== 'shell') return;
    const code = line.replace(/\s+#.*$/, '').replace(/^\s*#.*$/, '');
    if (pending === '') pendingLine = i + 1;
    pending += ` ${code.replace(/\\\s*$/, '')}`;
    if (/\\\s*$/.test(code)) return;
    const command = collapse(pending);
    if (command) found.push({ command, where: `${file}:${pendingLine}` });
    pending = '';
  });
  // Inline spans may wrap across lines of a paragraph.
  const text = prose.map((p) => p.text).join('\n');
  for (const match of text.matchAll(INLINE)) {
    const before = text.slice(0, match.index);
    const line = prose[before.split('\n').length - 1]?.line ?? 0;
    found.push({ command: collapse(match[1] as string), where: `${file}:${line}` });
  }
  return found;
}

function collapse(command: string): string {
  return command.replace(/\s+/g, ' ').trim();
}

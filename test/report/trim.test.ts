import { describe, expect, it } from 'vitest';
import { trimMarkdown, utf8Size } from '../../src/report/trim.js';
import { allTokens } from './gfm.js';

const NOTICE = 'Cut to fit. Full report: [artifact](https://example.test/run/1)';

function section(title: string, size: number): string {
  return `### ${title}\n\n${'word '.repeat(size / 5).trim()}\n`;
}

describe('trimMarkdown', () => {
  it('returns text that fits unchanged', () => {
    const text = section('a', 100);
    expect(trimMarkdown(text, utf8Size(text), NOTICE)).toBe(text);
  });

  it('cuts before the first section that does not fit and appends the notice', () => {
    // Three sections of ~110 bytes each; 260 bytes hold the first two but not with the notice
    // (~70 bytes) — so only the first survives.
    const text = [section('one', 100), section('two', 100), section('three', 100)].join('\n');
    const out = trimMarkdown(text, 260, NOTICE);
    expect(utf8Size(out)).toBeLessThanOrEqual(260);
    expect(out).toContain('### one');
    expect(out).not.toContain('### two');
    expect(out.endsWith(`---\n\n${NOTICE}\n`)).toBe(true);
    const more = trimMarkdown(text, 330, NOTICE);
    expect(more).toContain('### two');
    expect(more).not.toContain('### three');
  });

  it('counts UTF-8 bytes, so multi-byte text never exceeds a byte or character limit', () => {
    const text = ['### é', 'é'.repeat(400), '### ü', 'ü'.repeat(400)].join('\n\n');
    const out = trimMarkdown(text, 1000, NOTICE);
    expect(utf8Size(out)).toBeLessThanOrEqual(1000);
    expect(out).toContain('### é');
    expect(out).not.toContain('### ü');
  });

  it('ignores headings inside code fences and collapsed blocks as cut points', () => {
    const text = [
      '## verdict',
      '```',
      '# not a heading',
      'x'.repeat(50),
      '```',
      '<details><summary>more</summary>',
      '',
      '### inside',
      'y'.repeat(50),
      '',
      '</details>',
      '',
      '### after',
      'z'.repeat(400),
    ].join('\n');
    for (const limit of [200, 260]) {
      const out = trimMarkdown(text, limit, NOTICE);
      expect(utf8Size(out)).toBeLessThanOrEqual(limit);
      // Balanced: every fence and collapsed block that opens also closes.
      expect((out.match(/```/g) ?? []).length % 2).toBe(0);
      expect((out.match(/<details>/g) ?? []).length).toBe((out.match(/<\/details>/g) ?? []).length);
    }
  });

  it('falls back to paragraphs when the first section alone is too big', () => {
    const oneSection = `## only\n\n${'para one '.repeat(20)}\n\n${'para two '.repeat(40)}\n`;
    const out = trimMarkdown(oneSection, 300, NOTICE);
    expect(utf8Size(out)).toBeLessThanOrEqual(300);
    expect(out).toContain('para one');
    expect(out).not.toContain('para two');
  });

  it('then to lines, closing a code fence left open at the cut', () => {
    const oneBlock = `## only\n\`\`\`\n${'code line\n'.repeat(60)}\`\`\`\n`;
    const out = trimMarkdown(oneBlock, 300, NOTICE);
    expect(utf8Size(out)).toBeLessThanOrEqual(300);
    expect(out).toContain('code line');
    expect((out.match(/```/g) ?? []).length).toBe(2);
    expect(allTokens(out).filter((t) => t.type === 'code')).toHaveLength(1);
    expect(out.endsWith(`${NOTICE}\n`)).toBe(true);
  });

  it('returns the notice alone when the limit leaves room for nothing else', () => {
    const out = trimMarkdown('x'.repeat(1000), 40, NOTICE);
    expect(utf8Size(out)).toBeLessThanOrEqual(40);
  });
});

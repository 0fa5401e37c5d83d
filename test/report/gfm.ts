/** GitHub-flavoured markdown inspection with `marked`: raw HTML, tables, rendered text. */
import { Lexer, type Token, type Tokens, marked } from 'marked';

function children(token: Token): Token[] {
  const out: Token[] = [];
  if ('tokens' in token && Array.isArray(token.tokens)) out.push(...token.tokens);
  if (token.type === 'table') {
    const t = token as Tokens.Table;
    for (const cell of [...t.header, ...t.rows.flat()]) out.push(...cell.tokens);
  }
  if (token.type === 'list') for (const item of (token as Tokens.List).items) out.push(item);
  return out;
}

export function allTokens(markdown: string): Token[] {
  const out: Token[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      out.push(token);
      walk(children(token));
    }
  };
  walk(Lexer.lex(markdown, { gfm: true }));
  return out;
}

/** Raw HTML that would reach the page, apart from the collapsed blocks we write ourselves. */
export function rawHtml(markdown: string, allowed: RegExp = /^$/): string[] {
  return allTokens(markdown)
    .filter((t) => t.type === 'html')
    .map((t) => t.raw.trim())
    .filter((raw) => !allowed.test(raw));
}

export interface ParsedTable {
  header: string[];
  columns: number;
  /** Cell count of every body row. */
  rowWidths: number[];
  /** Cell text of every body row, as the reader sees it (code spans included). */
  cells: string[][];
}

/**
 * GFM drops cells beyond the header's count, so a broken row can still parse with the right
 * width. The source tells: every table line must hold exactly columns + 1 unescaped pipes
 * (GitHub splits on those before it reads code spans).
 */
export function tableLinePipes(markdown: string): number[][] {
  const blocks: number[][] = [];
  let current: number[] | null = null;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) {
      const pipes = (line.match(/(\\*)\|/g) ?? []).filter((m) => (m.length - 1) % 2 === 0).length;
      if (!current) {
        current = [];
        blocks.push(current);
      }
      current.push(pipes);
    } else {
      current = null;
    }
  }
  return blocks;
}

export function tables(markdown: string): ParsedTable[] {
  return allTokens(markdown)
    .filter((t): t is Tokens.Table => t.type === 'table')
    .map((t) => ({
      header: t.header.map((c) => c.text),
      columns: t.header.length,
      rowWidths: t.rows.map((r) => r.length),
      cells: t.rows.map((r) => r.map((c) => c.text)),
    }));
}

/**
 * The rendered text GitHub scans for mentions and references: tags removed, entities decoded,
 * code left out (GitHub never links inside code).
 */
export function visibleText(markdown: string): string {
  const html = marked.parse(markdown, { gfm: true, async: false });
  return html
    .replace(/<code>[\s\S]*?<\/code>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Things GitHub would act on in plain text: mentions, issue references, bare URLs. */
export function liveReferences(text: string): string[] {
  const patterns = [
    /(^|[^\w`])@[A-Za-z0-9]/g,
    /(^|[^\w&])#\d/g,
    /\b[\w.-]+\/[\w.-]+#\d/g,
    /\bhttps?:\/\//g,
    /\bwww\./g,
  ];
  return patterns.flatMap((p) => text.match(p) ?? []);
}

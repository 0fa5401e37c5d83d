/**
 * The nightly history in summary.md: a table of the last nights, each check's numbers in its
 * columns. The trend charts are the nightly rules' (`Check.nightly.rule`).
 */
import { type CheckList, nightlyColumns } from '../checks/list.js';
import { codeSpan, escapeText, table } from '../render/markdown.js';
import type { HistorySection } from './section.js';

const day = (iso: string) => iso.slice(0, 10);
const shortDigest = (d: string | null) => (d ? d.slice(0, 12) : '–');

export function renderHistorySection(section: HistorySection, checks: CheckList): string {
  const columns = nightlyColumns(checks);
  const lines = [`### Nightly history: ${codeSpan(section.model)}`, ''];
  const shown = section.nights.length;
  lines.push(
    `${section.total} night${section.total === 1 ? '' : 's'} of this model in ${codeSpan(section.file)}${
      section.appended ? ', tonight appended' : ' (read only: tonight was not appended)'
    }; the last ${shown} below.${
      section.otherModels > 0
        ? ` ${section.otherModels} night(s) of other models in the file are left out.`
        : ''
    }`,
    '',
    table(
      ['night', 'commit', 'digest', ...columns.map((c) => c.header), 'verdict'],
      section.nights.map((n) => [
        day(n.date),
        n.commit ? codeSpan(n.commit.slice(0, 7)) : '–',
        `${codeSpan(shortDigest(n.digest))}${n.rePulled ? ' model re-pulled' : ''}`,
        ...columns.map((c) => c.cell(n)),
        escapeText(n.verdict),
      ]),
      ['l', 'l', 'l', ...columns.map(() => 'r' as const), 'l'],
    ),
  );
  return lines.join('\n');
}

/** The speed part of summary.md, rendered from its section alone. Model tags are escaped. */
import { codeSpan, escapeText, table } from '../../render/markdown.js';
import { interval, percent, trimmed } from '../../text/format.js';
import { times } from './gate.js';
import type { DriftCorrection, PairedRatio, SpeedSection, Spread } from './section.js';

const spreadText = (s: Spread | undefined, digits: number) =>
  !s || s.median === null
    ? '–'
    : `${trimmed(s.median, digits)} (p90 ${trimmed(s.p90, digits)}, p99 ${trimmed(s.p99, digits)})`;

function driftLine(what: string, d: DriftCorrection): string {
  if (d.method === 'none') {
    return `${what}: too few items to fit the server's drift; the two models' times are compared as measured.`;
  }
  return `${what}: the server's time per token changed by ${percent(Math.expm1(d.slope ?? 0), 1)} from the first request of the run to the last; taken out (the two models ran ${percent(Math.abs(d.separation), 0)} of the run apart).`;
}

export function renderSpeedSection(section: SpeedSection): string {
  const out: string[] = ['### speed — is the candidate as fast and as brief as the baseline?'];
  if (section.notice) out.push(`> ${escapeText(section.notice)}`);
  const [base, cand] = section.models;
  const c = section.comparison;
  const rows: [string, (m: SpeedSection['models'][number]) => Spread, number][] = [
    ['decode tokens/s', (m) => m.decodeTokensPerSecond, 1],
    ['prompt tokens/s', (m) => m.promptTokensPerSecond, 0],
    ['time to first token (ms)', (m) => m.firstTokenMs, 0],
    ['output tokens per answer', (m) => m.outputTokens, 0],
    ['wall time per answer (ms)', (m) => m.wallMs, 0],
  ];
  if (base && base.timed + (cand?.timed ?? 0) > 0) {
    const models = cand ? [base, cand] : [base];
    out.push(
      table(
        ['median (p90, p99)', ...models.map((m) => codeSpan(m.model))],
        rows.map(([label, pick, digits]) => [
          label,
          ...models.map((m) => spreadText(pick(m), digits)),
        ]),
        ['l', 'r', 'r'],
      ),
    );
  }
  if (c) {
    out.push(
      table(
        ['paired over items', 'items', 'candidate ÷ baseline', 'one-sided bounds'],
        [
          ['decode time per token', c.decode],
          ['prompt time per token', c.prompt],
          ['output tokens per answer', c.verbosity],
        ].map(([label, r]) => {
          const ratio = r as PairedRatio | null;
          return [
            label as string,
            ratio ? String(ratio.items) : '0',
            ratio ? times(ratio.ratio) : '–',
            ratio
              ? `${interval(ratio.low, ratio.high, times)} at ${percent(ratio.alpha, 2)} each`
              : '–',
          ];
        }),
        ['l', 'r', 'r', 'r'],
      ),
    );
    const notes = [driftLine('Decode', c.decodeDrift), driftLine('Prompt', c.promptDrift)];
    out.push(notes.map((n) => `- ${n}`).join('\n'));
  }
  const resident = section.models.filter((m) => m.residency);
  if (resident.length > 0) {
    out.push(
      table(
        ['where the model sat (/api/ps)', ...resident.map((m) => codeSpan(m.model))],
        [
          ['GPU memory (MiB)', ...resident.map((m) => trimmed(m.residency?.vramMib, 0))],
          [
            'share in system memory',
            ...resident.map((m) => percent(m.residency?.offloadedShare, 0)),
          ],
        ],
        ['l', 'r', 'r'],
      ),
    );
  }
  const counts: string[] = [];
  if (section.untimed > 0) counts.push(`${section.untimed} answers without timings`);
  if (section.excluded > 0)
    counts.push(`${section.excluded} answers with impossible timings left out`);
  if (counts.length > 0) out.push(`${counts.join('; ')}.`);
  return `${out.join('\n\n')}\n`;
}

/** Rows of the "at a glance" table: the two ratios a reader asks first. */
export function speedGlance(section: SpeedSection): string[][] {
  const c = section.comparison;
  if (!c) return [];
  const shown = (r: PairedRatio | null) =>
    r ? `${times(r.ratio)} ${interval(r.low, r.high, times)}` : '–';
  return [
    ['decode time per token, candidate ÷ baseline', shown(c.decode)],
    ['output tokens per answer, candidate ÷ baseline', shown(c.verbosity)],
  ];
}

/**
 * Empty answers (a thinking-only reply, an answer cut by max-tokens) say nothing about an
 * assistant: a model that gave them was not measured, it did not merge anyone. Like churn's
 * invalid-answer rule, too many of them make the check inconclusive, so the recognition rules
 * (which would read "recognised in 0%") are set aside by the verdict instead of failing it.
 *
 * Two limits, per model:
 * - all its answers: invalid ones above `maxInvalidShare` of those expected;
 * - one assistant: fewer attributable answers than half its probes, when some were invalid — its
 *   recognition would rest on too few answers to say anything about the assistant.
 */
import { percent, plural } from '../../text/format.js';
import type { GateFinding } from '../types.js';
import type { PersonasModelResult, PersonasSection } from './section.js';

export function invalidAnswerFindings(
  section: PersonasSection,
  maxInvalidShare: number,
): GateFinding[] {
  const probes = section.catalogue.probes.length;
  return section.models.flatMap((result) => modelFindings(result, probes, maxInvalidShare));
}

function modelFindings(
  result: PersonasModelResult,
  probes: number,
  maxInvalidShare: number,
): GateFinding[] {
  const { invalid, expected } = result.answers;
  if (invalid === 0 || expected === 0) return [];
  const share = invalid / expected;
  if (share > maxInvalidShare) {
    return [
      {
        check: 'personas',
        rule: 'invalid-answers',
        severity: 'inconclusive',
        message: `${result.model}: ${invalid} of ${expected} persona answers were empty or invalid (${percent(share)}, more than the ${percent(maxInvalidShare)} allowed); an empty answer says nothing about its assistant, so recognition is not judged. Check personas.max-tokens and think.`,
        values: { model: result.model, invalid, expected, share, limit: maxInvalidShare },
      },
    ];
  }
  // Below the overall share, one assistant can still have lost most of its answers.
  const thin = result.recognition.filter((r) => r.answers * 2 < probes);
  if (thin.length === 0) return [];
  return [
    {
      check: 'personas',
      rule: 'invalid-answers',
      severity: 'inconclusive',
      message: `${result.model}: ${thin.map((r) => `${r.assistant} has ${plural(r.answers, 'attributable answer')} of ${probes}`).join(', ')} (${invalid} answers were empty or invalid); too few to judge whether the assistant is still recognised.`,
      values: {
        model: result.model,
        invalid,
        expected,
        assistants: thin.map((r) => r.assistant).join(','),
      },
    },
  ];
}

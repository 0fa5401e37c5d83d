/**
 * Controls planted in the catalogue say whether the instrument can be trusted. A paraphrase
 * (same ground, other words) must be confused with its twin: if it is not, the measure
 * missed a redundancy put there on purpose and would miss the ones nobody planted. An
 * inverse-posture control (same ground, reacts to a submitted text) is a doubt the measure
 * arbitrates: confused or separated, both are findings, neither is a defect.
 */
import type { ControlOutcome, PersonasAssistant } from './section.js';

export function evaluateControls(
  assistants: readonly PersonasAssistant[],
  confusion: readonly (readonly number[])[],
  answersPerAssistant: readonly number[],
): ControlOutcome[] {
  const index = new Map(assistants.map((a, i) => [a.name, i]));
  const outcomes: ControlOutcome[] = [];
  assistants.forEach((assistant, c) => {
    if (!assistant.control) return;
    const t = index.get(assistant.control.of);
    if (t === undefined) return;
    const crossings = (confusion[c]?.[t] ?? 0) + (confusion[t]?.[c] ?? 0);
    const answers = (answersPerAssistant[c] ?? 0) + (answersPerAssistant[t] ?? 0);
    const confused = answers > 0 && 2 * crossings >= answers;
    const kind = assistant.control.kind;
    outcomes.push({
      control: assistant.name,
      twin: assistant.control.of,
      kind,
      crossings,
      answers,
      confused,
      verdict:
        kind === 'paraphrase'
          ? confused
            ? 'as-expected'
            : 'instrument-problem'
          : confused
            ? 'confused'
            : 'separated',
    });
  });
  return outcomes;
}

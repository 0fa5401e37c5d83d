/**
 * Baseline vs candidate on the same catalogue: accuracy, recognition per assistant and the
 * pairs that merge or separate. Changing the model under unchanged prompts moves these; the
 * point is to see it before the migration.
 */
import type {
  ConfusedPair,
  PersonasAssistant,
  PersonasComparison,
  PersonasModelResult,
} from './section.js';

export function compareModels(
  assistants: readonly PersonasAssistant[],
  baseline: PersonasModelResult,
  candidate: PersonasModelResult,
): PersonasComparison {
  const merged = (result: PersonasModelResult): Map<string, ConfusedPair> =>
    new Map(result.confusedPairs.filter((p) => p.merged && !p.control).map((p) => [pairKey(p), p]));
  const mergedBefore = merged(baseline);
  const mergedAfter = merged(candidate);
  const delta =
    baseline.accuracy !== null && candidate.accuracy !== null
      ? candidate.accuracy - baseline.accuracy
      : null;
  return {
    baseline: baseline.model,
    candidate: candidate.model,
    accuracy: { baseline: baseline.accuracy, candidate: candidate.accuracy, delta },
    recognition: assistants.map((assistant) => {
      const before = baseline.recognition.find((r) => r.assistant === assistant.name);
      const after = candidate.recognition.find((r) => r.assistant === assistant.name);
      return {
        assistant: assistant.name,
        baseline: before?.share ?? null,
        candidate: after?.share ?? null,
        baselineGated: before?.shareUpToControls ?? null,
        candidateGated: after?.shareUpToControls ?? null,
        control: assistant.control !== null,
      };
    }),
    newlyMerged: [...mergedAfter].filter(([key]) => !mergedBefore.has(key)).map(([, p]) => p),
    newlySeparated: [...mergedBefore].filter(([key]) => !mergedAfter.has(key)).map(([, p]) => p),
    controlChanges: candidate.controls.flatMap((after) => {
      const before = baseline.controls.find((c) => c.control === after.control);
      if (!before || before.verdict === after.verdict) return [];
      return [
        {
          control: after.control,
          twin: after.twin,
          kind: after.kind,
          baseline: before.verdict,
          candidate: after.verdict,
        },
      ];
    }),
  };
}

function pairKey(pair: { a: string; b: string }): string {
  return `${pair.a}\u0000${pair.b}`;
}

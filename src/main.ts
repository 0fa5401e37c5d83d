import * as core from '@actions/core';
import { type ActionInputs, getInputs } from './config/actionInputs.js';
import { formatGateError, InfrastructureError, isGateError } from './errors.js';
import { githubPublishOptions, publish, publishFailure } from './github/publish.js';
import { runJob } from './pipeline/run.js';
import { onStopSignals } from './signals.js';
import { gateOutcome } from './report/verdict.js';
import { neutraliseLines } from './text/neutralise.js';
import { errorMessage } from './text/format.js';

/**
 * The action: read the inputs, run the gate, publish everything, and only then set the failed
 * state. A regression (verdict fail) and a measurement that could not be made (inconclusive,
 * or an infrastructure error before any measurement) read differently in the log.
 */
export async function run(): Promise<void> {
  let inputs: ActionInputs | null = null;
  try {
    inputs = getInputs();
    const controller = new AbortController();
    const stop = (): void => controller.abort(new Error('the job was cancelled'));
    onStopSignals(stop, { once: true });

    const outcome = await core.group('model-gate: measure', () =>
      runJob({
        loaded: inputs!.loaded,
        shard: inputs!.shard,
        cacheDir: inputs!.cacheDir,
        keepHistory: inputs!.keepHistory,
        signal: controller.signal,
        progress: process.stdout,
        interactive: false,
      }),
    );

    const { report, files } = outcome;
    await core.group('model-gate: publish', () =>
      publish(report, { ...files }, publishOptions(inputs!, outcome.shard ?? null)),
    );

    for (const warning of [...(outcome.inputWarnings ?? []), ...report.run.warnings])
      core.warning(neutraliseLines(`model-gate: ${warning}`));
    const decision = gateOutcome(report.verdict.status, report.run.config.failOn, {
      shard: outcome.shard ?? null,
      interrupted: outcome.cancelled,
    });
    const reasons = report.verdict.reasons
      .filter((r) => r.severity === 'fail' || r.severity === 'inconclusive')
      .map((r) => neutraliseLines(`${r.check}: ${r.message}`));
    const missing = report.run.coverage?.missing;
    if (missing) reasons.unshift(neutraliseLines(missing));
    if (decision.failed) {
      core.setFailed([decision.message, ...reasons].join('\n'));
    } else if (outcome.shard) {
      core.info([decision.message, ...reasons].join('\n'));
    } else if (report.verdict.status !== 'pass') {
      core.warning([decision.message, ...reasons].join('\n'));
    } else {
      core.info(decision.message);
    }
  } catch (error) {
    await reportCrash(error, inputs);
  }
}

/**
 * Nothing could be measured: say why in the log, the job summary and the sticky comment (a
 * previous verdict there must not stand for this commit), then fail the step.
 */
async function reportCrash(error: unknown, inputs: ActionInputs | null): Promise<void> {
  const message = neutraliseLines(
    isGateError(error) ? formatGateError(error) : `internal error: ${errorMessage(error)}`,
  );
  const couldNotMeasure = error instanceof InfrastructureError;
  core.setOutput('verdict', 'inconclusive');
  core.setOutput('incomplete', `nothing was measured: ${message.split('\n')[0]}`);
  try {
    const title = couldNotMeasure
      ? 'could not measure'
      : isGateError(error)
        ? 'bad input'
        : 'internal error';
    // Without inputs (they were the bad input) there is no comment to update: the summary only.
    const shard = inputs?.shard;
    const options = inputs
      ? publishOptions(inputs, shard && shard.count > 1 ? `${shard.index}/${shard.count}` : null)
      : { comment: null, artifact: null, run: null };
    await publishFailure(title, message, options);
  } catch {
    // The step fails below either way; a missing summary must not hide the reason.
  }
  if (couldNotMeasure && inputs?.loaded.config.failOn === 'never') {
    core.warning(`model-gate: ${message}`);
    return;
  }
  if (!isGateError(error) && error instanceof Error && error.stack) core.debug(error.stack);
  core.setFailed(`model-gate: ${message}`);
}

function publishOptions(inputs: ActionInputs, shard: string | null) {
  return githubPublishOptions({
    token: inputs.githubToken,
    comment: inputs.comment,
    commentHeader: inputs.commentHeader,
    artifactName: inputs.artifactName,
    shard,
  });
}

import * as core from '@actions/core';
import {
  type ActionInputs,
  getInputs,
  getPublishInputs,
  type PublishInputs,
} from './config/actionInputs.js';
import { formatGateError, InfrastructureError, isGateError } from './errors.js';
import { githubPublishOptions, publish, publishFailure } from './github/publish.js';
import type { FailOn } from './config/schema.js';
import { runJob } from './pipeline/run.js';
import { CHECKS } from './checks/builtIn.js';
import type { AnyCheck } from './checks/types.js';
import { onStopSignals } from './signals.js';
import { errorMessage } from './text/format.js';
import { onSecret, scrubSecrets } from './text/secrets.js';
import { forLog } from './text/sinks.js';

/**
 * The action: read the inputs, run the gate, publish everything, and only then set the failed
 * state. A regression (verdict fail) and a measurement that could not be made (inconclusive,
 * or an infrastructure error before any measurement) read differently in the log.
 */
export async function run(): Promise<void> {
  // Every secret read from here on (token, API key, URL credentials) is masked by the runner.
  const stopMasking = onSecret((secret) => core.setSecret(secret));
  let publishing: PublishInputs | null = null;
  let failOn: FailOn | null = null;
  try {
    const read = getPublishInputs();
    publishing = read.inputs;
    const inputs = getInputs(core, { checks: CHECKS, publishing: read });
    failOn = inputs.loaded.config.failOn;
    await measureAndPublish(inputs);
  } catch (error) {
    await reportCrash(error, publishing, failOn);
  } finally {
    stopMasking();
  }
}

/** The run with inputs read: measure, publish, then say the verdict and set the step's state. */
async function measureAndPublish(inputs: ActionInputs<AnyCheck>): Promise<void> {
  const controller = new AbortController();
  const stop = (): void => controller.abort(new Error('the job was cancelled'));
  onStopSignals(stop, { once: true });

  const outcome = await core.group('model-gate: measure', () =>
    runJob({
      loaded: inputs.loaded,
      shard: inputs.shard,
      cacheDir: inputs.cacheDir,
      keepHistory: inputs.keepHistory,
      signal: controller.signal,
      progress: process.stdout,
      interactive: false,
    }),
  );

  const { report, files } = outcome;
  await core.group('model-gate: publish', () =>
    publish(report, files, publishOptions(inputs, outcome.shard ?? null)),
  );

  for (const warning of [...(outcome.inputWarnings ?? []), ...report.run.warnings])
    core.warning(forLog(`model-gate: ${warning}`));
  const { decision } = outcome;
  const reasons = report.verdict.reasons
    .filter((r) => r.severity === 'fail' || r.severity === 'inconclusive')
    .map((r) => forLog(`${r.check}: ${r.message}`));
  const missing = report.run.coverage?.missing;
  if (missing) reasons.unshift(forLog(missing));
  if (decision.failed) {
    core.setFailed([decision.message, ...reasons].join('\n'));
  } else if (outcome.shard) {
    core.info([decision.message, ...reasons].join('\n'));
  } else if (report.verdict.status !== 'pass') {
    core.warning([decision.message, ...reasons].join('\n'));
  } else {
    core.info(decision.message);
  }
}

/**
 * Nothing could be measured: say why in the log, the job summary and the sticky comment (a
 * previous verdict there must not stand for this commit — a bad config included), then fail
 * the step.
 */
async function reportCrash(
  error: unknown,
  publishing: PublishInputs | null,
  failOn: FailOn | null,
): Promise<void> {
  const message = forLog(
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
    // The publishing inputs are read before the config: only when they themselves could not
    // be read (or name no usable header) is there no comment to update, the summary only.
    const shard = publishing?.shard;
    const options = publishing
      ? publishOptions(
          publishing,
          shard && shard.count > 1 ? `${shard.index}/${shard.count}` : null,
        )
      : { comment: null, artifact: null, run: null };
    await publishFailure(title, message, options);
  } catch {
    // The step fails below either way; a missing summary must not hide the reason.
  }
  if (couldNotMeasure && failOn === 'never') {
    core.warning(`model-gate: ${message}`);
    return;
  }
  if (!isGateError(error) && error instanceof Error && error.stack)
    core.debug(scrubSecrets(error.stack));
  core.setFailed(`model-gate: ${message}`);
}

function publishOptions(inputs: PublishInputs, shard: string | null) {
  return githubPublishOptions({
    token: inputs.githubToken,
    comment: inputs.comment && inputs.commentHeader !== null,
    commentHeader: inputs.commentHeader ?? 'default',
    artifactName: inputs.artifactName,
    shard,
  });
}

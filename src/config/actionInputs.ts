/**
 * Every action input, read once, validated together, returned typed. The rest of the code
 * never calls core.getInput.
 */
import * as core from '@actions/core';
import { InputError } from '../errors.js';
import { COMMENT_HEADER_EXPECTED, isCommentHeader } from './commentHeader.js';
import { configFileRequired, type LoadedConfig, loadConfig } from './load.js';
import {
  checkOverridableNames,
  type GivenOverrides,
  type OverridingCheck,
  parseShard,
  type Shard,
  toOverrides,
} from './overrides.js';
import type { ConfigCheck } from './schema.js';
import { errorMessage } from '../text/format.js';
import { registerSecret } from '../text/secrets.js';

/** Input names exactly as in action.yml. */
export const Input = {
  config: 'config',
  baseline: 'baseline',
  candidate: 'candidate',
  checks: 'checks',
  provider: 'provider',
  ollamaHost: 'ollama-host',
  concurrency: 'concurrency',
  timeout: 'timeout',
  failOn: 'fail-on',
  outputDir: 'output-dir',
  comment: 'comment',
  commentHeader: 'comment-header',
  artifactName: 'artifact-name',
  cacheDir: 'cache-dir',
  keepHistory: 'keep-history',
  shard: 'shard',
  githubToken: 'github-token',
} as const;

/** What publishing needs: read before the config, so a bad config is still reported. */
export interface PublishInputs {
  comment: boolean;
  /** Null when the input itself is not usable: then no comment is written. */
  commentHeader: string | null;
  artifactName: string;
  shard: Shard | null;
  githubToken: string;
}

export interface ActionInputs<Check extends ConfigCheck = ConfigCheck> extends PublishInputs {
  loaded: LoadedConfig<Check>;
  commentHeader: string;
  cacheDir: string | null;
  /** The cached log keeps the records of models no longer in the config. */
  keepHistory: boolean;
}

type InputReader = Pick<typeof core, 'getInput' | 'getBooleanInput' | 'setSecret'>;

/**
 * The inputs that say where and how to publish, each problem listed rather than thrown: the
 * action still comments with them when the config (or one of them) is bad input.
 */
export function getPublishInputs(reader: InputReader = core): {
  inputs: PublishInputs;
  problems: string[];
} {
  const problems: string[] = [];
  const token = reader.getInput(Input.githubToken);
  if (token) {
    reader.setSecret(token);
    registerSecret(token);
  }
  let comment = true;
  try {
    comment = reader.getInput(Input.comment) === '' ? true : reader.getBooleanInput(Input.comment);
  } catch {
    problems.push(
      `input '${Input.comment}': expected true or false, got ${JSON.stringify(reader.getInput(Input.comment))}`,
    );
  }
  const header = reader.getInput(Input.commentHeader) || 'default';
  const headerUsable = isCommentHeader(header);
  if (!headerUsable) {
    problems.push(
      `input '${Input.commentHeader}': ${COMMENT_HEADER_EXPECTED}, got ${JSON.stringify(header)}`,
    );
  }
  let shard: Shard | null = null;
  try {
    shard = parseShard(reader.getInput(Input.shard), `input '${Input.shard}'`);
  } catch (error) {
    problems.push(errorMessage(error));
  }
  return {
    inputs: {
      comment,
      commentHeader: headerUsable ? header : null,
      artifactName: reader.getInput(Input.artifactName) || 'model-gate',
      shard,
      githubToken: token,
    },
    problems,
  };
}

/** What the inputs are read for: the action's checks, and the publishing inputs if read. */
export interface GetInputsOptions<Check> {
  checks: readonly Check[];
  publishing?: ReturnType<typeof getPublishInputs>;
}

export function getInputs<Check extends ConfigCheck & OverridingCheck>(
  reader: InputReader,
  options: GetInputsOptions<Check>,
): ActionInputs<Check> {
  const { checks } = options;
  const publishing = options.publishing ?? getPublishInputs(reader);
  const problems = [...publishing.problems];
  const {
    comment,
    commentHeader: header,
    artifactName,
    shard,
    githubToken: token,
  } = publishing.inputs;

  const given: GivenOverrides = {
    baseline: reader.getInput(Input.baseline),
    candidate: reader.getInput(Input.candidate),
    checks: reader.getInput(Input.checks),
    provider: reader.getInput(Input.provider),
    'ollama-host': reader.getInput(Input.ollamaHost),
    // A check's own settings are inputs of their own names (`cli.overrides`).
    ...Object.fromEntries(
      checkOverridableNames(checks).map((name) => [name, reader.getInput(name)]),
    ),
    concurrency: reader.getInput(Input.concurrency),
    timeout: reader.getInput(Input.timeout),
    'fail-on': reader.getInput(Input.failOn),
    'output-dir': reader.getInput(Input.outputDir),
  };
  const configInput = reader.getInput(Input.config);

  let loaded: LoadedConfig<Check> | null = null;
  try {
    loaded = loadConfig({
      checks,
      file: configInput || undefined,
      required: configFileRequired(configInput),
      overrides: toOverrides(given, (n) => `input '${n}'`, checks),
      origin: 'action',
    });
  } catch (error) {
    if (error instanceof InputError) problems.push(error.message, ...error.details);
    else throw error;
  }

  const cacheDir = reader.getInput(Input.cacheDir) || null;
  let keepHistory = false;
  try {
    keepHistory =
      reader.getInput(Input.keepHistory) !== '' && reader.getBooleanInput(Input.keepHistory);
  } catch {
    problems.push(
      `input '${Input.keepHistory}': expected true or false, got ${JSON.stringify(reader.getInput(Input.keepHistory))}`,
    );
  }
  if (problems.length > 0 || loaded === null || header === null) {
    throw new InputError('the action inputs are not valid', problems);
  }
  return {
    loaded,
    comment,
    commentHeader: header,
    artifactName,
    cacheDir,
    keepHistory,
    shard,
    githubToken: token,
  };
}

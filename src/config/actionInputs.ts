/**
 * Every action input, read once, validated together, returned typed. The rest of the code
 * never calls core.getInput.
 */
import * as core from '@actions/core';
import { InputError } from '../errors.js';
import { COMMENT_HEADER_EXPECTED, isCommentHeader } from './commentHeader.js';
import { configFileRequired, type LoadedConfig, loadConfig } from './load.js';
import {
  type GivenOverrides,
  overridableNames,
  type OverridingCheck,
  parseShard,
  type Shard,
  toOverrides,
} from './overrides.js';
import type { ConfigCheck } from './schema.js';
import { errorMessage } from '../text/format.js';
import { registerSecret } from '../text/secrets.js';

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

/** A true/false input, `fallback` when empty; a problem listed when it is neither. */
function booleanInput(
  reader: InputReader,
  name: string,
  fallback: boolean,
  problems: string[],
): boolean {
  try {
    return reader.getInput(name) === '' ? fallback : reader.getBooleanInput(name);
  } catch {
    problems.push(
      `input '${name}': expected true or false, got ${JSON.stringify(reader.getInput(name))}`,
    );
    return fallback;
  }
}

/**
 * The inputs that say where and how to publish, each problem listed rather than thrown: the
 * action still comments with them when the config (or one of them) is bad input.
 */
export function getPublishInputs(reader: InputReader = core): {
  inputs: PublishInputs;
  problems: string[];
} {
  const problems: string[] = [];
  const token = reader.getInput('github-token');
  if (token) {
    reader.setSecret(token);
    registerSecret(token);
  }
  const comment = booleanInput(reader, 'comment', true, problems);
  const header = reader.getInput('comment-header') || 'default';
  const headerUsable = isCommentHeader(header);
  if (!headerUsable) {
    problems.push(
      `input 'comment-header': ${COMMENT_HEADER_EXPECTED}, got ${JSON.stringify(header)}`,
    );
  }
  let shard: Shard | null = null;
  try {
    shard = parseShard(reader.getInput('shard'), "input 'shard'");
  } catch (error) {
    problems.push(errorMessage(error));
  }
  return {
    inputs: {
      comment,
      commentHeader: headerUsable ? header : null,
      artifactName: reader.getInput('artifact-name') || 'model-gate',
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
  // Every overridable setting is an input of its name, but the log: the action keeps it in
  // output-dir, where the cache finds it.
  const given: GivenOverrides = Object.fromEntries(
    overridableNames(checks)
      .filter((name) => name !== 'log')
      .map((name) => [name, reader.getInput(name)]),
  );
  const configInput = reader.getInput('config');
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
  const keepHistory = booleanInput(reader, 'keep-history', false, problems);
  const header = publishing.inputs.commentHeader;
  if (problems.length > 0 || loaded === null || header === null) {
    throw new InputError('the action inputs are not valid', problems);
  }
  return {
    ...publishing.inputs,
    loaded,
    commentHeader: header,
    cacheDir: reader.getInput('cache-dir') || null,
    keepHistory,
  };
}

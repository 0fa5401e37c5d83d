/**
 * Each check's records as the sample log reads them: the registry hands every check's
 * `RecordFormat` in (`registerRecordFormat`), and reading a line and telling which records are
 * the same measurement ask the format of the record's check. Nothing here names a check.
 */
import { z } from 'zod';
import { isMapping } from '../render/json.js';
import {
  callRecordFields,
  type LogLine,
  type RunInfoRecord,
  runInfoSchema,
  SAMPLE_LOG_VERSION,
  type SampleRecord,
} from './schema.js';

/** What a check's records are, for the sample log (a check declares it as `Check.records`). */
export interface RecordFormat {
  /**
   * A schema per kind of record the check writes: `call` (built on `callRecordFields`) and any
   * other kind (e.g. one record per finished game). Fields a schema does not name are kept.
   */
  kinds: Readonly<Record<string, z.ZodType>>;
  /** The fields an ok call must carry besides: without them it measured nothing. */
  okAnswer?: z.ZodType;
  /**
   * The part of a record's identity beyond the shared fields (check, model, digest, key,
   * sample, kind, options, prompt hash): records that differ in it are other measurements.
   */
  identity?(record: SampleRecord): string | number | boolean | null;
}

/** The format of a check that declares none: the shared call fields, its own kept as written. */
const OPEN_FORMAT: RecordFormat = {
  kinds: { call: z.looseObject({ ...callRecordFields, check: z.string() }) },
};

const formats = new Map<string, RecordFormat>();

/** Makes a check's records readable in the sample log (the check registry calls this). */
export function registerRecordFormat(check: string, format: RecordFormat = OPEN_FORMAT): void {
  if (formats.has(check)) throw new Error(`the sample log already reads records of ${check}`);
  formats.set(check, format);
}

/** The identity part a record's check adds (null when its check adds none). */
export function ownIdentity(record: SampleRecord): string | number | boolean | null {
  return formats.get(record.check)?.identity?.(record) ?? null;
}

/** The first problem zod found, as `field "a.b": message`. */
function describeIssue(error: z.ZodError, prefix = ''): string {
  const issue = error.issues[0];
  if (!issue) return 'not a record of this format';
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return field ? `field "${field}": ${issue.message}` : issue.message;
}

/** Every kind of record a log may hold, as a message lists them ("call", "game" or "run"). */
function knownKinds(): string {
  const kinds = [...new Set([...formats.values()].flatMap((f) => Object.keys(f.kinds))), 'run'];
  const quoted = kinds.map((k) => JSON.stringify(k));
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

function isKnownKind(kind: unknown): boolean {
  return (
    kind === 'run' ||
    (typeof kind === 'string' && [...formats.values()].some((f) => Object.hasOwn(f.kinds, kind)))
  );
}

/**
 * Reads one parsed line: the record, or what is wrong with it in words. The record returned
 * is the value as written (fields this version does not know are kept, not stripped).
 */
export function readRecord(value: unknown): { record: LogLine } | { problem: string } {
  if (formats.size === 0) {
    throw new Error('no check is registered: import src/checks/builtIn.ts before reading a log');
  }
  if (!isMapping(value)) return { problem: 'expected a JSON object' };
  if (value.v !== SAMPLE_LOG_VERSION) {
    return {
      problem: `sample log schema version ${JSON.stringify(value.v)}, this version of model-gate reads version ${SAMPLE_LOG_VERSION}`,
    };
  }
  const kind = value.kind;
  if (kind === 'run') {
    const run = runInfoSchema.safeParse(value);
    return run.success ? { record: value as RunInfoRecord } : { problem: describeIssue(run.error) };
  }
  if (!isKnownKind(kind)) {
    return { problem: `field "kind": expected ${knownKinds()}, got ${JSON.stringify(kind)}` };
  }
  const check = value.check;
  const format = typeof check === 'string' ? formats.get(check) : undefined;
  if (format === undefined) {
    return {
      problem: `field "check": expected one of ${[...formats.keys()].join(', ')}, got ${JSON.stringify(check)}`,
    };
  }
  return readOwnRecord(value, check as string, kind as string, format);
}

function readOwnRecord(
  value: Record<string, unknown>,
  check: string,
  kind: string,
  format: RecordFormat,
): { record: LogLine } | { problem: string } {
  const schema = Object.hasOwn(format.kinds, kind) ? format.kinds[kind] : undefined;
  if (schema === undefined) {
    return { problem: `field "kind": a ${check} record is never ${JSON.stringify(kind)}` };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { problem: describeIssue(parsed.error) };
  if (kind === 'call' && value.status === 'ok' && format.okAnswer) {
    const answer = format.okAnswer.safeParse(value);
    if (!answer.success) {
      return {
        problem: `a ${check} record with status "ok" must carry its answer: ${describeIssue(answer.error)}`,
      };
    }
  }
  return { record: value as unknown as SampleRecord };
}

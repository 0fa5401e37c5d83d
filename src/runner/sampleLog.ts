/**
 * Writing and reading the sample log (JSON Lines).
 *
 * Writing: one file descriptor opened for append; each record is one `write` of one line,
 * made synchronously before `append` returns, so a killed process loses only the requests
 * still in flight. A line cut short by a kill is removed when the log is opened again, so
 * the next record starts on a line of its own.
 *
 * Reading: a cut-short last line is skipped with a warning; any other unreadable line, or a
 * record of another schema version, is an InputError naming file and line. Several logs (a
 * resumed run, shards) are read as one: when two records have the same identity (check,
 * model, digest, key, sample, kind) the later one wins — a retried error is replaced by its
 * retry — and records keep the position where their identity first appeared.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CHECK_NAMES } from '../config/schema.js';
import { InputError } from '../errors.js';
import { type RunInfoRecord, SAMPLE_LOG_VERSION, type SampleRecord } from './records.js';

export type LogLine = SampleRecord | RunInfoRecord;

export interface SampleLogWriter {
  readonly path: string;
  append(record: LogLine): void;
  close(): void;
}

export interface OpenedSampleLog {
  writer: SampleLogWriter;
  /** Set when an incomplete last line (an interrupted write) was removed. */
  warnings: string[];
}

export function openSampleLog(file: string): OpenedSampleLog {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const warnings: string[] = [];
  const fd = openSync(file, 'a+');
  const cut = incompleteTailLength(fd);
  if (cut > 0) {
    ftruncateSync(fd, fstatSync(fd).size - cut);
    warnings.push(
      `${file}: removed an incomplete last line (${cut} bytes) left by an interrupted run`,
    );
  }
  let open = true;
  return {
    warnings,
    writer: {
      path: file,
      append(record) {
        if (!open) throw new Error(`sample log ${file} is closed`);
        const bytes = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
        let written = 0;
        while (written < bytes.length) {
          written += writeSync(fd, bytes, written, bytes.length - written);
        }
      },
      close() {
        if (!open) return;
        open = false;
        closeSync(fd);
      },
    },
  };
}

/** Bytes after the last newline (0 when the file is empty or ends with one). */
function incompleteTailLength(fd: number): number {
  const size = fstatSync(fd).size;
  const chunk = Buffer.alloc(4096);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const read = readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (at >= 0) return size - (start + at + 1);
    end = start;
  }
  return size;
}

export interface SampleLogContents {
  /** Call and game records, de-duplicated (see above). */
  records: SampleRecord[];
  /** Run provenance records, in file order. */
  runs: RunInfoRecord[];
  warnings: string[];
}

export async function readSampleLogs(paths: readonly string[]): Promise<SampleLogContents> {
  const parsed: SampleLogContents[] = [];
  for (const file of paths) {
    if (!existsSync(file)) throw new InputError(`${file}: sample log not found`);
    if (statSync(file).isDirectory()) {
      const inside = path.join(file, 'samples.jsonl');
      throw new InputError(`${file}: a folder, not a sample log`, [
        existsSync(inside) ? `did you mean ${inside}?` : 'give the samples.jsonl file a run wrote',
      ]);
    }
    parsed.push(parseSampleLog(await readFile(file, 'utf8'), file));
  }
  return {
    records: deduplicate(parsed.flatMap((p) => p.records)),
    runs: parsed.flatMap((p) => p.runs),
    warnings: parsed.flatMap((p) => p.warnings),
  };
}

/** Parses one log's text; `name` is used in messages. Records are not de-duplicated here. */
export function parseSampleLog(text: string, name: string): SampleLogContents {
  const records: SampleRecord[] = [];
  const runs: RunInfoRecord[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  const endsComplete = text.endsWith('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const lineNumber = index + 1;
    const isCutShort = index === lines.length - 1 && !endsComplete;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (isCutShort) {
        warnings.push(
          `${name}:${lineNumber}: skipped an incomplete last line (a run was interrupted while writing it)`,
        );
        return;
      }
      throw new InputError(`${name}:${lineNumber}: not a JSON record`, [
        'each line of a sample log is one JSON object; was the file edited or concatenated by hand?',
      ]);
    }
    const problem = recordProblem(value);
    if (problem) throw new InputError(`${name}:${lineNumber}: ${problem}`);
    const record = value as LogLine;
    if (record.kind === 'run') runs.push(record);
    else records.push(record);
  });
  return { records, runs, warnings };
}

/** What is wrong with a parsed line, or null when it is a record this version reads. */
function recordProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return 'expected a JSON object';
  }
  const r = value as Record<string, unknown>;
  if (r.v !== SAMPLE_LOG_VERSION) {
    return `sample log schema version ${JSON.stringify(r.v)}, this version of model-gate reads version ${SAMPLE_LOG_VERSION}`;
  }
  if (r.kind === 'run') return null;
  if (r.kind !== 'call' && r.kind !== 'game') {
    return `field "kind": expected "call", "game" or "run", got ${JSON.stringify(r.kind)}`;
  }
  if (!(CHECK_NAMES as readonly unknown[]).includes(r.check)) {
    return `field "check": expected one of ${CHECK_NAMES.join(', ')}, got ${JSON.stringify(r.check)}`;
  }
  if (typeof r.model !== 'string') return 'field "model": expected a string';
  if (typeof r.digest !== 'string' && r.digest !== null) {
    return 'field "digest": expected a string or null';
  }
  if (typeof r.key !== 'string') return 'field "key": expected a string';
  if (r.kind === 'call') {
    if (!Number.isInteger(r.sample)) return 'field "sample": expected an integer';
    if (!['ok', 'invalid', 'timeout', 'error'].includes(String(r.status))) {
      return `field "status": expected ok, invalid, timeout or error, got ${JSON.stringify(r.status)}`;
    }
    if (r.options === null || typeof r.options !== 'object') {
      return 'field "options": expected the request options object';
    }
  }
  return null;
}

/** Records describing the same outcome share an identity; resume and merging rely on it. */
export function recordIdentity(record: SampleRecord): string {
  const sample = record.kind === 'call' ? record.sample : null;
  return JSON.stringify([
    record.check,
    record.model,
    record.digest,
    record.key,
    sample,
    record.kind,
  ]);
}

/** The last record per identity, at the position its identity first appeared. */
export function deduplicate(records: readonly SampleRecord[]): SampleRecord[] {
  const byIdentity = new Map<string, SampleRecord>();
  for (const record of records) byIdentity.set(recordIdentity(record), record);
  return [...byIdentity.values()];
}

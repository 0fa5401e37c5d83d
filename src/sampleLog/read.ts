/**
 * Reading sample logs, line by line (a log of any size is never held whole as text).
 *
 * A cut-short last line (a run killed while writing it) is skipped with a warning; any other
 * unreadable line, a record of another schema version, or a record that lacks its check's
 * fields is an InputError naming file and line. A file whose first line is not a record is
 * not a sample log. Several logs (a resumed run, shards) are read as one: records of the same
 * identity are reduced to the one that counts (see counted.ts); an analysis reads them twice
 * instead of holding them (countedLogs.ts).
 */
import { existsSync, readSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../errors.js';
import { checkUserFile } from '../files/userFile.js';
import { latestRecords } from './counted.js';
import { readRecord } from './formats.js';
import { refuseDeepRecord, refuseLongLogLine } from './lineLimit.js';
import { isRunInfo, type LogLine, type RunInfoRecord, type SampleRecord } from './schema.js';
import { startsLikeRecord } from './write.js';

export interface SampleLogContents {
  /** Call and game records, one per identity (the latest, see counted.ts). */
  records: SampleRecord[];
  /** Run provenance records, in file order. */
  runs: RunInfoRecord[];
  warnings: string[];
}

/** The records of `paths` read as one log, reduced to one per identity (see counted.ts). */
export async function readSampleLogs(paths: readonly string[]): Promise<SampleLogContents> {
  const records: SampleRecord[] = [];
  const runs: RunInfoRecord[] = [];
  const warnings: string[] = [];
  const sink: LineSink = {
    record: (record) => records.push(record),
    run: (run) => runs.push(run),
  };
  for (const file of paths) warnings.push(...(await streamLog(file, sink)));
  return { records: latestRecords(records), runs, warnings };
}

/** Where a reader's lines go, one at a time, each with the line as written and its byte offset. */
export interface LineSink {
  record(record: SampleRecord, line: string, at: number): void;
  run(run: RunInfoRecord, line: string, at: number): void;
}

/**
 * Reads one log line by line into `sink`, checking each line as readSampleLogs does; returns
 * its warnings (a cut-short last line skipped).
 */
export async function streamLog(file: string, sink: LineSink): Promise<string[]> {
  if (!existsSync(file)) throw new InputError(`${file}: sample log not found`);
  if (statSync(file).isDirectory()) {
    const inside = path.join(file, 'samples.jsonl');
    throw new InputError(`${file}: a folder, not a sample log`, [
      existsSync(inside) ? `did you mean ${inside}?` : 'give the samples.jsonl file a run wrote',
    ]);
  }
  // A link out of the working folder, a pipe or a device (a cached log → /dev/zero) is refused.
  checkUserFile(file, file, 'sample log');
  const reader = new LineReader(file);
  const endsComplete = await endsWithNewline(file);
  let pending: string | null = null;
  let pendingAt = 0;
  // The last line is known only when the next one arrives: hold one line back.
  await eachLineAt(file, (buffer, start, end, at) => {
    const line = lineText(buffer, start, end);
    if (pending !== null) reader.add(pending, false, sink, pendingAt);
    pending = line;
    pendingAt = at;
  });
  if (pending !== null) reader.add(pending, !endsComplete, sink, pendingAt);
  return reader.warnings;
}

/**
 * The lines of a file with the byte offset each starts at (so that a record can be read again
 * from its offset instead of being held), each as the part [start, end) of a buffer that is
 * reused (a line not wanted is never decoded; lineText decodes one). A line ends at "\n"; a
 * "\r" before it is dropped by lineText; a last line without "\n" is a line too. The file is read into one buffer, reused: a stream's
 * fresh chunk per read (1 MB each, freed only when collected) left tens of megabytes resident
 * while a large log was read.
 */
export async function eachLineAt(
  file: string,
  visit: (buffer: Buffer, start: number, end: number, at: number) => void,
): Promise<void> {
  const handle = await open(file, 'r');
  try {
    let buffer: Buffer = Buffer.allocUnsafeSlow(READ_CHUNK);
    // buffer[0, filled) holds the file from byte `bufferAt` on; lines before `start` are told.
    let filled = 0;
    let bufferAt = 0;
    let lines = 0;
    for (;;) {
      if (filled === buffer.length) {
        // A full buffer holds one unfinished line: bounded before it grows again.
        refuseLongLogLine(file, lines + 1, filled);
        buffer = grown(buffer, filled);
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      let start = 0;
      const end = filled + bytesRead;
      for (
        let nl = buffer.indexOf(0x0a, filled);
        nl >= 0 && nl < end;
        nl = buffer.indexOf(0x0a, start)
      ) {
        visit(buffer, start, nl, bufferAt + start);
        start = nl + 1;
        lines++;
      }
      // The unfinished line moves to the front; the next read continues it.
      buffer.copy(buffer, 0, start, end);
      filled = end - start;
      bufferAt += start;
    }
    if (filled > 0) visit(buffer, 0, filled, bufferAt);
  } finally {
    await handle.close();
  }
}

const READ_CHUNK = 1 << 20;

/** A line longer than the buffer: the buffer doubles, keeping what it holds. */
function grown(buffer: Buffer, filled: number): Buffer {
  const larger = Buffer.allocUnsafeSlow(buffer.length * 2);
  buffer.copy(larger, 0, 0, filled);
  return larger;
}

/**
 * The line that starts at byte `at` of an open file, without its newline; `held.buffer` is
 * reused and grows until the line fits.
 */
export function lineAt(fd: number, at: number, held: { buffer: Buffer }): string {
  for (;;) {
    const size = readSync(fd, held.buffer, 0, held.buffer.length, at);
    const end = held.buffer.indexOf(0x0a);
    if ((end >= 0 && end < size) || size < held.buffer.length) {
      return lineText(held.buffer, 0, end >= 0 && end < size ? end : size);
    }
    held.buffer = Buffer.alloc(held.buffer.length * 4);
  }
}

export function lineText(buffer: Buffer, start: number, end: number): string {
  const last = end > start && buffer[end - 1] === 0x0d ? end - 1 : end;
  return buffer.toString('utf8', start, last);
}

/** Parses one log's text; `name` is used in messages. Records are not reduced here. */
export function parseSampleLog(text: string, name: string): SampleLogContents {
  const reader = new LineReader(name);
  const records: SampleRecord[] = [];
  const runs: RunInfoRecord[] = [];
  const sink: LineSink = { record: (r) => records.push(r), run: (r) => runs.push(r) };
  const lines = text.split('\n');
  const endsComplete = text.endsWith('\n');
  lines.forEach((line, index) => {
    const last = index === lines.length - 1;
    if (last && endsComplete) return;
    reader.add(line, last && !endsComplete, sink);
  });
  return { records, runs, warnings: reader.warnings };
}

class LineReader {
  private lineNumber = 0;
  private seenRecord = false;
  readonly warnings: string[] = [];

  constructor(private readonly name: string) {}

  add(line: string, cutShort: boolean, sink: LineSink, offset = 0): void {
    this.lineNumber++;
    if (line.trim() === '') return;
    const at = `${this.name}:${this.lineNumber}`;
    const value = this.parse(line);
    if (value === undefined) {
      if (cutShort && startsLikeRecord(line)) {
        this.warnings.push(
          `${at}: skipped an incomplete last line (a run was interrupted while writing it)`,
        );
        return;
      }
      if (!this.seenRecord) {
        throw new InputError(`${at}: not a sample log (its first line is not a JSON record)`, [
          'give the samples.jsonl file a run wrote',
        ]);
      }
      throw new InputError(`${at}: not a JSON record`, [
        'each line of a sample log is one JSON object; was the file edited or concatenated by hand?',
      ]);
    }
    refuseDeepRecord(value, at);
    const read = readRecord(value);
    if ('problem' in read) throw new InputError(`${at}: ${read.problem}`);
    this.seenRecord = true;
    const record: LogLine = read.record;
    if (isRunInfo(record)) sink.run(record, line, offset);
    else sink.record(record, line, offset);
  }

  private parse(line: string): unknown {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return undefined;
    }
  }
}

export async function endsWithNewline(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

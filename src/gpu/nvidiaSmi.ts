/**
 * nvidia-smi's CSV, as driver 580 writes it with `--format=csv,noheader,nounits`: one line per
 * GPU (or per compute process), values separated by ", ", no units, "[N/A]" (or "[Not
 * Supported]") where the device has no value. Pure parsing; the sampler runs the command.
 */

/** Fields of one periodic sample, in the order asked (the same order as `-lms` loops use). */
export const SAMPLE_FIELDS = [
  'index',
  'memory.used',
  'utilization.gpu',
  'temperature.gpu',
  'power.draw',
] as const;
/** Fields asked once, to say which GPU the run had. */
export const DEVICE_FIELDS = ['index', 'uuid', 'name', 'driver_version', 'memory.total'] as const;
/** Compute processes on the GPU: the header comes back as `used_gpu_memory [MiB]`. */
export const APP_FIELDS = ['pid', 'process_name', 'used_memory'] as const;

export interface GpuSample {
  index: number;
  /** MiB. */
  memoryUsed: number | null;
  /** Percent of time a kernel ran during the last sample period. */
  utilization: number | null;
  /** °C. */
  temperature: number | null;
  /** W. */
  power: number | null;
}

export interface GpuDevice {
  index: number;
  uuid: string;
  name: string;
  driver: string;
  /** MiB. */
  memoryTotal: number | null;
}

export interface ComputeApp {
  pid: number;
  name: string;
  /** MiB. */
  usedMemory: number | null;
}

/** A line nvidia-smi wrote that does not have the asked fields. */
export class NvidiaSmiFormatError extends Error {}

/** The lines' values; `width` of them on each line, or at least `width` when not `exact`. */
function rows(text: string, width: number, what: string, exact = true): string[][] {
  const out: string[][] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const cells = line.split(',').map((c) => c.trim());
    if (exact ? cells.length !== width : cells.length < width) {
      throw new NvidiaSmiFormatError(
        `expected ${exact ? '' : 'at least '}${width} values per line of ${what}, got ${cells.length}: ${line.slice(0, 120)}`,
      );
    }
    out.push(cells);
  }
  return out;
}

function value(cell: string): number | null {
  if (cell.startsWith('[') || cell === '') return null; // [N/A], [Not Supported]
  const n = Number(cell);
  if (!Number.isFinite(n)) throw new NvidiaSmiFormatError(`not a number: ${cell}`);
  return n;
}

function integer(cell: string, what: string): number {
  const n = Number(cell);
  if (!Number.isInteger(n)) throw new NvidiaSmiFormatError(`${what} is not an integer: ${cell}`);
  return n;
}

export function parseSamples(text: string): GpuSample[] {
  return rows(text, SAMPLE_FIELDS.length, 'the GPU query').map(
    ([index, memory, utilization, temperature, power]) => ({
      index: integer(index ?? '', 'the GPU index'),
      memoryUsed: value(memory ?? ''),
      utilization: value(utilization ?? ''),
      temperature: value(temperature ?? ''),
      power: value(power ?? ''),
    }),
  );
}

export function parseDevices(text: string): GpuDevice[] {
  return rows(text, DEVICE_FIELDS.length, 'the device query').map(
    ([index, uuid, name, driver, memoryTotal]) => ({
      index: integer(index ?? '', 'the GPU index'),
      uuid: uuid ?? '',
      name: name ?? '',
      driver: driver ?? '',
      memoryTotal: value(memoryTotal ?? ''),
    }),
  );
}

/** A process name may itself hold ", ": the pid is first and the memory last. */
export function parseComputeApps(text: string): ComputeApp[] {
  return rows(text, APP_FIELDS.length, 'the process query (pid, name, memory)', false).map(
    (cells) => ({
      pid: integer(cells[0] ?? '', 'the process id'),
      name: cells.slice(1, -1).join(', '),
      usedMemory: value(cells.at(-1) ?? ''),
    }),
  );
}

/** The arguments of each query, exactly as run. */
export const QUERY_ARGS = {
  devices: [`--query-gpu=${DEVICE_FIELDS.join(',')}`, '--format=csv,noheader,nounits'],
  samples: [`--query-gpu=${SAMPLE_FIELDS.join(',')}`, '--format=csv,noheader,nounits'],
  apps: [`--query-compute-apps=${APP_FIELDS.join(',')}`, '--format=csv,noheader,nounits'],
} as const;

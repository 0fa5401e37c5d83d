import type { GpuTelemetry } from '../gpu/telemetry.js';
import type { SeriesHygiene } from '../providers/types.js';

/** How the runner ran: the server's state before each series, and the GPU during it. */
export interface RunOperations {
  /** runner.unload-others as configured. */
  unloadOthers: boolean;
  /** Ollama does not report its parallel slots (OLLAMA_NUM_PARALLEL); the runner's setting. */
  concurrency: number;
  series: SeriesHygiene[];
  gpu: GpuTelemetry;
}

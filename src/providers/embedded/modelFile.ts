/**
 * A model reference for the embedded provider — a path to a `.gguf` file or an Ollama tag —
 * resolved to a file, and what that file says about itself. Nothing here is guessed from the
 * name: digest, quantization, parameter count and architecture come from the file.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { resolveConfigPath } from '../../config/load.js';
import type { ModelMetadata } from '../types.js';
import { ProviderFailure } from '../types.js';
import { loadEngine } from './engine.js';
import { resolveOllamaTag } from './ollamaStore.js';
import { errorMessage } from '../../text/format.js';

export interface ModelFile {
  /** The reference as configured (the `model` of requests and records). */
  reference: string;
  path: string;
  source: 'file' | 'ollama-store';
  /** SHA-256 of the file (64 hex) when already known without reading it (Ollama blobs). */
  knownDigest: string | null;
}

/**
 * A reference is a file when it names one: ends in .gguf, or is a path that exists (read
 * from `baseDir`, the config file's folder, like every other path of the config).
 */
export function looksLikeFile(reference: string, baseDir: string = process.cwd()): boolean {
  return (
    reference.toLowerCase().endsWith('.gguf') ||
    reference.startsWith('.') ||
    isAbsolute(reference) ||
    (reference.includes('/') && existsSync(resolveConfigPath({ baseDir }, reference)))
  );
}

export function resolveModelFile(reference: string, storeRoot: string, baseDir: string): ModelFile {
  if (looksLikeFile(reference, baseDir)) {
    const path = resolveConfigPath({ baseDir }, reference);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new ProviderFailure('model-missing', `model file ${path} does not exist`);
    }
    return { reference, path, source: 'file', knownDigest: null };
  }
  const found = resolveOllamaTag(reference, storeRoot);
  return { reference, path: found.path, source: 'ollama-store', knownDigest: found.digest };
}

const digestCache = new Map<string, Promise<string>>();

/** SHA-256 of the file, streamed; cached per path, size and modification time. */
export function fileDigest(path: string): Promise<string> {
  const stat = statSync(path);
  const key = `${path}\u0000${stat.size}\u0000${stat.mtimeMs}`;
  let digest = digestCache.get(key);
  if (!digest) {
    digest = new Promise<string>((resolvePromise, reject) => {
      const hash = createHash('sha256');
      createReadStream(path)
        .on('data', (chunk) => hash.update(chunk))
        .on('error', reject)
        .on('end', () => resolvePromise(hash.digest('hex')));
    });
    digestCache.set(key, digest);
  }
  return digest;
}

/**
 * The GGUF file-type number as a quantization name in Ollama's spelling (`Q4_K_M`, `F16`):
 * node-llama-cpp's names without their `MOSTLY_`/`ALL_` prefix.
 */
export function quantizationName(
  fileType: number | undefined,
  names: Record<number, string>,
): string | null {
  if (fileType === undefined) return null;
  const name = names[fileType];
  return name ? name.replace(/^(MOSTLY|ALL)_/, '') : null;
}

/** Parameter count in the short form Ollama uses (`7.6B`, `494.03M`, `109.50K`). */
export function formatParameterCount(count: number): string {
  if (count >= 1e9) return `${(count / 1e9).toFixed(1)}B`;
  if (count >= 1e6) return `${(count / 1e6).toFixed(2)}M`;
  if (count >= 1e3) return `${(count / 1e3).toFixed(2)}K`;
  return String(count);
}

export interface GgufFacts {
  architecture: string | null;
  fileType: number | undefined;
  parameterCount: number;
}

/** Reads the header facts of a GGUF file (not its weights). */
export async function readGgufFacts(path: string): Promise<GgufFacts> {
  const { readGgufFileInfo } = await loadEngine();
  let info: Awaited<ReturnType<typeof readGgufFileInfo>>;
  try {
    info = await readGgufFileInfo(path, {
      readTensorInfo: true,
      logWarnings: false,
      sourceType: 'filesystem',
    });
  } catch (error) {
    throw new ProviderFailure(
      'bad-request',
      `${path} is not a readable GGUF file: ${errorMessage(error)}`,
    );
  }
  let parameterCount = 0;
  for (const tensor of info.fullTensorInfo ?? info.tensorInfo ?? []) {
    parameterCount += tensor.dimensions.reduce<number>((product, d) => product * Number(d), 1);
  }
  const general = info.metadata?.general;
  return {
    architecture: typeof general?.architecture === 'string' ? general.architecture : null,
    fileType: typeof general?.file_type === 'number' ? general.file_type : undefined,
    parameterCount,
  };
}

export async function describeModelFile(file: ModelFile): Promise<ModelMetadata> {
  const [{ GgufFileType }, facts, digest] = await Promise.all([
    loadEngine(),
    readGgufFacts(file.path),
    file.knownDigest ? Promise.resolve(file.knownDigest) : fileDigest(file.path),
  ]);
  const names: Record<number, string> = {};
  for (const [name, value] of Object.entries(GgufFileType)) {
    if (typeof value === 'number') names[value] = name;
  }
  return {
    model: file.reference,
    digest,
    quantization: quantizationName(facts.fileType, names),
    parameterSize: facts.parameterCount > 0 ? formatParameterCount(facts.parameterCount) : null,
    family: facts.architecture,
    simulated: false,
  };
}

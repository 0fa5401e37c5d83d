/**
 * node-llama-cpp is an optional peer dependency: the published package carries no native
 * engine (hundreds of MB with its GPU builds), and only the embedded provider needs one. Every
 * import of it goes through here, so a missing engine always gives the same message with the
 * install line, never a module-resolution stack trace.
 */
import { InputError } from '../../errors.js';

/** The node-llama-cpp version model-gate is built and tested against (package.json pins it). */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';

export type NodeLlamaCpp = typeof import('node-llama-cpp');

/** The error a user sees when `provider.kind: embedded` runs without node-llama-cpp. */
export function engineMissingError(): InputError {
  return new InputError(
    'provider.kind: embedded needs node-llama-cpp, which is not installed beside model-gate',
    [
      `install it where model-gate is installed: npm i node-llama-cpp@${NODE_LLAMA_CPP_VERSION} (add -g when model-gate is installed with -g)`,
      'to keep the install small and skip its GPU builds, see "Installation and size" in docs/embedded.md',
    ],
  );
}

/** True when `error` says that node-llama-cpp itself could not be found (not one of its files). */
export function isEngineMissing(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return typeof message === 'string' && /['"]node-llama-cpp['"]/.test(message);
}

/** Imports node-llama-cpp, or throws the install message (exit 2) when it is absent. */
export async function loadEngine(
  importer: () => Promise<NodeLlamaCpp> = () => import('node-llama-cpp'),
): Promise<NodeLlamaCpp> {
  try {
    return await importer();
  } catch (error) {
    if (isEngineMissing(error)) throw engineMissingError();
    throw error;
  }
}

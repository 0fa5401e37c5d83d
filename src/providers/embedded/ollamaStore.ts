/**
 * Finds the GGUF file behind an Ollama tag in the local Ollama store, without the server:
 * a runner that has pulled `qwen2.5:7b` can run it in-process.
 *
 * Store layout (Ollama ≥ 0.1): `<root>/manifests/<registry>/<namespace>/<model>/<tag>` is a
 * JSON manifest whose `layers` list one entry with mediaType
 * `application/vnd.ollama.image.model` and a digest `sha256:<hex>`; the weights are the blob
 * `<root>/blobs/sha256-<hex>`. The root is `OLLAMA_MODELS`, or `~/.ollama/models`.
 * Blobs are content-addressed: the hex in the name is the SHA-256 of the file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { nearTags, servedTags } from '../modelTag.js';
import { ProviderFailure } from '../types.js';
import { errorMessage } from '../../text/format.js';

export const MODEL_LAYER_MEDIA_TYPE = 'application/vnd.ollama.image.model';
const DEFAULT_REGISTRY = 'registry.ollama.ai';
const DEFAULT_NAMESPACE = 'library';

export interface OllamaStoreModel {
  /** The tag as the user wrote it, normalised (`x` → `x:latest`). */
  tag: string;
  path: string;
  /** SHA-256 of the weights (64 hex), from the blob's content address. */
  digest: string;
  manifestPath: string;
}

export function ollamaStoreRoot(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env['OLLAMA_MODELS']?.trim();
  return configured ? configured : join(homedir(), '.ollama', 'models');
}

interface TagParts {
  registry: string;
  namespace: string;
  model: string;
  tag: string;
}

/** `qwen2.5` → library/qwen2.5:latest; `me/model:q4` → me/model:q4; `host/ns/model:t`. */
export function parseOllamaTag(reference: string): TagParts {
  const trimmed = reference.trim();
  const lastSlash = trimmed.lastIndexOf('/');
  const colon = trimmed.indexOf(':', lastSlash + 1);
  const name = colon === -1 ? trimmed : trimmed.slice(0, colon);
  const tag = colon === -1 ? 'latest' : trimmed.slice(colon + 1);
  const segments = name.split('/');
  const valid = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
  if (
    segments.length > 3 ||
    !segments.every((s) => valid.test(s)) ||
    !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(tag)
  ) {
    throw new ProviderFailure(
      'bad-request',
      `"${reference}" is neither a .gguf file nor an Ollama tag such as qwen2.5:7b`,
    );
  }
  const model = segments[segments.length - 1] as string;
  const namespace =
    segments.length >= 2 ? (segments[segments.length - 2] as string) : DEFAULT_NAMESPACE;
  const registry = segments.length === 3 ? (segments[0] as string) : DEFAULT_REGISTRY;
  return { registry, namespace, model, tag };
}

/** A tag as a user writes it: without the default registry and namespace. */
function shownTag(parts: TagParts): string {
  if (parts.registry === DEFAULT_REGISTRY && parts.namespace === DEFAULT_NAMESPACE)
    return `${parts.model}:${parts.tag}`;
  const registry = parts.registry === DEFAULT_REGISTRY ? '' : `${parts.registry}/`;
  return `${registry}${parts.namespace}/${parts.model}:${parts.tag}`;
}

function modelLayerDigest(manifestPath: string, tag: string): string {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch (error) {
    throw new ProviderFailure(
      'model-missing',
      `the Ollama manifest of ${tag} (${manifestPath}) is not readable JSON: ${errorMessage(error)}`,
    );
  }
  const layers =
    typeof manifest === 'object' && manifest !== null && 'layers' in manifest
      ? (manifest as { layers: unknown }).layers
      : null;
  if (Array.isArray(layers)) {
    for (const layer of layers) {
      if (
        typeof layer === 'object' &&
        layer !== null &&
        (layer as { mediaType?: unknown }).mediaType === MODEL_LAYER_MEDIA_TYPE
      ) {
        const digest = (layer as { digest?: unknown }).digest;
        if (typeof digest === 'string' && /^sha256:[0-9a-f]{64}$/.test(digest)) {
          return digest.slice('sha256:'.length);
        }
      }
    }
  }
  throw new ProviderFailure(
    'model-missing',
    `the Ollama manifest of ${tag} (${manifestPath}) has no ${MODEL_LAYER_MEDIA_TYPE} layer with a sha256 digest`,
  );
}

/** Resolves a tag to its weights file. Throws ProviderFailure('model-missing') with the pull command. */
export function resolveOllamaTag(reference: string, root: string): OllamaStoreModel {
  const parts = parseOllamaTag(reference);
  const shown = shownTag(parts);
  const manifestPath = join(
    root,
    'manifests',
    parts.registry,
    parts.namespace,
    parts.model,
    parts.tag,
  );
  if (!existsSync(manifestPath)) {
    const stored = storeTags(root);
    const near = nearTags(shown, stored)[0];
    const what =
      near === undefined
        ? `run \`ollama pull ${shown}\` on this runner, or point OLLAMA_MODELS at the store`
        : `did you mean ${near}?`;
    throw new ProviderFailure(
      'model-missing',
      `model '${shown}' is not in the Ollama store at ${root} (no ${manifestPath}); ${what} (${servedTags(shown, stored, 'the store')})`,
      null,
      stored,
    );
  }
  const digest = modelLayerDigest(manifestPath, shown);
  const path = join(root, 'blobs', `sha256-${digest}`);
  if (!existsSync(path)) {
    throw new ProviderFailure(
      'model-missing',
      `the Ollama store lists ${shown} but its weights blob ${path} is missing; run \`ollama pull ${shown}\` again`,
    );
  }
  return { tag: shown, path, digest, manifestPath };
}

/** Most manifests read when listing the store: enough for any runner's store, bounded. */
const MAX_LISTED = 1000;

/** The tags the store holds, as a user writes them (`qwen2.5:7b`, `me/model:q4`). */
export function storeTags(root: string): string[] {
  const tags: string[] = [];
  const within = (dir: string): string[] => {
    try {
      return readdirSync(dir).slice(0, MAX_LISTED);
    } catch {
      return [];
    }
  };
  const manifests = join(root, 'manifests');
  for (const registry of within(manifests)) {
    for (const namespace of within(join(manifests, registry))) {
      for (const model of within(join(manifests, registry, namespace))) {
        for (const tag of within(join(manifests, registry, namespace, model))) {
          if (tags.length >= MAX_LISTED) return tags;
          tags.push(shownTag({ registry, namespace, model, tag }));
        }
      }
    }
  }
  return tags;
}

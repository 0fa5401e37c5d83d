/**
 * Writes a tiny llama-architecture GGUF file with seeded random weights, so that tests run a
 * real llama.cpp engine without downloading a model. The model knows nothing; it only has to
 * be a valid model whose outputs are a deterministic function of the seed.
 *
 * Layout (GGUF version 3, little-endian; written from the format specification):
 *   magic "GGUF", version u32, tensor count u64, metadata count u64,
 *   metadata pairs (key string, value type u32, value),
 *   tensor infos (name string, n_dims u32, dims u64[], ggml type u32, data offset u64),
 *   zero padding to the alignment, then the tensor data, each tensor starting on a multiple
 *   of the alignment. A string is a u64 byte length followed by UTF-8 bytes, no terminator.
 *
 * Vocabulary: SentencePiece style ("llama" tokenizer model): <unk>, <s>, </s>, the two ChatML
 * markers, the 256 byte tokens <0x00>…<0xFF> (byte fallback, so any text can be encoded),
 * every printable ASCII character, and the pieces of the JSON answers the checks ask for.
 */
import { writeFileSync } from 'node:fs';
import { createRng } from '../../src/stats/prng.js';

export interface TinyModelShape {
  /** Hidden width (n_embd). */
  width: number;
  layers: number;
  heads: number;
  feedForward: number;
  contextLength: number;
}

export const TINY_SHAPE: TinyModelShape = {
  width: 64,
  layers: 2,
  heads: 4,
  feedForward: 128,
  contextLength: 4096,
};

const ALIGNMENT = 32;

/** GGUF metadata value types (the subset written here). */
const ValueType = {
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
} as const;

/** ggml tensor type of 32-bit floats. */
const GGML_TYPE_F32 = 0;
/** general.file_type value "all F32". */
const FILE_TYPE_ALL_F32 = 0;

/** SentencePiece token kinds as llama.cpp numbers them. */
const TokenKind = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;

/** The SentencePiece word-boundary marker (U+2581) that stands for a space. */
const SPACE = '\u2581';

/** ChatML: a common, well-known chat format that node-llama-cpp recognises from the template. */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** Words whose pieces make JSON answers of the three checks cheap to produce. */
const ANSWER_WORDS = [
  '{"',
  '":',
  '"}',
  '",',
  'answer',
  'move',
  'confidence',
  'up',
  'down',
  'left',
  'right',
  'pass',
  '0.',
  '1.',
];
/** A few English words with a leading space marker, so free text has whole-word tokens. */
const PROSE_WORDS = ['the', 'and', 'you', 'your', 'text', 'write', 'story', 'reader', 'idea'];

interface Token {
  piece: string;
  score: number;
  kind: number;
}

function vocabulary(): Token[] {
  const tokens: Token[] = [
    { piece: '<unk>', score: 0, kind: TokenKind.unknown },
    { piece: '<s>', score: 0, kind: TokenKind.control },
    { piece: '</s>', score: 0, kind: TokenKind.control },
    { piece: '<|im_start|>', score: 0, kind: TokenKind.control },
    { piece: '<|im_end|>', score: 0, kind: TokenKind.control },
  ];
  for (let byte = 0; byte < 256; byte++) {
    const hex = byte.toString(16).toUpperCase().padStart(2, '0');
    tokens.push({ piece: `<0x${hex}>`, score: 0, kind: TokenKind.byte });
  }
  const seen = new Set(tokens.map((t) => t.piece));
  const add = (piece: string): void => {
    if (seen.has(piece)) return;
    seen.add(piece);
    // The SentencePiece merge order prefers higher scores: longer pieces win over their parts.
    tokens.push({
      piece,
      score: -100 + piece.length - tokens.length / 1000,
      kind: TokenKind.normal,
    });
  };
  add(SPACE);
  for (let code = 33; code < 127; code++) add(String.fromCharCode(code));
  // Every prefix is a token too: SentencePiece only merges two adjacent pieces whose
  // concatenation is itself in the vocabulary.
  const words = [...ANSWER_WORDS, ...PROSE_WORDS.map((w) => SPACE + w)];
  for (const word of words) {
    const chars = [...word];
    for (let end = 2; end <= chars.length; end++) add(chars.slice(0, end).join(''));
  }
  return tokens;
}

/** Appends little-endian values to a growing byte list. */
class ByteWriter {
  private chunks: Buffer[] = [];
  private length = 0;

  get size(): number {
    return this.length;
  }

  private push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }

  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }

  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }

  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }

  bool(value: boolean): void {
    this.push(Buffer.from([value ? 1 : 0]));
  }

  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }

  bytes(value: Buffer): void {
    this.push(value);
  }

  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad > 0) this.push(Buffer.alloc(pad));
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

type MetadataValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'strings'; value: string[] }
  | { type: 'f32s'; value: number[] }
  | { type: 'i32s'; value: number[] };

function writeMetadata(out: ByteWriter, key: string, entry: MetadataValue): void {
  out.string(key);
  switch (entry.type) {
    case 'u32':
      out.u32(ValueType.uint32);
      out.u32(entry.value);
      return;
    case 'f32':
      out.u32(ValueType.float32);
      out.f32(entry.value);
      return;
    case 'bool':
      out.u32(ValueType.bool);
      out.bool(entry.value);
      return;
    case 'string':
      out.u32(ValueType.string);
      out.string(entry.value);
      return;
    case 'strings':
      out.u32(ValueType.array);
      out.u32(ValueType.string);
      out.u64(entry.value.length);
      for (const s of entry.value) out.string(s);
      return;
    case 'f32s':
      out.u32(ValueType.array);
      out.u32(ValueType.float32);
      out.u64(entry.value.length);
      for (const v of entry.value) out.f32(v);
      return;
    case 'i32s':
      out.u32(ValueType.array);
      out.u32(ValueType.int32);
      out.u64(entry.value.length);
      for (const v of entry.value) out.i32(v);
      return;
  }
}

interface Tensor {
  name: string;
  /** ggml order: dims[0] is the fastest-varying (row length). */
  dims: number[];
  data: Float32Array;
}

/** Standard normal draws from the seeded generator (Box–Muller). */
function gaussian(rng: ReturnType<typeof createRng>): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function tensors(shape: TinyModelShape, vocabSize: number, seed: number): Tensor[] {
  const rng = createRng(seed);
  const random = (dims: number[], scale: number): Float32Array => {
    const count = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(count);
    for (let i = 0; i < count; i++) data[i] = gaussian(rng) * scale;
    return data;
  };
  const ones = (n: number): Float32Array => new Float32Array(n).fill(1);
  const { width, feedForward } = shape;
  // Embedding scale chosen so that logits over the vocabulary spread over a few units:
  // confident on some tokens, unsure on others, which is what the tests need to see.
  const list: Tensor[] = [
    { name: 'token_embd.weight', dims: [width, vocabSize], data: random([width, vocabSize], 0.3) },
    { name: 'output_norm.weight', dims: [width], data: ones(width) },
  ];
  const layerScale = 1 / Math.sqrt(width);
  for (let layer = 0; layer < shape.layers; layer++) {
    const p = `blk.${layer}.`;
    list.push(
      { name: `${p}attn_norm.weight`, dims: [width], data: ones(width) },
      { name: `${p}attn_q.weight`, dims: [width, width], data: random([width, width], layerScale) },
      { name: `${p}attn_k.weight`, dims: [width, width], data: random([width, width], layerScale) },
      { name: `${p}attn_v.weight`, dims: [width, width], data: random([width, width], layerScale) },
      {
        name: `${p}attn_output.weight`,
        dims: [width, width],
        data: random([width, width], layerScale),
      },
      { name: `${p}ffn_norm.weight`, dims: [width], data: ones(width) },
      {
        name: `${p}ffn_gate.weight`,
        dims: [width, feedForward],
        data: random([width, feedForward], layerScale),
      },
      {
        name: `${p}ffn_up.weight`,
        dims: [width, feedForward],
        data: random([width, feedForward], layerScale),
      },
      {
        name: `${p}ffn_down.weight`,
        dims: [feedForward, width],
        data: random([feedForward, width], 1 / Math.sqrt(feedForward)),
      },
    );
  }
  return list;
}

export interface TinyGgufOptions {
  seed?: number;
  shape?: TinyModelShape;
  name?: string;
}

/** The bytes of a tiny model. Same seed, same bytes. */
export function buildTinyGguf(options: TinyGgufOptions = {}): Buffer {
  const seed = options.seed ?? 1;
  const shape = options.shape ?? TINY_SHAPE;
  const vocab = vocabulary();
  const pieces = vocab.map((t) => t.piece);
  const id = (piece: string): number => pieces.indexOf(piece);
  const headDim = shape.width / shape.heads;
  const metadata: [string, MetadataValue][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: options.name ?? `tiny-random-${seed}` }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['general.file_type', { type: 'u32', value: FILE_TYPE_ALL_F32 }],
    ['llama.context_length', { type: 'u32', value: shape.contextLength }],
    ['llama.embedding_length', { type: 'u32', value: shape.width }],
    ['llama.block_count', { type: 'u32', value: shape.layers }],
    ['llama.feed_forward_length', { type: 'u32', value: shape.feedForward }],
    ['llama.attention.head_count', { type: 'u32', value: shape.heads }],
    ['llama.attention.head_count_kv', { type: 'u32', value: shape.heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.rope.dimension_count', { type: 'u32', value: headDim }],
    ['llama.rope.freq_base', { type: 'f32', value: 10000 }],
    ['llama.vocab_size', { type: 'u32', value: vocab.length }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'strings', value: pieces }],
    ['tokenizer.ggml.scores', { type: 'f32s', value: vocab.map((t) => t.score) }],
    ['tokenizer.ggml.token_type', { type: 'i32s', value: vocab.map((t) => t.kind) }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: id('<unk>') }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: id('<s>') }],
    // The end of a ChatML turn ends generation, as in models that use this format.
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: id('<|im_end|>') }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: false }],
    ['tokenizer.ggml.add_space_prefix', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'string', value: CHATML_TEMPLATE }],
  ];
  const list = tensors(shape, vocab.length, seed);

  const out = new ByteWriter();
  out.bytes(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(list.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) writeMetadata(out, key, value);
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of list) {
    offsets.push(offset);
    offset += tensor.data.byteLength;
    offset += (ALIGNMENT - (offset % ALIGNMENT)) % ALIGNMENT;
  }
  list.forEach((tensor, index) => {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const d of tensor.dims) out.u64(d);
    out.u32(GGML_TYPE_F32);
    out.u64(offsets[index] as number);
  });
  out.padTo(ALIGNMENT);
  for (const tensor of list) {
    out.bytes(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.padTo(ALIGNMENT);
  }
  return out.toBuffer();
}

/** Writes the model to `path` and returns the path. */
export function writeTinyGguf(path: string, options: TinyGgufOptions = {}): string {
  writeFileSync(path, buildTinyGguf(options));
  return path;
}

/** Number of weights in a model of this shape (what a reader should report). */
export function tinyParameterCount(shape: TinyModelShape = TINY_SHAPE): number {
  const vocabSize = vocabulary().length;
  const { width, feedForward, layers } = shape;
  const perLayer = 2 * width + 4 * width * width + 3 * width * feedForward;
  return vocabSize * width + width + layers * perLayer;
}

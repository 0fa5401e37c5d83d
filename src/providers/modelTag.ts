/** Ollama names an untagged model "x:latest": the name a server lists it under. */
export function withTag(model: string): string {
  return model.includes(':') ? model : `${model}:latest`;
}

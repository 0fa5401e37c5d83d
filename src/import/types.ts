/**
 * An importer turns a suite of another tool into open items (docs/items.md): one file per
 * format in this folder, listed in index.ts. It knows the foreign format and the items file's
 * fields; whether an item is valid is the check's to say (`ReadOptions.check`).
 */

export interface ReadOptions {
  /** The file's name in messages, as the user wrote it. */
  name: string;
  /** An item's problems as the check reads it, relative to `dir` (none: the item is kept). */
  check(item: Readonly<Record<string, unknown>>, dir: string): string[];
  /**
   * Where the items file will be (its folder holds the files an import writes beside it, and
   * paths in items are relative to it); null: printed, nowhere to write files beside it.
   */
  itemsFile: string | null;
  /** Writes a file an import makes beside the items file (a grader module). */
  write(file: string, text: string): void;
}

export interface ImportedItems {
  /** The items, each as an items file writes it (`id` first). */
  items: Record<string, unknown>[];
  /** One line per thing left out, or converted with a difference. */
  warnings: string[];
  /** Lines shown on standard error after the warnings (a closing table); not in the file. */
  summary?: string[];
}

export interface Importer {
  /** The name under `model-gate import`. */
  format: string;
  /** What the command does, for its help. */
  description: string;
  /** A command line shown under "Example:". */
  example: string;
  /** What the items file's header says of the conversion, one comment line each. */
  header: readonly string[];
  /** Whether the file looks like a suite of this format (its name or its first keys). */
  detect(file: string): boolean;
  /** The items of the suite; bad input (nothing convertible, an unreadable file): InputError. */
  read(file: string, options: ReadOptions): ImportedItems;
}

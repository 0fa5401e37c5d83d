import type { ArtifactUploader } from '../../src/github/artifacts.js';

/** Records what would be zipped, as @actions/artifact would see it. */
export class FakeUploader implements ArtifactUploader {
  readonly uploads: { name: string; files: string[]; rootDirectory: string }[] = [];
  constructor(private readonly id: number | null = 4242) {}
  async upload(name: string, files: readonly string[], rootDirectory: string) {
    for (const file of files) {
      // The real client refuses a file outside the root directory.
      if (!file.startsWith(rootDirectory)) throw new Error(`${file} is not under ${rootDirectory}`);
    }
    this.uploads.push({ name, files: [...files], rootDirectory });
    return { id: this.id, size: 1234 };
  }
}

/**
 * Run in a separate process by provider.test.ts: answers fixed requests and prints them as
 * JSON, so the test can compare two processes that share nothing but the model file.
 */
import { EmbeddedProvider } from '../../../src/providers/embedded/provider.js';
import { childRequests } from './requests.js';

const model = process.argv[2] as string;
const provider = new EmbeddedProvider({
  timeoutMs: 60_000,
  threads: 1,
  ollamaStore: '/nonexistent',
  baseDir: process.cwd(),
});
const answers: string[] = [];
for (const request of childRequests(model)) {
  answers.push((await provider.chat(request)).content);
}
await provider.close();
process.stdout.write(JSON.stringify(answers));

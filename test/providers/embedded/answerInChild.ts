/**
 * Run in a separate process by provider.test.ts: answers fixed requests and prints them as
 * JSON, so the test can compare two processes that share nothing but the model file.
 */
import { EmbeddedProvider } from '../../../src/providers/embedded/provider.js';
import { letterRequest, moveRequest, personaRequest } from './requests.js';

const model = process.argv[2] as string;
const provider = new EmbeddedProvider({
  timeoutMs: 60_000,
  threads: 1,
  ollamaStore: '/nonexistent',
  baseDir: process.cwd(),
});
const answers: string[] = [];
for (const request of [
  letterRequest(model, 0, 42),
  moveRequest(model, 0, 42, 1),
  moveRequest(model, 0.7, 9, 2),
  personaRequest(model, 0, 7),
]) {
  answers.push((await provider.chat(request)).content);
}
await provider.close();
process.stdout.write(JSON.stringify(answers));

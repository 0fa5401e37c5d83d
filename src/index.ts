// Before anything else runs: see favourMemory.ts.
import './favourMemory.js';
import { run } from './main.js';

await run();

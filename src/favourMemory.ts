/**
 * Imported first by both entry points, before any other module runs: the engine favours
 * memory from the first allocation on (see engineMode.ts for why and what it costs).
 */
import { favourMemory } from './engineMode.js';

favourMemory();

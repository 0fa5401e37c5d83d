/**
 * Prints report.html's script, bundled (src/report/html/pageScript.ts): scripts/bundle.mjs
 * builds it this way so the published bundle and a run from source embed the same script.
 */
import { buildPageScript } from '../src/report/html/pageScript.js';

process.stdout.write(buildPageScript());

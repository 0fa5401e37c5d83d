// Writes a tiny GGUF model with seeded random weights (the one the tests use), for checks of
// the embedded provider outside the test suite. Usage: npx tsx scripts/tiny-gguf.ts <file> <seed>
import { writeTinyGguf } from '../test/support/tinyGguf.js';

const [file, seed] = process.argv.slice(2);
if (!file || !seed || !/^\d+$/.test(seed)) {
  process.stderr.write('usage: npx tsx scripts/tiny-gguf.ts <file.gguf> <seed>\n');
  process.exit(2);
}
writeTinyGguf(file, { seed: Number(seed) });

// Builds the two committed entry points: the action (dist/index.js) and the CLI (dist/cli.js).
// esbuild: one fast step, no plugin chain, ESM output with a source map.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

// report.html's browser script, built by the same function a run from source uses, and
// carried in the bundle as a string constant.
const pageScript = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/page-script.ts'], {
  encoding: 'utf8',
  maxBuffer: 16 * 1024 * 1024,
});
if (pageScript.status !== 0 || !pageScript.stdout) {
  console.error(`the page script could not be built:\n${pageScript.stderr}`);
  process.exit(1);
}

const shared = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  sourcesContent: false,
  legalComments: 'none',
  // Whitespace and comments out, non-ASCII escaped: the engine keeps a script's source for as
  // long as the process runs, at one byte a character only when every character is ASCII
  // (one other character anywhere doubles it). Names are kept; the source map gives lines.
  minifyWhitespace: true,
  charset: 'ascii',
  logLevel: 'warning',
  define: { MODEL_GATE_PAGE_SCRIPT: JSON.stringify(pageScript.stdout) },
  // Native inference engine: loaded from node_modules on first use (embedded provider only).
  external: ['node-llama-cpp'],
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __mgCreateRequire } from 'node:module'; const require = __mgCreateRequire(import.meta.url);",
  },
};

await build({ ...shared, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
await build({
  ...shared,
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.js',
  banner: { js: `#!/usr/bin/env node\n${shared.banner.js}` },
});

// A character esbuild cannot escape (one inside a regular expression literal) is refused here.
for (const file of ['dist/index.js', 'dist/cli.js']) {
  const text = readFileSync(file, 'utf8');
  let at = 0;
  while (at < text.length && text.charCodeAt(at) <= 0x7f) at++;
  if (at < text.length) {
    const line = text.slice(0, at).split('\n').length;
    console.error(
      `${file}:${line}: a non-ASCII character (${JSON.stringify(text[at])}) in the bundle; write it as a \\u escape in the source`,
    );
    process.exit(1);
  }
}

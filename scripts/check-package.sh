#!/usr/bin/env bash
# Installs the packed tarball as a user would, in an empty folder outside any repository, and
# checks that it runs: the install stays small (no native engine, no dev dependencies), the
# demo gives its two known verdicts, the embedded provider without node-llama-cpp exits 2 with
# the install line, and with node-llama-cpp added it runs two generated tiny GGUF models.
# Needs the repository's dev dependencies (for the tiny models) and the npm registry.
# Usage: scripts/check-package.sh [tarball]   (default: npm pack of the current checkout)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
limit_kb=$((15 * 1024))
engine_version="$(node -p "require('$repo/package.json').peerDependencies['node-llama-cpp']")"

work="$(mktemp -d "${TMPDIR:-/tmp}/model-gate-package-XXXXXX")"
trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'check-package: %s\n' "$*" >&2; exit 1; }

tarball="${1:-}"
if [ -z "$tarball" ]; then
  step "npm pack"
  [ -f "$repo/dist/cli.js" ] || fail "dist/cli.js is missing: run npm run bundle first"
  tarball="$work/$(cd "$repo" && npm pack --silent --pack-destination "$work")"
fi
tarball="$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")"
printf 'tarball: %s (%s KB packed, %s files)\n' "$(basename "$tarball")" \
  "$(( $(wc -c <"$tarball") / 1024 ))" "$(tar -tzf "$tarball" | wc -l)"
if tar -tzf "$tarball" | grep -E '^package/(src|test|bench)/|\.ts$' >/dev/null; then
  fail "the tarball carries sources or tests: $(tar -tzf "$tarball" | grep -E '^package/(src|test|bench)/|\.ts$' | head -3)"
fi

user="$work/user"
mkdir -p "$user"
cd "$user"
step "npm install <tarball> in an empty folder"
npm install --no-audit --no-fund --omit=dev "$tarball" >/dev/null
size_kb="$(du -sk node_modules | cut -f1)"
printf 'node_modules: %s KB (limit %s KB), packages: %s\n' "$size_kb" "$limit_kb" \
  "$(find node_modules -name package.json -not -path '*/node_modules/*/node_modules/*' | wc -l)"
[ "$size_kb" -le "$limit_kb" ] || fail "node_modules is ${size_kb} KB, above ${limit_kb} KB"
[ ! -e node_modules/node-llama-cpp ] || fail "node-llama-cpp was installed although it is an optional peer"

step "npx model-gate --version"
npx --no-install model-gate --version

step "npx model-gate init, then validate the starter project (no server)"
mkdir starter
(cd starter && npx --no-install model-gate init >/dev/null && npx --no-install model-gate validate)
set +e
(cd starter && npx --no-install model-gate init 2>../init-again.err)
code=$?
set -e
[ "$code" -eq 2 ] || fail "a second init exited $code, expected 2 (it must not overwrite)"
grep -F "already exists" init-again.err >/dev/null || fail "a second init did not name the file"

step "npx model-gate demo --scenario aa (identical models: exit 0)"
set +e
npx --no-install model-gate demo --scenario aa --json >aa.json 2>aa.err
code=$?
set -e
[ "$code" -eq 0 ] || { cat aa.err >&2; fail "demo --scenario aa exited $code, expected 0"; }
node -e "const r=require('./aa.json'); if (r.verdict!=='pass') throw new Error('verdict '+r.verdict)"
echo "verdict pass, exit 0"

step "npx model-gate demo (a regression, the expected result: verdict fail, exit 0)"
set +e
npx --no-install model-gate demo --json >demo.json 2>demo.err
code=$?
set -e
[ "$code" -eq 0 ] || { cat demo.err >&2; fail "demo exited $code, expected 0"; }
node -e "const r=require('./demo.json'); if (r.verdict!=='fail') throw new Error('verdict '+r.verdict)"
[ -f model-gate-out/demo/summary.md ] || fail "the demo wrote no summary.md"
echo "verdict fail, exit 0, summary.md written"

step "the embedded provider without node-llama-cpp (exit 2 with the install line)"
(cd "$repo" && npx tsx scripts/tiny-gguf.ts "$user/base.gguf" 17 &&
  npx tsx scripts/tiny-gguf.ts "$user/cand.gguf" 5)
cat >embedded.yml <<'YAML'
provider:
  kind: embedded
  threads: 1
models:
  baseline: ./base.gguf
  candidate: ./cand.gguf
checks: [churn]
runner:
  warmup: false
output:
  dir: embedded-out
churn:
  items: node_modules/model-gate/fixtures/items/general.yml
  samples: 2
  greedy: false
YAML
set +e
npx --no-install model-gate run --config embedded.yml 2>missing.err
code=$?
set -e
cat missing.err
[ "$code" -eq 2 ] || fail "exited $code without node-llama-cpp, expected 2"
grep -F "npm i node-llama-cpp@$engine_version" missing.err >/dev/null || fail "no install line"

step "npm install node-llama-cpp@$engine_version (CPU build only, see docs/embedded.md)"
# The same two settings the repository uses: no GPU/ARM builds, no postinstall download.
node -e "
  const fs = require('fs');
  const p = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  const riscv = 'npm:@node-llama-cpp/linux-riscv64@$engine_version';
  p.overrides = { 'node-llama-cpp': Object.fromEntries(
    ['linux-x64-cuda', 'linux-x64-cuda-ext', 'linux-x64-vulkan', 'linux-arm64', 'linux-armv7l']
      .map((b) => ['@node-llama-cpp/' + b, riscv])) };
  p.config = { nodeLlamaCppPostinstall: 'skip' };
  fs.writeFileSync('package.json', JSON.stringify(p, null, 2));
"
npm install --no-audit --no-fund "node-llama-cpp@$engine_version" >/dev/null
printf 'node_modules with node-llama-cpp: %s KB\n' "$(du -sk node_modules | cut -f1)"

step "npx model-gate run with the embedded provider on two tiny GGUF models"
set +e
npx --no-install model-gate run --config embedded.yml --json >embedded.json 2>embedded.err
code=$?
set -e
tail -3 embedded.err
case "$code" in
  0 | 1) ;;
  *) cat embedded.err >&2; fail "the embedded run exited $code, expected a verdict (0 or 1)" ;;
esac
node -e "
  const out = require('./embedded.json');
  const report = require(require('path').resolve(out.files?.report ?? 'embedded-out/report.json'));
  const p = report.run.provider;
  if (p.provider !== 'embedded') throw new Error('provider ' + p.provider);
  console.log('verdict', out.verdict, '(exit $code), engine:', p.version);
"
step "package check passed"

#!/usr/bin/env bash
# Builds a self-contained bundle of bench:gpu for a lent GPU machine that has no npm, no
# internet and maybe no Node 20: scripts/device-gpu-check.sh runs it there.
#
#   bash scripts/device-bundle.sh .gpu-check
#
# DIR (replaced) then holds the repository's layout, so every relative path of the compiled
# code still resolves (bin/drover.js -> ../dist/src/cli/main.js, the tests' support code ->
# ../../../bin/drover.js):
#   node.xz        this machine's node binary, xz-compressed (x86-64 glibc, like the lent one)
#   package.json   ("type": "module" is what makes node read dist/ as ES modules)
#   bin/           the drover command
#   dist/          the compiled src/, bench/ and test/support/ (no source maps, no unit tests)
#   node_modules/  the production dependencies only, without typings, sources or docs;
#                  better-sqlite3 keeps only its compiled addon
# It must stay under 60 MiB: the lent machine receives it with the working tree.
set -euo pipefail

out="${1:?usage: bash scripts/device-bundle.sh DIR (e.g. .gpu-check)}"
root="$(cd "$(dirname "$0")/.." && pwd)"
limit_mib=60

die() { echo "device-bundle: $*" >&2; exit 1; }
for tool in node npm npx xz du; do
  command -v "$tool" >/dev/null || die "needs $tool on the PATH"
done
node_bin="$(readlink -f "$(command -v node)")"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[[ "$node_major" -ge 20 ]] || die "node $node_major at $node_bin: the bundle needs Node 20 or later"

cd "$root"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
[[ "$out" != "$root" && "$out" != "/" ]] || die "refusing to replace $out"
# DIR is replaced as a whole: only an empty or missing one, or a bundle made by this script.
if [[ -d "$out" && -n "$(ls -A "$out")" && ! -f "$out/node.id" ]]; then
  die "$out holds something other than a bundle of this script: choose another directory"
fi
# The compiled code only: bench:gpu does not serve the dashboard, so the UI build is skipped.
npx tsc -p tsconfig.json
[[ -f dist/bench/gpu.js ]] || die "the build left no dist/bench/gpu.js"

# The compressed node of an earlier bundle is kept when it is of the same binary: xz takes
# minutes on two cores, and a rebuild after a code change needs only the rest.
node_id="$(node --version) $(stat -c '%s %Y' "$node_bin") $node_bin"
kept=""
if [[ -f "$out/node.xz" && "$(cat "$out/node.id" 2>/dev/null)" == "$node_id" ]]; then
  kept="$(mktemp)"
  mv "$out/node.xz" "$kept"
fi
rm -rf "$out"
mkdir -p "$out/dist/test"
if [[ -n "$kept" ]]; then
  echo "device-bundle: keeping the compressed $node_bin of the last bundle ($(node --version))"
  mv "$kept" "$out/node.xz"
else
  echo "device-bundle: compressing $node_bin ($(node --version))"
  xz -T2 -6 -c "$node_bin" > "$out/node.xz"
fi
echo "$node_id" > "$out/node.id"

cp package.json "$out/"
cp -r bin "$out/"
cp -r dist/src dist/bench "$out/dist/"
cp -r dist/test/support "$out/dist/test/"
find "$out/dist" \( -name '*.map' -o -name '*.test.js' \) -delete

# The production dependency tree as npm resolved it (extraneous packages left out), one
# package directory per line, each copied to the same place under the bundle's node_modules.
npm ls --omit=dev --all --json --long 2>/dev/null | node -e '
  const tree = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const paths = new Set();
  const walk = (deps) => {
    for (const d of Object.values(deps ?? {})) {
      // A "deduped" entry has no children of its own: its subtree is walked where it is listed in full.
      if (d.extraneous || d.dev || d.missing || !d.path) continue;
      paths.add(d.path);
      walk(d.dependencies);
    }
  };
  walk(tree.dependencies);
  const prefix = process.cwd() + "/node_modules/";
  for (const p of paths) {
    if (!p.startsWith(prefix)) throw new Error(`a dependency outside node_modules: ${p}`);
    console.log(p.slice(prefix.length));
  }
' > "$out/.packages"
[[ -s "$out/.packages" ]] || die "npm ls listed no production dependencies"
while IFS= read -r package; do
  mkdir -p "$out/node_modules/$(dirname "$package")"
  # A nested package lies inside its parent, which may have been copied already.
  [[ -e "$out/node_modules/$package" ]] || cp -rL "node_modules/$package" "$out/node_modules/$package"
done < "$out/.packages"
echo "device-bundle: $(wc -l < "$out/.packages") production packages"
rm "$out/.packages"

# Node never reads these: typings, TypeScript sources, source maps, docs.
find "$out/node_modules" -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.ts' -o -name '*.map' \
  -o -name '*.md' -o -name '*.markdown' \) -delete
# better-sqlite3 loads build/Release/better_sqlite3.node (through `bindings`); its SQLite and C++
# sources and the build's object files are what made it.
sqlite="$out/node_modules/better-sqlite3"
[[ -f "$sqlite/build/Release/better_sqlite3.node" ]] || die "no compiled better-sqlite3 addon in node_modules"
rm -rf "$sqlite/deps" "$sqlite/src" "$sqlite/build/Release/obj" "$sqlite/build/Release/obj.target" "$sqlite/build/Release/.deps" "$sqlite/build/deps"
find "$sqlite/build" -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} +
find "$sqlite/build/Release" -mindepth 1 -maxdepth 1 ! -name '*.node' -exec rm -rf {} +

# The bundle must load on its own, from its own node_modules: the CLI (every module it imports
# up front) and each dependency, better-sqlite3's addon opened for real. Checked in a copy
# outside the repository, where no other node_modules above it could stand in for a missing one.
check="$(mktemp -d)"
trap 'rm -rf "$check"' EXIT
cp -r "$out/package.json" "$out/bin" "$out/dist" "$out/node_modules" "$check/"
node "$check/bin/drover.js" --help >/dev/null || die "the bundle's drover command does not load"
(cd "$check" && node --input-type=module -e '
  const Database = (await import("better-sqlite3")).default;
  new Database(":memory:").prepare("select 1").get();
  const { readFileSync } = await import("node:fs");
  await import("reflect-metadata"); // as the code does before @peculiar/x509, which needs it loaded
  for (const name of Object.keys(JSON.parse(readFileSync("package.json", "utf8")).dependencies)) await import(name);
') || die "the bundle's node_modules do not load"

size_kib="$(du -sk "$out" | cut -f1)"
du -sh "$out"
(( size_kib < limit_mib * 1024 )) || die "the bundle is $((size_kib / 1024)) MiB: over the ${limit_mib} MiB limit"
echo "device-bundle: $out is ready; on the GPU machine: bash scripts/device-gpu-check.sh $(basename "$out")"

#!/usr/bin/env bash
# Writes seed corpora for the MLIR fuzz targets into OUT/<target>/ (default
# /tmp/kiln-fuzz-seeds): every chunk of every lit test (split at `// -----`, as
# `--split-input-file` does) and every example program; for `interpreter` also 64 inputs
# that select generated random programs (a byte below 0x10, then the seed). libFuzzer
# deduplicates them by coverage on the first run (`-merge=1` keeps a minimal set).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-/tmp/kiln-fuzz-seeds}"
for target in parse_roundtrip fusion_pipeline interpreter; do
  mkdir -p "$out/$target"
done
n=0
while IFS= read -r -d '' file; do
  n=$((n + 1))
  awk -v prefix="$out/parse_roundtrip/seed-$n-" '
    /^\/\/ -----/ { close(name); chunk++; next }
    { name = prefix chunk ".mlir"; print > name }
  ' chunk=0 "$file"
done < <(find "$root/lit-tests" "$root/examples" -name '*.mlir' -print0 | sort -z)
# Every target reads MLIR text: the same chunks seed the other two.
cp "$out/parse_roundtrip/"*.mlir "$out/fusion_pipeline/"
cp "$out/parse_roundtrip/"*.mlir "$out/interpreter/"
for seed in $(seq 0 63); do
  printf "\\x$(printf %02x $((seed % 2)))\\x$(printf %02x "$seed")" > "$out/interpreter/generated-$seed"
done
echo "$(ls "$out/parse_roundtrip" | wc -l) chunks from $n files; corpora in $out"

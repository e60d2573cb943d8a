#!/usr/bin/env bash
# Times kiln-fuse on generated graphs of 1k, 10k and 100k ops and on an 8-op chain
# (benches/fusion_gen.py), with kiln-opt's --mlir-timing; prints ms per pass and per op.
# Usage: benches/fusion_bench.sh [kiln-opt binary] [kiln-fuse options]
# Measures only; asserts nothing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
opt="${1:-$here/../target/release/kiln-opt}"
options="${2:-opt-level=2}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf "%-10s %10s %12s %12s\n" graph ops "kiln-fuse ms" "us/op"
for spec in "chain 8" "mixed 1000" "mixed 10000" "mixed 100000"; do
  set -- $spec
  flag=""; [ "$1" = chain ] && flag="--chain"
  python3 "$here/fusion_gen.py" "$2" $flag > "$tmp/g.mlir"
  best=""
  for _ in 1 2 3; do
    ms=$("$opt" "$tmp/g.mlir" --kiln-fuse="$options" --mlir-timing -o /dev/null 2>&1 \
      | awk '/kiln-fuse|KilnFuse|Kiln Fuse/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) { print $i * 1000; exit } }')
    if [ -z "$best" ] || awk "BEGIN { exit !($ms < $best) }"; then best="$ms"; fi
  done
  printf "%-10s %10d %12.3f %12.3f\n" "$1" "$2" "$best" "$(awk "BEGIN { print $best * 1000 / $2 }")"
done

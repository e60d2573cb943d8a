#!/usr/bin/env bash
# Times the whole lit-tests tree under kiln-lit and under LLVM's lit and
# prints the median wall time of each and their ratio.
#
# usage: benches/lit_vs_llvm.sh [RUNS]        (default 5 runs each)
# env:   CARGO_TARGET_DIR  where to build (default: <repo>/target)
#        LLVM_LIT          LLVM's lit (default: /usr/lib/llvm-22/bin/lit)
#        KILN_FILECHECK    passed through (=llvm uses LLVM's FileCheck)
# Both runners use the same tools (release builds) and the same -j.
set -euo pipefail

runs=${1:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$repo/target}
llvm_lit=${LLVM_LIT:-/usr/lib/llvm-22/bin/lit}
jobs=$(nproc)

build() {
    cargo build --quiet --release --manifest-path "$repo/Cargo.toml" --target-dir "$target" "$@"
}
# A tool under construction elsewhere must not stop the benchmark.
build --workspace --bins || {
    echo "warning: workspace build failed; timing with kiln-lit alone" >&2
    build -p kiln-lit
}
bin_dir=$target/release
export KILN_BIN_DIR=$bin_dir

# Prints the wall time in seconds of one run of "$@" (its output and exit
# status are ignored: the tree may hold failing tests).
time_once() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { print e - s }'
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

measure() {
    local name=$1
    shift
    "$@" >/dev/null 2>&1 || true # warm-up: caches, Output/ directories
    for _ in $(seq "$runs"); do time_once "$@"; done | median
}

kiln=$(measure kiln-lit "$bin_dir/kiln-lit" -q -j "$jobs" "$repo/lit-tests")
llvm=$(measure llvm-lit "$llvm_lit" -q -j "$jobs" "$repo/lit-tests")
tests=$("$bin_dir/kiln-lit" -q -j "$jobs" "$repo/lit-tests" 2>/dev/null | grep -m1 '^Total Discovered Tests' || true)

printf '%s, %d runs each, -j %d\n' "${tests:-lit-tests}" "$runs" "$jobs"
printf 'kiln-lit median: %.3f s\n' "$kiln"
printf 'LLVM lit median: %.3f s\n' "$llvm"
printf 'ratio (LLVM lit / kiln-lit): %.2fx\n' "$(awk -v a="$llvm" -v b="$kiln" 'BEGIN { print a / b }')"

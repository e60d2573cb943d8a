#!/usr/bin/env bash
# Parse + verify + print throughput and peak memory: kiln-opt against mlir-opt 22 on the same
# generated generic-form files (default 12 MB each): one of functions of arith/scf/unregistered
# ops with unique float attributes, one of copies of the dialect programs in benches/inputs/
# (linalg, tosa, tensor, vector, ...). Prints medians of RUNS runs and the ratios.
#
# usage: benches/opt_vs_mlir.sh [MEGABYTES] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
mb=${1:-12}
runs=${2:-5}
mlir_opt=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
[ -x "$mlir_opt" ] || { echo "mlir-opt not found at $mlir_opt (apt-get install mlir-22-tools)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root" && cargo build --release -q -p kiln-opt)
kiln_opt="${CARGO_TARGET_DIR:-$root/target}/release/kiln-opt"

# Runs a tool RUNS times; prints "median_seconds median_max_rss_kb".
measure() {
  local times=() rss=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$work/t" "$@" >/dev/null
    read -r t m <"$work/t"
    times+=("$t"); rss+=("$m")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END{printf "%s ", a[int((NR+1)/2)]}'
  printf '%s\n' "${rss[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'
}

bench() {
  local label=$1; shift
  python3 "$here/gen_generic_ir.py" "$work/src.mlir" "$mb" "$@"
  "$mlir_opt" --allow-unregistered-dialect --mlir-print-op-generic "$work/src.mlir" -o "$work/in.mlir"
  size=$(stat -c %s "$work/in.mlir")
  echo "== $label: $(awk -v s="$size" 'BEGIN{printf "%.1f", s/1e6}') MB of generic-form IR"
  args=(--allow-unregistered-dialect --mlir-print-op-generic "$work/in.mlir" -o)
  read -r kt km < <(measure "$kiln_opt" "${args[@]}" "$work/out.kiln")
  read -r mt mm < <(measure "$mlir_opt" "${args[@]}" "$work/out.mlir")
  if cmp -s "$work/in.mlir" "$work/out.kiln"; then
    echo "kiln-opt printed its input back byte for byte"
  else
    echo "note: kiln-opt output differs from its input"
  fi
  awk -v kt="$kt" -v mt="$mt" -v km="$km" -v mm="$mm" -v s="$size" 'BEGIN{
    printf "kiln-opt: median %.3f s (%.1f MB/s), peak RSS %.1f MB\n", kt, s/1e6/kt, km/1024
    printf "mlir-opt: median %.3f s (%.1f MB/s), peak RSS %.1f MB\n", mt, s/1e6/mt, mm/1024
    printf "throughput ratio kiln/mlir: %.2fx   peak-memory ratio kiln/mlir: %.2f\n", mt/kt, km/mm
  }'
}

bench "generated functions (arith, scf, unregistered ops)"
bench "dialect programs (linalg, tosa, tensor, vector, ...)" --from-dir "$here/inputs"

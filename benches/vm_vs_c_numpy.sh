#!/bin/sh
# The VM against a hand-fused C loop and numpy, side by side in one run (not a test):
#   - the 8-op elementwise chain add, mul, exp, add, max, mul, sub, tanh over 16M f32 (two
#     inputs): `kiln-run --repeat` (compiled and fused, on the VM, 2 threads), a C loop
#     (-O3 -march=native -ffast-math -fopenmp, vectorized exp/tanh) and numpy's ufuncs with out=;
#   - a row softmax over 4096x4096 f32: the VM against numpy.
# Prints medians (ms) and ratios. Usage: benches/vm_vs_c_numpy.sh [runs]   (default 5)
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export OMP_NUM_THREADS=2
cargo build --release -q -p kiln-run
cc -O3 -march=native -ffast-math -fopenmp benches/vm/chain.c -o "$TMP/chain" -lm
vm() { ./target/release/kiln-run "$1" --repeat "$RUNS" --print-limit 0 --max-memory 2GiB | sed -n 's/^vm-time median=\([0-9.]*\).*/\1/p'; }
vm_chain=$(vm benches/vm/chain.mlir)
c_chain=$("$TMP/chain" $((16 << 20)) "$RUNS" | cut -d' ' -f1)
np_chain=$(python3 benches/vm/numpy_chain.py chain "$RUNS" | cut -d' ' -f1)
vm_soft=$(vm benches/vm/softmax.mlir)
np_soft=$(python3 benches/vm/numpy_chain.py softmax "$RUNS" | cut -d' ' -f1)
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }
echo "8-op chain, 16M f32 (median of $RUNS, ms):"
echo "  kiln VM   $vm_chain"
echo "  C loop    $c_chain    VM / C = $(ratio "$vm_chain" "$c_chain")   (goal <= 1.5)"
echo "  numpy     $np_chain    numpy / VM = $(ratio "$np_chain" "$vm_chain")   (goal >= 4)"
echo "softmax 4096x4096 f32 (median of $RUNS, ms):"
echo "  kiln VM   $vm_soft"
echo "  numpy     $np_soft    numpy / VM = $(ratio "$np_soft" "$vm_soft")"

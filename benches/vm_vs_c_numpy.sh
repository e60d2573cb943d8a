#!/bin/sh
# The VM against a hand-fused C loop and numpy, side by side in one run (not a test):
#   - the 8-op elementwise chain add, mul, exp, add, max, mul, sub, tanh over 16M f32 (two
#     inputs): `kiln-run --repeat` (compiled and fused, on the VM, 2 threads), a C loop
#     (-O3 -march=native -ffast-math -fopenmp, vectorized exp/tanh) and numpy's ufuncs with out=;
#   - a row softmax over 4096x4096 f32: the VM against numpy.
# The three sides take turns: ROUNDS rounds, each timing every side over RUNS runs, so that a
# drift of the (shared) machine's speed hits all of them alike. Prints the median over the
# rounds of each side's per-round median (ms), the median of the rounds' ratios, and each
# round's figures.
# Usage: benches/vm_vs_c_numpy.sh [RUNS] [ROUNDS]   (defaults 5 and 3; RUNS at most 63)
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-5}
ROUNDS=${2:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export OMP_NUM_THREADS=2
cargo build --release -q -p kiln-run
cc -O3 -march=native -ffast-math -fopenmp benches/vm/chain.c -o "$TMP/chain" -lm
vm() { ./target/release/kiln-run "$1" --repeat "$RUNS" --print-limit 0 --max-memory 2GiB | sed -n 's/^vm-time median=\([0-9.]*\).*/\1/p'; }
c() { "$TMP/chain" $((16 << 20)) "$RUNS" | cut -d' ' -f1; }
np() { python3 benches/vm/numpy_chain.py "$1" "$RUNS" | cut -d' ' -f1; }
: > "$TMP/rounds"
# A side that failed (its error is on stderr) printed no time: stop rather than average a gap.
ms() {
  case "$1" in
    '' | *[!0-9.]*) echo "vm_vs_c_numpy.sh: $2 gave no time" >&2; exit 1 ;;
  esac
  printf ' %s' "$1"
}
for round in $(seq "$ROUNDS"); do
  line=$round
  line=$line$(ms "$(vm benches/vm/chain.mlir)" "the VM on the chain")
  line=$line$(ms "$(c)" "the C loop")
  line=$line$(ms "$(np chain)" "numpy on the chain")
  line=$line$(ms "$(vm benches/vm/softmax.mlir)" "the VM on the softmax")
  line=$line$(ms "$(np softmax)" "numpy on the softmax")
  echo "$line" >> "$TMP/rounds"
done
python3 - "$TMP/rounds" "$RUNS" <<'PY'
import statistics, sys
rows = [list(map(float, line.split()[1:])) for line in open(sys.argv[1])]
vm, c, npc, vms, nps = (statistics.median(col) for col in zip(*rows))
# A ratio is the median of the rounds' ratios (the sides of one round ran back to back).
ratio = lambda num, den: statistics.median(r[num] / r[den] for r in rows)
print(f"8-op chain, 16M f32 (median over {len(rows)} rounds of the median of {sys.argv[2]} runs, ms):")
print(f"  kiln VM   {vm:.3f}")
print(f"  C loop    {c:.3f}    VM / C = {ratio(0, 1):.2f}   (goal <= 1.5)")
print(f"  numpy     {npc:.3f}    numpy / VM = {ratio(2, 0):.2f}   (goal >= 4)")
print("softmax 4096x4096 f32 (the same medians, ms):")
print(f"  kiln VM   {vms:.3f}")
print(f"  numpy     {nps:.3f}    numpy / VM = {ratio(4, 3):.2f}")
print("rounds (chain VM, C, numpy; softmax VM, numpy):")
for i, r in enumerate(rows, 1):
    print(f"  {i}: " + " ".join(f"{v:.2f}" for v in r) + f"   VM / C {r[0] / r[1]:.2f}, numpy / VM {r[2] / r[0]:.2f}")
PY

"""kiln against numpy in one run: the 8-op elementwise chain (add, mul, exp, add, maximum,
mul, sub, tanh) and a softmax over 16M f32 (4096 x 4096), kiln at the default `--opt_level=1`
and at `--opt_level=2` (which stitches the softmax's reductions into one kernel). The sides
take turns: each of ROUNDS rounds times numpy and kiln at both levels back to back, the
median of RUNS runs each (the first run of each kiln shape compiles; it is a warm-up), so
that the shared machine's drift hits every side alike. Prints, per case, the median of the
per-round medians and of the per-round ratios numpy / kiln (goal >= 3), and every round.

Run: pip install ./python && python benches/eager_vs_numpy.py [RUNS] [ROUNDS]
"""

import statistics
import sys
import time

import numpy as np

import kiln

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
LEVELS = ["--opt_level=1", "--opt_level=2"]
ROWS, COLS = 4096, 4096


def chain(m, x, y):
    t = x + y
    t = t * x
    t = m.exp(t)
    t = t + y
    t = m.maximum(t, x)
    t = t * y
    t = t - x
    return m.tanh(t)


def softmax_np(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def median_time(f):
    f()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((ROWS, COLS)).astype(np.float32) * 0.1
    y = rng.standard_normal((ROWS, COLS)).astype(np.float32) * 0.1
    kx, ky = kiln.asarray(x), kiln.asarray(y)
    np.testing.assert_allclose(chain(kiln, kx, ky).numpy(), chain(np, x, y), rtol=1e-4, atol=1e-5)
    cases = [
        ("chain8", lambda: chain(np, x, y), lambda: chain(kiln, kx, ky).numpy()),
        ("softmax", lambda: softmax_np(x), lambda: kiln.softmax(kx).numpy()),
    ]
    for name, run_np, run_kiln in cases:
        # rounds[i] = (numpy, kiln at each level), seconds.
        rounds = []
        for _ in range(ROUNDS):
            t_np = median_time(run_np)
            t_kiln = []
            for flags in LEVELS:
                kiln.set_flags(flags)
                t_kiln.append(median_time(run_kiln))
            rounds.append((t_np, t_kiln))
        t_np = statistics.median(r[0] for r in rounds)
        for i, flags in enumerate(LEVELS):
            t_kiln = statistics.median(r[1][i] for r in rounds)
            ratio = statistics.median(r[0] / r[1][i] for r in rounds)
            each = ", ".join(f"{r[0] / r[1][i]:.2f}" for r in rounds)
            print(
                f"{name} [{flags}]: numpy {t_np * 1e3:.1f} ms, kiln {t_kiln * 1e3:.1f} ms, "
                f"numpy/kiln = {ratio:.2f} (rounds: {each})"
            )
    s = kiln.stats()
    print(f"kiln: {s['cache_misses']} compiles, {s['cache_hits']} cache hits")


if __name__ == "__main__":
    main()

"""kiln against numpy in one run: the 8-op elementwise chain (add, mul, exp, add, maximum,
mul, sub, tanh) and a softmax over 16M f32 (4096 x 4096), medians of RUNS runs each (first run
of each kiln shape compiles; it is a warm-up), kiln at the default `--opt_level=1` and at
`--opt_level=2` (which stitches the softmax's reductions into one kernel). Prints the times and
numpy / kiln (goal >= 3).

Run: pip install ./python && python benches/eager_vs_numpy.py [RUNS]
"""

import statistics
import sys
import time

import numpy as np

import kiln

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
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
        t_np = median_time(run_np)
        for flags in ["--opt_level=1", "--opt_level=2"]:
            kiln.set_flags(flags)
            t_kiln = median_time(run_kiln)
            label = f"{name} [{flags}]"
            print(f"{label}: numpy {t_np * 1e3:.1f} ms, kiln {t_kiln * 1e3:.1f} ms, numpy/kiln = {t_np / t_kiln:.2f}")
    s = kiln.stats()
    print(f"kiln: {s['cache_misses']} compiles, {s['cache_hits']} cache hits")


if __name__ == "__main__":
    main()

"""The eager sweep of issue 41: a softmax, a layer norm and a GELU chain over (n, 768) f32 for
N different row counts n (the sequence lengths of a transformer's activations), through the
Python package at `--opt_level=2`. For each n, the first call meets a new shape, the next
REPEAT calls hit the cache. With `--dynamic_shape` (the default) a new shape of a compiled
shape class is bound, not compiled; with FLAGS `--dynamic_shape=false` every shape compiles.
Prints per case the compiles the sweep took (the session's `cache_misses`: pipeline compiles,
shape classes among them, and direct emissions, which stay per shape) and their mean time
(wall time, `compile_seconds`), the shape class hits
and refusals, the median time of a call on a new shape and of a cache hit, and their ratio
(issue 41's goal: at most one compile per shape class, a new shape within 1.2x of a hit).
Every result is checked against numpy.

Run: pip install ./python && python benches/eager_shapes.py [N] [REPEAT] [FLAGS]
With KILN_BENCH_CLOCK=cpu, calls are timed in the process's CPU time (all its threads) rather
than wall time: steadier on a machine whose cores other jobs share.
"""

import os
import statistics
import sys
import time

import numpy as np

import kiln

N = int(sys.argv[1]) if len(sys.argv) > 1 else 100
REPEAT = int(sys.argv[2]) if len(sys.argv) > 2 else 3
FLAGS = sys.argv[3] if len(sys.argv) > 3 else ""
COLS = 768
CLOCK = time.process_time if os.environ.get("KILN_BENCH_CLOCK") == "cpu" else time.perf_counter


def gelu(m, x):
    inner = (x + x * x * x * 0.044715) * 0.7978845608
    return x * 0.5 * (m.tanh(inner) + 1.0)


def softmax_np(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm_np(x, g, b, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def timed(f):
    start = CLOCK()
    out = f()
    return CLOCK() - start, out


def main():
    rng = np.random.default_rng(0)
    # N distinct row counts from 1 to 1024, odd sizes and tails among them.
    sizes = sorted(rng.choice(np.arange(1, 1025), size=N, replace=False).tolist())
    g = rng.standard_normal(COLS).astype(np.float32)
    b = rng.standard_normal(COLS).astype(np.float32)
    kg, kb = kiln.asarray(g), kiln.asarray(b)
    cases = [
        ("softmax", lambda kx: kiln.softmax(kx), softmax_np),
        ("layer_norm", lambda kx: kiln.layer_norm(kx, kg, kb), lambda x: layer_norm_np(x, g, b)),
        ("gelu", lambda kx: gelu(kiln, kx), lambda x: gelu(np, x)),
    ]
    kiln.set_flags(f"--opt_level=2 {FLAGS}")
    counted = ["cache_misses", "direct_compiles", "class_compiles", "class_hits", "class_refusals", "compile_seconds"]
    for name, run, reference in cases:
        before = {k: kiln.stats()[k] for k in counted}
        new, hit = [], []
        for n in sizes:
            x = (rng.standard_normal((n, COLS)) * 0.5).astype(np.float32)
            kx = kiln.asarray(x)
            t, out = timed(lambda: run(kx).numpy())
            new.append(t)
            np.testing.assert_allclose(out, reference(x), rtol=2e-4, atol=2e-5)
            for _ in range(REPEAT):
                hit.append(timed(lambda: run(kx).numpy())[0])
        c = {k: kiln.stats()[k] - before[k] for k in counted}
        t_new, t_hit = statistics.median(new), statistics.median(hit)
        each = c["compile_seconds"] / max(1, c["cache_misses"]) * 1e6
        print(
            f"{name}: {N} shapes, {c['cache_misses']} compiles of {each:.0f} us ({c['class_compiles']} shape classes, "
            f"{c['direct_compiles']} direct), {c['class_hits']} class hits, "
            f"{c['class_refusals']} refused; new shape {t_new * 1e6:.0f} us, "
            f"cache hit {t_hit * 1e6:.0f} us, new / hit = {t_new / t_hit:.2f}"
        )


if __name__ == "__main__":
    main()

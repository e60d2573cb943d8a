"""numpy's side of benches/vm_vs_c_numpy.sh: the 8-op chain as a ufunc sequence with out=
buffers, and a row softmax; prints median, min and max of N runs in milliseconds."""
import sys
import time

import numpy as np


def timed(f, runs):
    f()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    return times[len(times) // 2], times[0], times[-1]


def main():
    which, runs = sys.argv[1], int(sys.argv[2])
    rng = np.random.default_rng(0)
    if which == "chain":
        n = 16 << 20
        a = rng.uniform(-2, 2, n).astype(np.float32)
        b = rng.uniform(-2, 2, n).astype(np.float32)
        o = np.empty_like(a)

        def chain():
            np.add(a, b, out=o)
            np.multiply(o, a, out=o)
            np.exp(o, out=o)
            np.add(o, b, out=o)
            np.maximum(o, a, out=o)
            np.multiply(o, b, out=o)
            np.subtract(o, a, out=o)
            np.tanh(o, out=o)

        r = timed(chain, runs)
    else:
        x = rng.uniform(-2, 2, (4096, 4096)).astype(np.float32)
        o = np.empty_like(x)
        m = np.empty((4096, 1), np.float32)
        s = np.empty((4096, 1), np.float32)

        def softmax():
            np.max(x, axis=1, keepdims=True, out=m)
            np.subtract(x, m, out=o)
            np.exp(o, out=o)
            np.sum(o, axis=1, keepdims=True, out=s)
            np.divide(o, s, out=o)

        r = timed(softmax, runs)
    print("%.3f %.3f %.3f" % r)


main()

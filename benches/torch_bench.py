"""kiln.torch on this machine (a benchmark, not a test):

1. Per training step of the GPT-2-style model (python/tests/torch_models.py: forward,
   backward, SGD-with-momentum step), wall time under eager PyTorch, ``torch.compile`` with
   Inductor, ``torch.compile(backend="kiln")`` and ``kiln.torch.fusion()``: the median of
   STEPS steps after two warm-up steps (which compile).
2. The dispatch mode's per-op overhead: a chain of small elementwise ops recorded inside
   ``kiln.torch.fusion()`` (recording only, then the flush apart) against the same ops in
   eager PyTorch.
3. The 8-op chain over 16M f32, numpy in and numpy out (``kiln.asarray``, the chain,
   ``.numpy()``) against numpy (goal >= 2x), and on kiln arrays (goal >= 3x); and
   ``kiln.asarray`` of a 64 MB float32 array against a ``memcpy`` of it (``np.copyto``).

Run: python benches/torch_bench.py [STEPS] (with the release wheel installed).
"""

import os
import statistics
import sys
import time

import numpy as np
import torch

import kiln
import kiln.torch as kt

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "tests"))
import torch_models as tm  # noqa: E402

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def median(f, runs):
    f()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def training_step_times():
    ids = tm.gpt2_batch()
    results = {}
    for mode in ("eager", "inductor", "kiln-compile", "kiln-fusion"):
        torch.manual_seed(0)
        model = tm.gpt2()
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, foreach=True)
        run = model
        try:
            if mode == "inductor":
                torch._dynamo.reset()
                run = torch.compile(model)
            elif mode == "kiln-compile":
                torch._dynamo.reset()
                run = torch.compile(model, backend="kiln")

            def step():
                if mode == "kiln-fusion":
                    with kt.fusion():
                        tm.gpt2_loss(run, ids).backward()
                        opt.step()
                        opt.zero_grad()
                else:
                    tm.gpt2_loss(run, ids).backward()
                    opt.step()
                    opt.zero_grad()
            step()
            results[mode] = median(step, STEPS)
        except Exception as e:  # noqa: BLE001 - report a backend that does not work here
            results[mode] = f"failed: {type(e).__name__}: {str(e).splitlines()[0][:120]}"
    for mode, t in results.items():
        print(f"gpt2 training step [{mode}]: " + (f"{t * 1e3:.1f} ms" if isinstance(t, float) else t))


def dispatch_overhead(n=200):
    x = torch.randn(16)

    def chain():
        y = x
        for _ in range(n):
            y = y * 1.0001 + 0.5
        return y

    eager = median(chain, 5) / (2 * n)
    kt.reset_stats()
    record = []
    flush = []
    for _ in range(5):
        ctx = kt.fusion()
        ctx.__enter__()
        start = time.perf_counter()
        chain()
        mid = time.perf_counter()
        ctx.__exit__(None, None, None)
        record.append(mid - start)
        flush.append(time.perf_counter() - mid)
    rec = statistics.median(record[1:]) / (2 * n)
    print(f"dispatch mode: {rec * 1e6:.1f} us per op recorded (eager PyTorch: {eager * 1e6:.1f} us per op); "
          f"flush of {2 * n} ops: {statistics.median(flush[1:]) * 1e3:.2f} ms")


def chain(m, x, y):
    t = x + y
    t = t * x
    t = m.exp(t)
    t = t + y
    t = m.maximum(t, x)
    t = t * y
    t = t - x
    return m.tanh(t)


def numpy_chain(runs=5, rounds=3):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4096, 4096)).astype(np.float32) * 0.1
    y = rng.standard_normal((4096, 4096)).astype(np.float32) * 0.1
    kx, ky = kiln.asarray(x), kiln.asarray(y)
    np.testing.assert_allclose(chain(kiln, kiln.asarray(x), kiln.asarray(y)).numpy(), chain(np, x, y),
                               rtol=1e-4, atol=1e-5)
    dst = np.empty_like(x)
    cases = {
        "numpy": lambda: chain(np, x, y),
        "kiln numpy-in/out": lambda: chain(kiln, kiln.asarray(x), kiln.asarray(y)).numpy(),
        "kiln arrays": lambda: chain(kiln, kx, ky).numpy(),
        "asarray 64MB": lambda: kiln.asarray(x),
        "memcpy 64MB": lambda: np.copyto(dst, x),
    }
    rows = {k: [] for k in cases}
    for _ in range(rounds):
        for k, f in cases.items():
            rows[k].append(median(f, runs))
    t = {k: statistics.median(v) for k, v in rows.items()}
    for k in ("kiln numpy-in/out", "kiln arrays"):
        ratios = [a / b for a, b in zip(rows["numpy"], rows[k])]
        print(f"chain8 16M f32 [{k}]: {t[k] * 1e3:.1f} ms, numpy {t['numpy'] * 1e3:.1f} ms, "
              f"numpy/kiln = {statistics.median(ratios):.2f} (rounds: {', '.join(f'{r:.2f}' for r in ratios)})")
    print(f"kiln.asarray 64 MB f32: {t['asarray 64MB'] * 1e3:.1f} ms, memcpy (np.copyto) {t['memcpy 64MB'] * 1e3:.1f} ms")


if __name__ == "__main__":
    numpy_chain()
    dispatch_overhead()
    training_step_times()

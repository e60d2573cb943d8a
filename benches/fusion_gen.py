#!/usr/bin/env python3
"""Generates an hl function of about N ops for timing kiln-fuse (benches/fusion_bench.sh).

The graph mixes what fusion meets in models: elementwise chains, broadcasts of a parameter,
row reductions consumed by later ops (softmax-like stitching), matmul epilogues and values
with several consumers. `--chain` gives a plain chain of N elementwise ops. Seeded, so every
run times the same graph.
"""
import random
import sys


def main():
    n = int(sys.argv[1])
    chain = "--chain" in sys.argv
    rng = random.Random(42)
    full, row, par, w = "tensor<64x128xf32>", "tensor<64x1xf32>", "tensor<128xf32>", "tensor<128x128xf32>"
    out = [f"func.func @g(%x: {full}, %p: {par}, %w: {w}) -> {full} {{"]
    fulls, rows = ["%x"], []
    for i in range(n):
        v = f"%v{i}"
        if chain:
            op = ["exp", "neg", "abs", "tanh"][i % 4]
            out.append(f"  {v} = hl.{op} {fulls[-1]} : {full}")
            fulls.append(v)
            continue
        a = fulls[-1 - min(len(fulls) - 1, int(rng.expovariate(0.7)))]
        k = rng.random()
        if k < 0.35:
            op = rng.choice(["exp", "neg", "abs", "tanh", "relu", "sigmoid"])
            out.append(f"  {v} = hl.{op} {a} : {full}")
            fulls.append(v)
        elif k < 0.75:
            op = rng.choice(["add", "mul", "sub", "maximum"])
            b, bt = rng.choice([(fulls[-1], full), ("%p", par)] + ([(rows[-1], row)] if rows else []))
            out.append(f"  {v} = hl.{op} {a}, {b} : {full}, {bt} -> {full}")
            fulls.append(v)
        elif k < 0.9:
            op = rng.choice(["reduce_sum", "reduce_max"])
            out.append(f"  {v} = hl.{op} {a} {{axes = [1], keep_dims = true}} : {full} -> {row}")
            rows.append(v)
        else:
            out.append(f"  {v} = hl.matmul {a}, %w : {full}, {w} -> {full}")
            fulls.append(v)
    out.append(f"  return {fulls[-1]} : {full}")
    out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Attention at S = 128, 512, 2048, 8192 as one flash-attention kernel against today's parts
(issue 42): simulated device time and HBM bytes on the VM, and the largest GM buffer the host
allocates (the parts hold the S x S scores in GM; the flash kernel must not).

    benches/flash_attention.py [--bin-dir target/debug] [--target ascend910b] [--sizes 128,512]
                               [--heads 1]

The program is the baseline of `generator::attention_program` (`Attention::baseline`): Q, K, V
`[1, H, S, 64]` f32, K transposed by `hl.transpose`, the scores divided by 8, a key padding
mask `[1, 1, 1, S]`, the softmax decomposed as exporters write it, PV. Each configuration is
compiled by `kiln-opt` (`hl-decompose, hl-canonicalize, cse, dce, kiln-fuse{opt-level=2},
kiln-codegen{target flash-attention=...}`) for its GM buffers, and run by `kiln-run --stats`
(`--no-flash-attention` for the parts; random inputs). Measures only; asserts nothing but that the flash kernel's host allocates no
GM buffer of S x S elements.
"""

import argparse
import os
import re
import subprocess
import tempfile


def program(s, heads, d=64):
    t = f"tensor<1x{heads}x{s}x{d}xf32>"
    tt = f"tensor<1x{heads}x{d}x{s}xf32>"
    sc = f"tensor<1x{heads}x{s}x{s}xf32>"
    red = f"tensor<1x{heads}x{s}x1xf32>"
    mask = f"tensor<1x1x1x{s}xf32>"
    return f"""func.func @attention(%q: {t}, %k: {t}, %v: {t}, %mask: {mask}) -> {t} {{
  %kt = hl.transpose %k {{perm = [0, 1, 3, 2]}} : {t} -> {tt}
  %s = hl.batch_matmul %q, %kt : {t}, {tt} -> {sc}
  %c = hl.constant dense<8.0> : tensor<f32>
  %s1 = hl.div %s, %c : {sc}, tensor<f32> -> {sc}
  %s2 = hl.add %s1, %mask : {sc}, {mask} -> {sc}
  %m = hl.reduce_max %s2 {{axes = [3], keep_dims = true}} : {sc} -> {red}
  %x = hl.sub %s2, %m : {sc}, {red} -> {sc}
  %e = hl.exp %x : {sc}
  %z = hl.reduce_sum %e {{axes = [3], keep_dims = true}} : {sc} -> {red}
  %p = hl.div %e, %z : {sc}, {red} -> {sc}
  %o = hl.batch_matmul %p, %v : {sc}, {t} -> {t}
  return %o : {t}
}}
"""


def largest_gm_alloc(lowered):
    """Elements of the largest `memref.alloc` of GM in the lowered module."""
    best = 0
    for dims in re.findall(r"memref\.alloc\(\) : memref<([0-9x]+)x[a-z0-9]+, #npuvec\.space<gm>>", lowered):
        n = 1
        for x in dims.split("x"):
            n *= int(x)
        best = max(best, n)
    return best


def run(bin_dir, target, s, heads, flash):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "attention.mlir")
        low = os.path.join(tmp, "lowered.mlir")
        with open(src, "w") as f:
            f.write(program(s, heads))
        flag = "true" if flash else "false"
        pipe = ("builtin.module(hl-decompose, hl-canonicalize, cse, dce, kiln-fuse{opt-level=2}, "
                f"kiln-codegen{{target={target} flash-attention={flag}}})")
        subprocess.run([os.path.join(bin_dir, "kiln-opt"), src, "-p", pipe, "-o", low], check=True,
                       stderr=subprocess.DEVNULL)
        with open(low) as f:
            lowered = f.read()
        cmd = [os.path.join(bin_dir, "kiln-run"), src, "--target", target, "--stats", "--print-limit", "0",
               "--max-steps", "4000000000", "--max-memory", "8GiB"]
        out = subprocess.run(cmd + ([] if flash else ["--no-flash-attention"]),
                             check=True, capture_output=True, text=True).stdout
    total = next(l for l in out.splitlines() if l.startswith("stats: total "))
    kernels = int(re.search(r"kernels=(\d+)", total).group(1))
    hbm = int(re.search(r"hbm-bytes=(\d+)", total).group(1))
    device_ns = float(re.search(r"^total: \d+ launch(?:es)?, ([0-9.]+) ns", out, re.M).group(1))
    return kernels, hbm, device_ns / 1e3, largest_gm_alloc(lowered)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", default="target/debug")
    ap.add_argument("--target", default="ascend910b")
    ap.add_argument("--sizes", default="128,512,2048,8192")
    ap.add_argument("--heads", type=int, default=1)
    a = ap.parse_args()
    print(f"attention [1, {a.heads}, S, 64] f32, padding mask, on {a.target}")
    print("| S | kernels flash / parts | HBM bytes flash / parts | device time flash / parts | "
          "largest GM buffer flash / parts (elements) |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for s in [int(x) for x in a.sizes.split(",")]:
        f = run(a.bin_dir, a.target, s, a.heads, True)
        p = run(a.bin_dir, a.target, s, a.heads, False)
        print(f"| {s} | {f[0]} / {p[0]} | {f[1]:,} / {p[1]:,} | {f[2]:.1f} / {p[2]:.1f} us | {f[3]:,} / {p[3]:,} |",
              flush=True)
        assert f[3] < s * s, f"S={s}: the flash kernel's host allocates {f[3]} elements of GM (S x S = {s * s})"


if __name__ == "__main__":
    main()

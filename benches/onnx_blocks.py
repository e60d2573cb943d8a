#!/usr/bin/env python3
"""Imports each ONNX block of frontends/onnx/tests/models.py (BERT encoder layer, GPT-2 block,
LLaMA block, ViT MLP, ResNet basic block) at realistic sizes and prints, per model: its ONNX
node count, the node count of onnxruntime's optimized graph (ORT_ENABLE_ALL, saved with
optimized_model_filepath), and Kiln's kernels and simulated device time unfused (every op its
own kernel), at kiln-fuse opt-level 1 and at opt-level 2 (kiln-run --stats on the VM).

    benches/onnx_blocks.py [--bin-dir target/release] [--size bench|small] [--target T]

Opt-level N runs `kiln-opt` with `hl-decompose, hl-canonicalize, cse, dce,
kiln-fuse{opt-level=N}` and then `kiln-run --no-fuse --stats` on the fused module (so the VM
compiles the regions as they are); unfused is `kiln-run --no-fuse --stats` on the imported
module. A configuration the back end cannot compile prints its error instead of numbers.
Measures only; asserts nothing. Needs onnx, onnxruntime and numpy.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import onnx
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "frontends", "onnx", "tests"))
import models  # noqa: E402


def ort_nodes(path, out):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.optimized_model_filepath = out
    so.log_severity_level = 3
    ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    return len(onnx.load(out).graph.node)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def stats(bins, mlir, target):
    code, out, err = run([os.path.join(bins, "kiln-run"), "--no-fuse", "--stats", "--print-limit", "0",
                          "--target", target, mlir])
    if code != 0:
        line = next((l for l in err.splitlines() if "error" in l), err.strip()[:100])
        return None, line.strip()
    kernels = re.search(r"stats: total kernels=(\d+)", out)
    time = re.search(r"total: \d+ launches, ([0-9.]+) ns", out)
    return (int(kernels.group(1)), float(time.group(1)) / 1000.0), None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin-dir", default=os.path.join(HERE, "..", "target", "release"))
    p.add_argument("--size", choices=["bench", "small"], default="bench")
    p.add_argument("--target", default="ascend910b")
    a = p.parse_args()
    bins = a.bin_dir
    tmp = tempfile.mkdtemp(prefix="onnx_blocks_")
    print(f"{'model':<26} {'onnx':>5} {'ort':>5} | {'unfused':>16} | {'opt-level 1':>16} | {'opt-level 2':>16}")
    print(f"{'':<26} {'nodes':>5} {'nodes':>5} | {'kernels   us':>16} | {'kernels   us':>16} | {'kernels   us':>16}")
    errors = []
    for build in models.BLOCKS:
        g = build(a.size)
        model = g.model()
        path = os.path.join(tmp, f"{g.name}.onnx")
        onnx.save(model, path)
        n_ort = ort_nodes(path, os.path.join(tmp, f"{g.name}.ort.onnx"))
        mlir = os.path.join(tmp, f"{g.name}.mlir")
        code, _, err = run([os.path.join(bins, "kiln-translate"), "--import-onnx", path, "-o", mlir])
        if code != 0:
            print(f"{g.name:<26} {len(model.graph.node):>5} {n_ort:>5} | import failed: {err.strip()}")
            continue
        cells = []
        for level in [None, 1, 2]:
            src = mlir
            if level is not None:
                src = os.path.join(tmp, f"{g.name}.o{level}.mlir")
                pipeline = f"builtin.module(hl-decompose, hl-canonicalize, cse, dce, kiln-fuse{{opt-level={level} target={a.target}}})"
                code, _, err = run([os.path.join(bins, "kiln-opt"), mlir, f"--pass-pipeline={pipeline}", "-o", src])
                if code != 0:
                    cells.append("fuse failed")
                    errors.append(f"{g.name} opt-level {level}: {err.strip()[:200]}")
                    continue
            result, error = stats(bins, src, a.target)
            if result is None:
                cells.append("n/a")
                errors.append(f"{g.name} {'unfused' if level is None else f'opt-level {level}'}: {error}")
            else:
                cells.append(f"{result[0]:>7} {result[1]:>8.1f}")
        print(f"{g.name:<26} {len(model.graph.node):>5} {n_ort:>5} | " + " | ".join(f"{c:>16}" for c in cells))
    for e in errors:
        print(f"  {e}")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

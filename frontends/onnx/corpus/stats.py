#!/usr/bin/env python3
"""Kernels, GM (HBM) bytes and simulated device time of every corpus model, fused
(`kiln-run`'s default, kiln-fuse opt-level 2) and unfused (`--no-fuse`), as a markdown table
(not a test; the README's table). Each model is imported with `kiln-translate --import-onnx`
and run on the VM with `kiln-run --stats` on its committed inputs.

    python3 frontends/onnx/corpus/stats.py [--bin target/release] [--target ascend910b]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def stats(kiln_run, mlir, inputs, extra):
    cmd = [kiln_run, "--stats", "--print-limit", "0", *extra]
    for i in inputs:
        cmd += ["--input", i]
    out = subprocess.run(cmd + [mlir], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    total = re.search(r"^total: (\d+) launches, ([\d.]+) ns", out.stdout, re.M)
    gm = sum(int(b) for b in re.findall(r"^kernel .*?, (\d+) GM bytes", out.stdout, re.M))
    return int(total.group(1)), gm, float(total.group(2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release"))
    parser.add_argument("--target", default=None)
    a = parser.parse_args()
    translate, run = os.path.join(a.bin, "kiln-translate"), os.path.join(a.bin, "kiln-run")
    models = os.path.join(HERE, "models")
    manifest = json.load(open(os.path.join(models, "manifest.json")))
    extra = ["--target", a.target] if a.target else []
    print("| model | kernels fused / unfused | GM bytes fused / unfused | simulated time fused / unfused |")
    print("| --- | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for m in manifest["models"]:
            d = os.path.join(models, m["name"])
            mlir = os.path.join(tmp, m["name"] + ".mlir")
            subprocess.run([translate, "--import-onnx", os.path.join(d, "model.onnx"), "-o", mlir], check=True)
            inputs = [os.path.join(d, f"in{i}.npy") for i in range(m["inputs"])]
            fused, unfused = stats(run, mlir, inputs, extra), stats(run, mlir, inputs, extra + ["--no-fuse"])
            if fused is None or unfused is None:
                print(f"| {m['name']} | fails on the VM | | |")
                continue
            print(f"| {m['name']} | {fused[0]} / {unfused[0]} | {fused[1]:,} / {unfused[1]:,} | "
                  f"{fused[2] / 1e3:.1f} / {unfused[2] / 1e3:.1f} us |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a large MLIR program (func + arith + scf + tensor + unregistered ops, dense and float
attributes, nested regions) for the parse/verify/print benchmark. mlir-opt turns it into generic
form; both tools then read that file.

usage: gen_generic_ir.py OUT.mlir TARGET_MEGABYTES [--from-dir DIR]

With --from-dir, the program is instead made of copies of the .mlir programs in DIR (dialect
test programs: linalg, tosa, tensor, vector, scf, math, complex, cf, func, arith), each copy in
its own nested module so that symbol names stay unique.
"""
import os
import random
import re
import sys


def function(out, index, rng):
    n = rng.randint(20, 60)
    out.append(f"func.func @f{index}(%a: i32, %b: f32, %t: tensor<4x?xf32>) -> (i32, f32) {{\n")
    out.append("  %c1 = arith.constant 1 : i32\n")
    out.append(f"  %cf = arith.constant {rng.uniform(-100, 100)} : f32\n")
    out.append("  %d = arith.constant dense<[1.5, 2.25, -3.0, 4.0]> : tensor<4xf32>\n")
    iv, fv = "%a", "%b"
    for k in range(n):
        r = rng.random()
        if r < 0.3:
            out.append(f"  %i{k} = arith.addi {iv}, %c1 : i32\n")
            iv = f"%i{k}"
        elif r < 0.55:
            out.append(f"  %f{k} = arith.mulf {fv}, %cf fastmath<fast> : f32\n")
            fv = f"%f{k}"
        elif r < 0.7:
            out.append(f"  %p{k} = arith.cmpi slt, {iv}, %c1 : i32\n")
            out.append(f"  %s{k} = arith.select %p{k}, {iv}, %c1 : i32\n")
            iv = f"%s{k}"
        elif r < 0.85:
            out.append(f'  %u{k} = "kiln.work"({iv}, {fv}) {{tag = "w{k}", scale = {rng.uniform(0, 1)} : f64}} : (i32, f32) -> f32\n')
            fv = f"%u{k}"
        else:
            out.append(f"  %w{k} = scf.for %iv = %a to %a step %c1 iter_args(%acc = {fv}) -> (f32) : i32 {{\n"
                       f"    %x{k} = arith.addf %acc, %cf : f32\n"
                       f"    scf.yield %x{k} : f32\n  }}\n")
            fv = f"%w{k}"
    out.append(f"  return {iv}, {fv} : i32, f32\n}}\n")


def from_dir(path, megabytes, directory):
    bodies = []
    for name in sorted(os.listdir(directory)):
        if name.endswith(".mlir"):
            text = open(os.path.join(directory, name)).read().strip()
            if text.startswith("module"):
                text = re.sub(r"^module\s*(@\w+)?\s*\{", "", text, count=1).rstrip()[:-1]
            bodies.append(text)
    out, size, k = [], 0, 0
    while size < megabytes * 1_000_000 / 2.2:  # generic form is ~2.2x larger than this text
        chunk = f"module @m{k} {{\n{bodies[k % len(bodies)]}\n}}\n"
        out.append(chunk)
        size += len(chunk)
        k += 1
    with open(path, "w") as f:
        f.write("".join(out))


def main():
    path, megabytes = sys.argv[1], float(sys.argv[2])
    if len(sys.argv) > 4 and sys.argv[3] == "--from-dir":
        from_dir(path, megabytes, sys.argv[4])
        return
    rng = random.Random(42)
    out = []
    size = 0
    i = 0
    while size < megabytes * 1_000_000 / 1.85:  # generic form is ~1.85x larger than this text
        chunk = []
        function(chunk, i, rng)
        text = "".join(chunk)
        out.append(text)
        size += len(text)
        i += 1
    with open(path, "w") as f:
        f.write("".join(out))


if __name__ == "__main__":
    main()

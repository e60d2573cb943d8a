#!/usr/bin/env python3
"""Writes a large MLIR program (func + arith + scf + tensor + unregistered ops, dense and float
attributes, nested regions) for the parse/verify/print benchmark. mlir-opt turns it into generic
form; both tools then read that file.

usage: gen_generic_ir.py OUT.mlir TARGET_MEGABYTES
"""
import random
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


def main():
    path, megabytes = sys.argv[1], float(sys.argv[2])
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

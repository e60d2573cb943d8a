// A function with `?` dims runs on inputs of any conforming shape: kiln-run checks each input
// against the signature, specializes the module to the inputs' shapes (shape inference makes
// every `?` static) and compiles that. Three shapes of one attention-like block, from
// --input-shape (by argument name or number) and from an .npy file, each on the VM against the
// interpreter (--check).
// RUN: %kiln-run %s --input-shape x=1x1x16 --check --print-limit 0 | FileCheck %s --check-prefix=ONE
// RUN: %kiln-run %s --input-shape 0=2x5x16 --check --print-limit 0 | FileCheck %s --check-prefix=TWO
// RUN: rm -rf %t && %kiln-run %s --entry make_input --interpret --output-dir %t --print-limit 0
// RUN: %kiln-run %s --input %t/result0.npy --check --print-limit 0 | FileCheck %s --check-prefix=THREE
// RUN: %kiln-run %s --input %t/result0.npy --interpret --print-limit 0 | FileCheck %s --check-prefix=THREE-INTERP
// RUN: %kiln-run %s --entry inner --check --print-limit 0 | FileCheck %s --check-prefix=INNER

// ONE: result #0: tensor<1x1x16xf32> (16 elements
// ONE-NEXT: result #1: tensor<1x16xf32> (16 elements
// ONE-NEXT: check: no unsynchronized pipe access
// ONE-NEXT: check: the VM and the interpreter agree on 2 results

// TWO: result #0: tensor<2x5x16xf32> (160 elements
// TWO-NEXT: result #1: tensor<2x16xf32> (32 elements
// TWO: check: the VM and the interpreter agree on 2 results

// THREE: result #0: tensor<3x17x16xf32> (816 elements
// THREE-NEXT: result #1: tensor<3x16xf32> (48 elements
// THREE: check: the VM and the interpreter agree on 2 results

// THREE-INTERP: result #0: tensor<3x17x16xf32> (816 elements
// THREE-INTERP-NEXT: result #1: tensor<3x16xf32> (48 elements

// Heads split and merged by reshapes whose `source_dims` keep batch and sequence dims.
func.func @block(%x: tensor<?x?x16xf32> loc("x"), %w: tensor<16x16xf32> loc("w"), %g: tensor<16xf32> loc("gamma"), %b: tensor<16xf32> loc("beta")) -> (tensor<?x?x16xf32>, tensor<?x16xf32>) {
  %n = hl.layer_norm %x, %g, %b {epsilon = 9.9999997473787516E-6 : f32} : tensor<?x?x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<?x?x16xf32>
  %ws = hl.reshape %w : tensor<16x16xf32> -> tensor<1x16x16xf32>
  %p = hl.batch_matmul %n, %ws : tensor<?x?x16xf32>, tensor<1x16x16xf32> -> tensor<?x?x16xf32>
  %h = hl.reshape %p {source_dims = [0, 1, -1, -1]} : tensor<?x?x16xf32> -> tensor<?x?x4x4xf32>
  %t = hl.transpose %h {perm = [0, 2, 1, 3]} : tensor<?x?x4x4xf32> -> tensor<?x4x?x4xf32>
  %s = hl.batch_matmul %t, %t {transpose_b = true} : tensor<?x4x?x4xf32>, tensor<?x4x?x4xf32> -> tensor<?x4x?x?xf32>
  %a = hl.softmax %s {axis = -1 : i64} : tensor<?x4x?x?xf32>
  %o = hl.batch_matmul %a, %t : tensor<?x4x?x?xf32>, tensor<?x4x?x4xf32> -> tensor<?x4x?x4xf32>
  %u = hl.transpose %o {perm = [0, 2, 1, 3]} : tensor<?x4x?x4xf32> -> tensor<?x?x4x4xf32>
  %m = hl.reshape %u {source_dims = [0, 1, -1]} : tensor<?x?x4x4xf32> -> tensor<?x?x16xf32>
  %r = hl.add %x, %m : tensor<?x?x16xf32>, tensor<?x?x16xf32> -> tensor<?x?x16xf32>
  %e = hl.gelu %r : tensor<?x?x16xf32>
  %mean = hl.reduce_mean %e {axes = [1]} : tensor<?x?x16xf32> -> tensor<?x16xf32>
  return %e, %mean : tensor<?x?x16xf32>, tensor<?x16xf32>
}

// Writes a 3x17x16 input for the .npy run.
func.func @make_input(%x: tensor<3x17x16xf32>) -> tensor<3x17x16xf32> {
  return %x : tensor<3x17x16xf32>
}

// Static arguments, `?` dims inside (and in the result): specialized as well.
// INNER: result #0: tensor<32xf32> (32 elements
// INNER: check: the VM and the interpreter agree on 1 results
func.func @inner(%x: tensor<4x8xf32>) -> tensor<?xf32> {
  %0 = hl.reshape %x : tensor<4x8xf32> -> tensor<?xf32>
  %1 = hl.exp %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// Inputs that do not conform to a signature with `?` dims, and shapes the module cannot be
// specialized to, are clear errors naming the argument and the dim, before anything runs.
// RUN: not %kiln-run %s --input-shape x=2x16 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not %kiln-run %s --input-shape x=2x3x8 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not %kiln-run %s --input %S/Inputs/x.npy 2>&1 | FileCheck %s --check-prefix=NPYRANK
// RUN: not %kiln-run %s --input %S/Inputs/x_i32.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not %kiln-run %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %kiln-run %s --input-shape y=2x3x16 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not %kiln-run %s --input %S/Inputs/x.npy --input-shape 0=2x3x16 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not %kiln-run %s --input-shape x=0x3x16 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not %kiln-run %s --input-shape x=-2x3x16 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not %kiln-run %s --input-shape x=2x99999999999999999999x16 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not %kiln-run %s --input-shape 2x3x16 2>&1 | FileCheck %s --check-prefix=NOEQ
// RUN: not %kiln-run %s --input-shape x=100000x100000x16 2>&1 | FileCheck %s --check-prefix=MEMORY
// RUN: not %kiln-run %s --input-shape x=4294967296x4294967296x16 2>&1 | FileCheck %s --check-prefix=WRAPS
// RUN: not %kiln-run %s --input-shape x=1x20000x16 --print-limit 0 --max-steps 100000 2>&1 | FileCheck %s --check-prefix=GM
// RUN: not %kiln-run %s --input-shape x=1x20000x16 --interpret 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not %kiln-run %s --entry pair --input-shape a=3 --input-shape b=4 2>&1 | FileCheck %s --check-prefix=PAIR
// RUN: not %kiln-run %s --entry undetermined --input-shape x=2x32 --interpret 2>&1 | FileCheck %s --check-prefix=UNDETERMINED
// RUN: not %kiln-run %s --entry from_one --input-shape n=5 --check 2>&1 | FileCheck %s --check-prefix=FROMONE

// RANK: kiln-run: error: argument #0 (`x`) has type 'tensor<?x?x16xf32>' of rank 3, but the input has rank 2 (shape [2, 16])
// STATIC: kiln-run: error: argument #0 (`x`) has type 'tensor<?x?x16xf32>', whose dim #2 is 16, but the input's is 8 (shape [2, 3, 8])
// NPYRANK: kiln-run: error: argument #0 (`x`) has type 'tensor<?x?x16xf32>' of rank 3, but the input has rank 2 (shape [1, 3])
// DTYPE: kiln-run: error: argument #0 (`x`): `{{.*}}x_i32.npy`: npy file holds i32, expected f32
// MISSING: kiln-run: error: argument #0 (`x`) has dynamic type 'tensor<?x?x16xf32>': give its shape with --input-shape 0=DIMS (or x=DIMS) or its values with --input
// NAME: kiln-run: error: --input-shape names 'y', which is not an argument of the function (argument #0 (`x`), argument #1 (`w`))
// BOTH: kiln-run: error: argument #0 (`x`) is given both by --input and by --input-shape
// ZERO: error: invalid value 'x=0x3x16' for '--input-shape <NAME=DIMS>': dims must be at least 1, but 'x=0x3x16' has a 0
// NEGATIVE: error: invalid value 'x=-2x3x16' for '--input-shape <NAME=DIMS>': dims must be integers from 1 joined by 'x', but 'x=-2x3x16' has '-2'
// HUGE: error: invalid value 'x=2x99999999999999999999x16' for '--input-shape <NAME=DIMS>': dim 99999999999999999999 of 'x=2x99999999999999999999x16' is past the largest dim, 9223372036854775807
// NOEQ: error: invalid value '2x3x16' for '--input-shape <NAME=DIMS>': expected 'NAME=DIMS' (x=2x128), but got '2x3x16'
// MEMORY: kiln-run: error: argument #0 (`x`) of type 'tensor<100000x100000x16xf32>' needs 640000000000 bytes, which exceeds the interpreter's memory budget of 1073741824 bytes (0 bytes already live); raise --max-memory
// WRAPS: kiln-run: error: argument #0 (`x`) of type 'tensor<4294967296x4294967296x16xf32>' has more elements than fit in 64 bits{{$}}

// A size that fits as an input but not as the values it makes (a 20000x20000 score matrix per
// head): the interpreter's memory bound. The VM runs the flash-attention kernel, which keeps
// the scores on chip (no temporary takes GM past its limit): it stops at the step budget.
// GM: kiln-run: error: kernel `block_kernel{{[0-9]+}}` core {{[0-9]+}} instruction #{{[0-9]+}}: step budget of {{[0-9]+}} steps exhausted
// BUDGET: dynamic-errors.mlir:[[# @LINE + 6]]:8: error: 'hl.batch_matmul' op result #0 of type 'tensor<1x4x20000x20000xf32>' needs 6400000000 bytes, which exceeds the interpreter's memory budget of 1073741824 bytes
func.func @block(%x: tensor<?x?x16xf32> loc("x"), %w: tensor<16x16xf32> loc("w")) -> tensor<?x?x16xf32> {
  %ws = hl.reshape %w : tensor<16x16xf32> -> tensor<1x16x16xf32>
  %p = hl.batch_matmul %x, %ws : tensor<?x?x16xf32>, tensor<1x16x16xf32> -> tensor<?x?x16xf32>
  %h = hl.reshape %p {source_dims = [0, 1, -1, -1]} : tensor<?x?x16xf32> -> tensor<?x?x4x4xf32>
  %t = hl.transpose %h {perm = [0, 2, 1, 3]} : tensor<?x?x4x4xf32> -> tensor<?x4x?x4xf32>
  %s = hl.batch_matmul %t, %t {transpose_b = true} : tensor<?x4x?x4xf32>, tensor<?x4x?x4xf32> -> tensor<?x4x?x?xf32>
  %a = hl.softmax %s {axis = -1 : i64} : tensor<?x4x?x?xf32>
  %o = hl.batch_matmul %a, %t : tensor<?x4x?x?xf32>, tensor<?x4x?x4xf32> -> tensor<?x4x?x4xf32>
  %u = hl.transpose %o {perm = [0, 2, 1, 3]} : tensor<?x4x?x4xf32> -> tensor<?x?x4x4xf32>
  %m = hl.reshape %u {source_dims = [0, 1, -1]} : tensor<?x?x4x4xf32> -> tensor<?x?x16xf32>
  return %m : tensor<?x?x16xf32>
}

// Two `?` dims the program needs equal, given different sizes.
// PAIR: kiln-run: error: cannot specialize the function to the inputs' shapes [3], [4]:
// PAIR-NEXT: dynamic-errors.mlir:[[# @LINE + 2]]:8: error: 'hl.add' op operands are not broadcast compatible: 'tensor<3xf32>' and 'tensor<4xf32>' (operand #1)
func.func @pair(%a: tensor<?xf32> loc("a"), %b: tensor<?xf32> loc("b")) -> tensor<?xf32> {
  %0 = hl.add %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// A `?` the inputs do not determine (two untied `?` in a reshape; a broadcast from 1): the
// back end compiles static shapes only, so the launch stops before anything runs.
// UNDETERMINED: kiln-run: error: cannot specialize the function to the inputs' shapes [2, 32]:
// UNDETERMINED-NEXT: dynamic-errors.mlir:[[# @LINE + 2]]:8: error: 'hl.reshape' op result #0 keeps a dynamic dim ('tensor<?x?x4xf32>') that the inputs' shapes do not determine; the back end compiles static shapes only
func.func @undetermined(%x: tensor<?x32xf32> loc("x")) -> tensor<?x?x4xf32> {
  %0 = hl.reshape %x : tensor<?x32xf32> -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// FROMONE: dynamic-errors.mlir:[[# @LINE + 3]]:8: error: 'hl.broadcast_to' op result #0 keeps a dynamic dim ('tensor<?x5xf32>')
func.func @from_one(%n: tensor<?xf32> loc("n")) -> tensor<?x?xf32> {
  %one = hl.reshape %n {source_dims = [-1, 0]} : tensor<?xf32> -> tensor<1x?xf32>
  %0 = hl.broadcast_to %one : tensor<1x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

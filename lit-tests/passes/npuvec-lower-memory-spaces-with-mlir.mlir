// REQUIRES: mlir-opt
// After npuvec-lower-memory-spaces, the kernels and host function of kernel.mlir are IR that
// mlir-opt 22 reads (with the npuvec ops unregistered to it; its own verifiers check the
// func, arith and memref ops), and what it prints back reads and verifies here again.
// RUN: %kiln-opt --allow-unregistered-dialect --npuvec-lower-memory-spaces --mlir-print-op-generic %S/../dialects/npuvec/kernel.mlir > %t.ours
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.ours > %t.theirs
// RUN: FileCheck %s --input-file %t.theirs
// RUN: %kiln-opt --allow-unregistered-dialect %t.theirs | FileCheck %s --check-prefix=BACK

// CHECK-LABEL: "func.func"() <{function_type = (memref<16x64xf32>, memref<16x64xf32>) -> (), sym_name = "softmax_exp"}>
// CHECK:         "npuvec.buffer"() <{offsets = array<i64: 0>}> : () -> memref<8x64xf32, 1>
// CHECK:         "npuvec.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<16x64xf32>, index, memref<8x64xf32, 1>) -> ()
// CHECK:       }) {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 2048 : i64} : () -> ()
// CHECK-LABEL: sym_name = "softmax_norm"
// CHECK:         "npuvec.reduce"(%{{.*}}, %{{.*}}) <{kind = #npuvec.reduce<sum>}> : (memref<8x64xf32, 1>, memref<8x1xf32, 1>) -> ()
// CHECK-LABEL: sym_name = "softmax"
// CHECK:         "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<16x64xf32>
// CHECK:         "npuvec.launch"(%{{.*}}, %{{.*}}) <{callee = @softmax_exp}> : (memref<16x64xf32>, memref<16x64xf32>) -> ()

// BACK-LABEL: func.func @softmax_exp(
// BACK:         npuvec.load ins(%{{.*}}[%{{.*}}] : memref<16x64xf32>) outs(%{{.*}} : memref<8x64xf32, 1>) sizes [8, 64] strides [64, 1]

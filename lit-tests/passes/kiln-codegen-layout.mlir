// RUN: %kiln-opt %s --split-input-file --no-verify-each -p 'builtin.module(kiln-codegen-outline,kiln-codegen-tile{target=tiny-npu},kiln-codegen-bufferize,kiln-codegen-lower)' > %t
// RUN: FileCheck %s < %t
// RUN: %kiln-opt --split-input-file %t > /dev/null
// kiln-codegen-lower of the layout kernels that assemble their output from parts (hl.concat,
// hl.pad): one tile loop per part, each loading (or filling) its tiles and storing them
// through a view of the output at the part's first element.

// Each operand into its columns of the [4, 11] output: rows of 11, the second part from
// column 8.
// CHECK-LABEL: func.func private @cat_kernel0(
// CHECK-SAME:      %[[A:[^:]*]]: memref<4x8xf32, #npuvec.space<gm>>, %[[B:[^:]*]]: memref<4x3xf32, #npuvec.space<gm>>, %[[OUT:[^:]*]]: memref<4x11xf32, #npuvec.space<gm>>)
// CHECK-SAME:      npuvec.kind = "layout"
// CHECK:         %[[UA:.*]] = npuvec.alloc : memref<2x8xf32, #npuvec.space<ub>>
// CHECK:         scf.for
// CHECK:           %[[ROW:.*]] = arith.constant 22 : index
// CHECK-NEXT:      %[[OA:.*]] = arith.muli %{{.*}}, %[[ROW]] : index
// CHECK-NEXT:      npuvec.load ins(%[[A]][%{{.*}}] : memref<4x8xf32, #npuvec.space<gm>>) outs(%[[UA]] : memref<2x8xf32, #npuvec.space<ub>>) sizes [16] strides [1]
// CHECK-NEXT:      npuvec.store ins(%[[UA]] : memref<2x8xf32, #npuvec.space<ub>>) outs(%[[OUT]][%[[OA]]] : memref<4x11xf32, #npuvec.space<gm>>) sizes [2, 8] strides [11, 1]
// CHECK:         %[[UB:.*]] = npuvec.alloc : memref<2x3xf32, #npuvec.space<ub>>
// CHECK:         scf.for
// CHECK:           %[[COL:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[OB:.*]] = arith.addi %{{.*}}, %[[COL]] : index
// CHECK-NEXT:      npuvec.load ins(%[[B]][%{{.*}}] : memref<4x3xf32, #npuvec.space<gm>>) outs(%[[UB]] : memref<2x3xf32, #npuvec.space<ub>>) sizes [6] strides [1]
// CHECK-NEXT:      npuvec.store ins(%[[UB]] : memref<2x3xf32, #npuvec.space<ub>>) outs(%[[OUT]][%[[OB]]] : memref<4x11xf32, #npuvec.space<gm>>) sizes [2, 3] strides [11, 1]
// CHECK-NOT:     hl.
func.func @cat(%a: tensor<4x8xf32>, %b: tensor<4x3xf32>) -> tensor<4x11xf32> {
  %c = hl.concat %a, %b {axis = 1 : i64} : tensor<4x8xf32>, tensor<4x3xf32> -> tensor<4x11xf32>
  return %c : tensor<4x11xf32>
}

// -----

// A splat operand (copied into the kernel by the outliner) is filled, not loaded.
// CHECK-LABEL: func.func private @cat_splat_kernel0(
// CHECK:         npuvec.load
// CHECK:         %[[U:.*]] = npuvec.alloc : memref<2x16xf16, #npuvec.space<ub>>
// CHECK:         scf.for
// CHECK:           %[[OFF:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2.000000e+00 : f16
// CHECK-NEXT:      npuvec.fill ins(%[[TWO]] : f16) outs(%[[U]] : memref<2x16xf16, #npuvec.space<ub>>)
// CHECK-NEXT:      npuvec.store ins(%[[U]] : memref<2x16xf16, #npuvec.space<ub>>) outs(%{{.*}}[%[[OFF]]] : memref<5x16xf16, #npuvec.space<gm>>) sizes [32] strides [1]
func.func @cat_splat(%a: tensor<3x16xf16>) -> tensor<5x16xf16> {
  %z = hl.constant dense<2.0> : tensor<2x16xf16>
  %c = hl.concat %a, %z {axis = 0 : i64} : tensor<3x16xf16>, tensor<2x16xf16> -> tensor<5x16xf16>
  return %c : tensor<5x16xf16>
}

// -----

// The operand into the interior (from column 1), then the border: rows 2 and 3 whole, then
// column 0 of rows 0 and 1; every part is stored once, no element twice.
// CHECK-LABEL: func.func private @pad_kernel0(
// CHECK-SAME:      %[[X:[^:]*]]: memref<2x3xf32, #npuvec.space<gm>>, %[[OUT:[^:]*]]: memref<4x4xf32, #npuvec.space<gm>>)
// CHECK:         npuvec.load ins(%[[X]]
// CHECK-NEXT:    npuvec.store ins(%{{.*}} : memref<2x3xf32, #npuvec.space<ub>>) outs(%[[OUT]][%{{.*}}] : memref<4x4xf32, #npuvec.space<gm>>) sizes [2, 3] strides [4, 1]
// CHECK:         npuvec.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<2x4xf32, #npuvec.space<ub>>)
// CHECK-NEXT:    npuvec.store ins(%{{.*}} : memref<2x4xf32, #npuvec.space<ub>>) outs(%[[OUT]][%{{.*}}] : memref<4x4xf32, #npuvec.space<gm>>) sizes [8] strides [1]
// CHECK:         %[[FIVE:.*]] = arith.constant 5.000000e+00 : f32
// CHECK-NEXT:    npuvec.fill ins(%[[FIVE]] : f32) outs(%{{.*}} : memref<2x1xf32, #npuvec.space<ub>>)
// CHECK-NEXT:    npuvec.store ins(%{{.*}} : memref<2x1xf32, #npuvec.space<ub>>) outs(%[[OUT]][%{{.*}}] : memref<4x4xf32, #npuvec.space<gm>>) sizes [2] strides [4]
// CHECK-NOT:     npuvec.store
// CHECK:         return
func.func @pad(%x: tensor<2x3xf32>) -> tensor<4x4xf32> {
  %1 = hl.pad %x {high = [2, 0], low = [0, 1], value = 5.0 : f32} : tensor<2x3xf32> -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

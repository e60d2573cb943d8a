// REQUIRES: mlir-opt
// The TOSA path without the `mlir` feature, with mlir-opt 22 standing in for the in-process
// MLIR: a hand-written TOSA file in custom form (as torch-mlir prints it) goes through
// mlir-opt's parser and verifier to the generic form, tosa-to-hl makes hl of it, and the
// interpreter runs it. Every example exports (hl-decompose, hl-to-tosa) to TOSA that mlir-opt
// verifies.
// RUN: mlir-opt --mlir-print-op-generic %S/Inputs/tosa-block.mlir | %kiln-opt --allow-unregistered-dialect --tosa-to-hl --dce - > %t.hl
// RUN: %kiln-run --interpret %t.hl --print-limit 4 | FileCheck %s --check-prefix=BLOCK
// RUN: %kiln-run --interpret %t.hl --entry cnn --print-limit 4 | FileCheck %s --check-prefix=CNN
// RUN: FileCheck %s --check-prefix=HL --input-file %t.hl
// RUN: %kiln-opt --allow-unregistered-dialect --hl-decompose --hl-to-tosa --dce --mlir-print-op-generic %S/../../../examples/transformer_encoder.mlir | mlir-opt | FileCheck %s --check-prefix=EXPORT
// RUN: %kiln-opt --allow-unregistered-dialect --hl-decompose --hl-to-tosa --dce --mlir-print-op-generic %S/../../../examples/llama_block.mlir | mlir-opt > /dev/null
// RUN: %kiln-opt --allow-unregistered-dialect --hl-decompose --hl-to-tosa --dce --mlir-print-op-generic %S/../../../examples/mlp.mlir | mlir-opt > /dev/null
// RUN: %kiln-opt --allow-unregistered-dialect --hl-decompose --hl-to-tosa --dce --mlir-print-op-generic %S/../../../examples/resnet_block.mlir | mlir-opt | FileCheck %s --check-prefix=RESNET

// BLOCK: result #0: tensor<1x4x8xf32> (32 elements, min 0.27148438, max 1, mean 0.540634)
// BLOCK-NEXT: [0.31298828, 0.89697266, 0.35888672, 0.45458984, ...]
// The gather picks rows 4, 0 and 2 of the table.
// BLOCK-NEXT: result #1: tensor<1x3x8xf32> (24 elements, min 0, max 47, mean 23.500000)
// BLOCK-NEXT: [40, 41, 42, 43, ...]
// CNN: result #0: tensor<1x3x3x4xf32> (36 elements, min 0, max 1.0181139, mean 0.250784)

// HL-LABEL: func.func @block(
// HL-NOT: tosa.
// HL: hl.batch_matmul
// HL: hl.gather
// HL-LABEL: func.func @cnn(
// HL-NOT: tosa.
// HL: hl.conv2d
// HL: hl.max_pool2d
// HL: hl.avg_pool2d
// HL: hl.pad

// EXPORT-LABEL: func.func
// EXPORT-NOT: hl.
// EXPORT: tosa.matmul
// EXPORT: tosa.reduce_max
// EXPORT: arith.divf
// RESNET: tosa.conv2d

// The interpreter's memory is bounded (--max-memory, default 1GiB of live tensors) and sizes
// computed from huge shapes are checked: each case is a clear, located error, never an abort.
// RUN: not %kiln-run --interpret %s --entry bcast 2>&1 | FileCheck %s --check-prefix=BCAST
// RUN: not %kiln-run --interpret %s --entry bigarg 2>&1 | FileCheck %s --check-prefix=BIGARG
// RUN: not %kiln-run --interpret %s --entry wraps 2>&1 | FileCheck %s --check-prefix=WRAPS
// RUN: not %kiln-run --interpret %s --entry splat 2>&1 | FileCheck %s --check-prefix=SPLAT
// RUN: not %kiln-run --interpret %s --entry small --max-memory=16 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %kiln-run --interpret %s --entry small --max-memory=1KiB 2>&1 | FileCheck %s --check-prefix=RAISED
// RUN: not %kiln-run --interpret %s --entry small --max-memory=1TB 2>&1 | FileCheck %s --check-prefix=UNIT

// BCAST: limits.mlir:[[@LINE+2]]:8: error: 'hl.broadcast_to' op result #0 of type 'tensor<100000x100000xf32>' needs 40000000000 bytes, which exceeds the interpreter's memory budget of 1073741824 bytes (4 bytes already live)
func.func @bcast(%x: tensor<1xf32>) -> tensor<100000x100000xf32> {
  %y = hl.broadcast_to %x : tensor<1xf32> -> tensor<100000x100000xf32>
  return %y : tensor<100000x100000xf32>
}

// BIGARG: kiln-run: error: argument #0 of type 'tensor<1000000000xf32>' needs 4000000000 bytes, which exceeds the interpreter's memory budget of 1073741824 bytes (0 bytes already live); raise --max-memory
func.func @bigarg(%x: tensor<1000000000xf32>) -> tensor<1000000000xf32> {
  return %x : tensor<1000000000xf32>
}

// WRAPS: kiln-run: error: argument #0 of type 'tensor<4294967296x4294967296xf32>' has more elements than fit in 64 bits{{$}}
func.func @wraps(%x: tensor<4294967296x4294967296xf32>) -> tensor<f32> {
  %y = hl.reduce_sum %x {axes = [0, 1]} : tensor<4294967296x4294967296xf32> -> tensor<f32>
  return %y : tensor<f32>
}

// A splat constant is charged at its full size, as the interpreter materializes it.
// SPLAT: limits.mlir:[[@LINE+2]]:8: error: 'hl.constant' op result #0 of type 'tensor<100000x100000xf32>' needs 40000000000 bytes
func.func @splat() -> tensor<f32> {
  %c = hl.constant dense<1.0> : tensor<100000x100000xf32>
  %y = hl.reduce_sum %c {axes = [0, 1]} : tensor<100000x100000xf32> -> tensor<f32>
  return %y : tensor<f32>
}

// SMALL: error: 'hl.exp' op result #0 of type 'tensor<4xf32>' needs 16 bytes, which exceeds the interpreter's memory budget of 16 bytes (16 bytes already live)
// RAISED: result #0: tensor<4xf32> (4 elements
// UNIT: invalid value '1TB' for '--max-memory <SIZE>': unknown unit 'TB'
func.func @small(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = hl.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

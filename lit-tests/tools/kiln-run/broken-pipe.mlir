// A reader that stops early (`| head`, a FileCheck that failed) closes the pipe while kiln-run
// is still printing about 1 MB of results: the rest of the output is dropped and kiln-run exits
// 0, never panicking on the broken pipe (lit runs pipelines with pipefail, so a panic's status
// fails this test).
// RUN: %kiln-run %s --input-shape 0=131072 --interpret --print-limit 1000000 | head -c 16 | FileCheck %s
// CHECK: result #0
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = hl.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

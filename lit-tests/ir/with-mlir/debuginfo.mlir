// REQUIRES: mlir-opt
// Locations survive both ways with --mlir-print-debuginfo.
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %s > %t.ref
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %s | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo > %t.ours
// RUN: diff %t.ref %t.ours

#loc = loc("src.py":3:7)
func.func @f(%a: i32 loc("arg.py":1:2)) -> i32 {
  %0 = "unk.a"(%a) : (i32) -> i32 loc(#loc)
  %1 = "unk.b"(%0) : (i32) -> i32 loc("named"("inner.py":9:1))
  %2 = "unk.c"(%1) : (i32) -> i32 loc(callsite("callee.py":1:1 at "caller.py":2:2))
  %3 = "unk.d"(%2) : (i32) -> i32 loc(fused["a.py":1:1, "b.py":2:2])
  %4 = "unk.e"(%3) : (i32) -> i32 loc(unknown)
  return %4 : i32
}

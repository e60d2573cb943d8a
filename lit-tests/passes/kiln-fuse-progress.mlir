// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 progress' -o /dev/null 2>&1 | FileCheck %s
// RUN: %kiln-opt %s --kiln-fuse=opt-level=2 --kiln-fusion-progress -o /dev/null 2>&1 | FileCheck %s
// RUN: %kiln-opt %s --kiln-fuse --kiln-fusion-flags='--opt_level=2 --progress' -o /dev/null 2>&1 | FileCheck %s
// RUN: %kiln-opt %s --kiln-fuse=opt-level=2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// `progress` (kiln-opt: `--kiln-fusion-progress`, or `--progress` in a flags string) reports on
// stderr while kiln-fuse runs, and only when asked: the ops and blocks, then for each block
// holding at least a tenth of the ops its planning by tenths, then every new tenth of the ops
// done (planned and left alone, or moved into their region), then a closing line.
// QUIET-NOT: kiln-fuse

// The module's own block (two functions, no hl op) is done at once; @small (2 of the 24
// ops, nothing to fuse) is too small to announce; @chain is planned in tenths.
// CHECK:      {{^}}kiln-fuse: fusing 24 ops in 3 blocks{{$}}
// CHECK-NEXT: {{^}}kiln-fuse: planning block 2 of 3 (@chain, 20 ops){{$}}
// CHECK-NEXT: {{^}}kiln-fuse: planning block 2 of 3: 10% of its ops after {{[0-9]+\.[0-9][0-9]}} s{{$}}
// CHECK-NEXT: {{^}}kiln-fuse: planning block 2 of 3: 20% of its ops after
// CHECK:      {{^}}kiln-fuse: planning block 2 of 3: 90% of its ops after
// CHECK-NEXT: {{^}}kiln-fuse: planned block 2 of 3: 1 region in {{[0-9]+\.[0-9][0-9]}} s{{$}}
// CHECK-NEXT: {{^}}kiln-fuse: 10% (3 of 24 ops, 0 regions) after {{[0-9]+\.[0-9][0-9]}} s{{$}}
// CHECK-NEXT: {{^}}kiln-fuse: 90% (22 of 24 ops, 1 region) after
// CHECK-NEXT: {{^}}kiln-fuse: 100% (24 of 24 ops, 1 region) after
// CHECK-NEXT: {{^}}kiln-fuse: done: 24 ops, 1 region in {{[0-9]+\.[0-9][0-9]}} s{{$}}
// CHECK-NOT:  kiln-fuse

func.func @chain(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = hl.exp %a : tensor<8x64xf32>
  %1 = hl.neg %0 : tensor<8x64xf32>
  %2 = hl.abs %1 : tensor<8x64xf32>
  %3 = hl.tanh %2 : tensor<8x64xf32>
  %4 = hl.exp %3 : tensor<8x64xf32>
  %5 = hl.neg %4 : tensor<8x64xf32>
  %6 = hl.abs %5 : tensor<8x64xf32>
  %7 = hl.tanh %6 : tensor<8x64xf32>
  %8 = hl.exp %7 : tensor<8x64xf32>
  %9 = hl.neg %8 : tensor<8x64xf32>
  %10 = hl.abs %9 : tensor<8x64xf32>
  %11 = hl.tanh %10 : tensor<8x64xf32>
  %12 = hl.exp %11 : tensor<8x64xf32>
  %13 = hl.neg %12 : tensor<8x64xf32>
  %14 = hl.abs %13 : tensor<8x64xf32>
  %15 = hl.tanh %14 : tensor<8x64xf32>
  %16 = hl.exp %15 : tensor<8x64xf32>
  %17 = hl.neg %16 : tensor<8x64xf32>
  %18 = hl.abs %17 : tensor<8x64xf32>
  return %18 : tensor<8x64xf32>
}

func.func @small(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = hl.neg %a : tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

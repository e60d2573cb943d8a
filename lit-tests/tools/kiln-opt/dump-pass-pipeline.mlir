// --dump-pass-pipeline prints the pipeline as mlir-opt 22 does: a header, one entry per line,
// every pass with all its options (sorted, defaults included), so that the dump pastes back
// into -p and dumps the same again.
// RUN: %kiln-opt %s --dump-pass-pipeline -p 'builtin.module(func.func(cse, canonicalize{max-iterations=3}), symbol-dce, kiln-fuse{opt-level=2 max-ops=8})' 2>&1 >/dev/null | FileCheck %s
// CHECK: Pass Manager with 3 passes:
// CHECK-NEXT: builtin.module(
// CHECK-NEXT:   func.func(
// CHECK-NEXT:     cse,
// CHECK-NEXT:     canonicalize{fold=true max-iterations=3}
// CHECK-NEXT:   ),
// CHECK-NEXT:   symbol-dce,
// CHECK-NEXT:   kiln-fuse{{[{]}}{{.*}} max-ops=8 opt-level=2 {{.*}}target=ascend910b ub-budget=80}
// CHECK-NEXT: )
// The dumped text, joined into one line, runs the same pipeline and dumps the same text.
// RUN: %kiln-opt %s --dump-pass-pipeline -p 'builtin.module(func.func(cse, canonicalize{max-iterations=3}), symbol-dce, kiln-fuse{opt-level=2 max-ops=8})' 2>%t.first >/dev/null
// RUN: %kiln-opt %s --dump-pass-pipeline -p 'builtin.module(  func.func(    cse,    canonicalize{fold=true max-iterations=3}  ),  symbol-dce,  kiln-fuse{ dot=   fusion-flags= max-depth=0 max-ops=8 opt-level=2  remarks=false report= rules= strategy=balanced target=ascend910b ub-budget=80})' 2>%t.second >/dev/null
// RUN: diff %t.first %t.second
// A pipeline given as flags dumps the same way (passes on the top-level op).
// RUN: %kiln-opt %s --dump-pass-pipeline --cse --canonicalize 2>&1 >/dev/null | FileCheck %s --check-prefix=FLAGS
// FLAGS: Pass Manager with 2 passes:
// FLAGS-NEXT: builtin.module(
// FLAGS-NEXT:   cse,
// FLAGS-NEXT:   canonicalize{fold=true max-iterations=10}
// FLAGS-NEXT: )

module {}

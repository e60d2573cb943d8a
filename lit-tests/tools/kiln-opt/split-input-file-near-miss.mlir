// RUN: not %kiln-opt %s --split-input-file --allow-unregistered-dialect 2>&1 | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect | FileCheck %s --check-prefix=NOSPLIT
// Lines that resemble the split marker are errors naming their line (mlir-opt only warns
// about some of them, and splits `// ------` in the middle): the test cases they separate
// would silently merge. Nothing is processed. Without --split-input-file they are comments.

// CHECK: split-input-file-near-miss.mlir:[[@LINE+2]]:1: error: near miss with file split marker '// -----'
"unk.a"() : () -> ()
// ----
// CHECK: split-input-file-near-miss.mlir:[[@LINE+2]]:1: error: near miss with file split marker '// -----'
"unk.b"() : () -> ()
//-----
// CHECK: split-input-file-near-miss.mlir:[[@LINE+2]]:3: error: near miss with file split marker '// -----'
// CHECK-NEXT: {{^  // ------$}}
  // ------
// CHECK-NEXT: {{^  \^$}}
// CHECK: split-input-file-near-miss.mlir:[[@LINE+1]]:1: error: near miss with file split marker '// -----'
// ----- trailing text
"unk.c"() : () -> ()
// CHECK-NOT: error:

// Rulers are ordinary comments.
// ------------------------------------------------------------------

// NOSPLIT: "unk.a"
// NOSPLIT: "unk.b"
// NOSPLIT: "unk.c"

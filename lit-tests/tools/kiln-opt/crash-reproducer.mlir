// --mlir-pass-pipeline-crash-reproducer writes, when the pipeline fails, the IR it started from
// and the pipeline (every option spelled out) as mlir-opt's `mlir_reproducer` resource;
// --run-reproducer runs that file's pipeline again and fails the same way.
// RUN: rm -f %t.repro.mlir
// RUN: not %kiln-opt %s --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir -p 'builtin.module(func.func(cse, kiln-fuse{report=%t.no/such/dir/r.json}))' 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: kiln-fuse: cannot write report
// ERR: error: Failures have been detected while processing an MLIR pass pipeline
// ERR-NEXT: note: Pipeline failed while executing [`KilnFuse` on 'func.func' operation: @twice]: reproducer generated at `{{.*}}repro.mlir`
// RUN: FileCheck %s --check-prefix=REPRO --input-file %t.repro.mlir
// REPRO: func.func @twice(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// REPRO-NEXT: hl.exp %arg0
// REPRO: {-#
// REPRO-NEXT:   external_resources: {
// REPRO-NEXT:     mlir_reproducer: {
// REPRO-NEXT:       pipeline: "builtin.module(func.func(cse, kiln-fuse{{[{]}}{{.*}} opt-level=1 {{.*}}report={{.*}}r.json{{.*}}}))",
// REPRO-NEXT:       disable_threading: true,
// REPRO-NEXT:       verify_each: true
// RUN: not %kiln-opt %t.repro.mlir --run-reproducer 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: error: kiln-fuse: cannot write report
// A file without the resource is an error.
// RUN: not %kiln-opt %s --run-reproducer 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: the input has no 'mlir_reproducer' resource with a pipeline

func.func @twice(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.exp %a : tensor<4xf32>
  %1 = hl.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

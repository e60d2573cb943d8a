// IR dumps go to stderr, in mlir-opt's format, around the selected passes.
// RUN: %kiln-opt %s --cse --dce --mlir-print-ir-before=cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: %kiln-opt %s --cse --dce --mlir-print-ir-after=dce -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: %kiln-opt %s --cse --dce --mlir-print-ir-before-all --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: %kiln-opt %s --cse --dce --mlir-print-ir-after-all --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// RUN: %kiln-opt %s -p 'builtin.module(cse)' --mlir-print-ir-after=cse,dce 2>/dev/null | FileCheck %s --check-prefix=STDOUT

// BEFORE:      // -----// IR Dump Before Cse (cse) //----- //
// BEFORE-NEXT: module {
// BEFORE-COUNT-2: hl.add
// BEFORE-NOT:  IR Dump

// AFTER-NOT:   IR Dump {{.*}}(cse)
// AFTER:       // -----// IR Dump After Dce (dce) //----- //
// AFTER-COUNT-1: hl.add
// AFTER-NOT:   hl.add

// ALL:      IR Dump Before Cse (cse)
// ALL:      IR Dump After Cse (cse)
// ALL:      IR Dump Before Dce (dce)
// ALL:      IR Dump After Dce (dce)

// Only cse changes the IR.
// CHANGE:     IR Dump After Cse (cse)
// CHANGE-NOT: IR Dump

// The dumps do not go to stdout.
// STDOUT-NOT: IR Dump
// STDOUT:     func.func @f

"func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "f"}> ({
^bb0(%a: tensor<4xf32>):
  %0 = "hl.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "hl.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "hl.mul"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%2) : (tensor<4xf32>) -> ()
}) : () -> ()

// --mlir-timing and --mlir-pass-statistics report to stderr after the run, as mlir-opt does,
// with parsing and printing as rows of their own.
// RUN: %kiln-opt %s --allow-unregistered-dialect --cse --dce --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: %kiln-opt %s --allow-unregistered-dialect --cse --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: %kiln-opt %s --allow-unregistered-dialect --split-input-file --cse --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT

// TIMING:      {{^                         }}... Execution time report ...
// TIMING:      Total Execution Time: {{[0-9.]+}} seconds
// TIMING:      ----Wall Time----  ----Name----
// TIMING-NEXT: {{[0-9.]+ +\( *[0-9.]+%\)}}  Parser
// TIMING-NEXT: {{[0-9.]+ +\( *[0-9.]+%\)}}  Cse
// TIMING-NEXT: {{[0-9.]+ +\( *[0-9.]+%\)}}  Dce
// TIMING-NEXT: {{[0-9.]+ +\( *[0-9.]+%\)}}  Output
// TIMING-NEXT: {{[0-9.]+}} (100.0%)  Total

// A nested pipeline's row comes above the rows of the passes it ran, as in mlir-opt's tree;
// --mlir-timing-display=list gives one row per name instead.
// RUN: %kiln-opt %s --allow-unregistered-dialect -p 'builtin.module(func.func(cse, dce))' --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TREE
// TREE:      Parser
// TREE-NEXT: {{^ +[0-9.]+ +\( *[0-9.]+%\)  }}'func.func' Pipeline
// TREE-NEXT: {{^ +[0-9.]+ +\( *[0-9.]+%\)    }}Cse
// TREE-NEXT: {{^ +[0-9.]+ +\( *[0-9.]+%\)    }}Dce
// TREE-NEXT: Output
// RUN: %kiln-opt %s --allow-unregistered-dialect -p 'builtin.module(func.func(cse, dce))' --mlir-timing --mlir-timing-display=list -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST
// LIST-COUNT-5: {{^ +[0-9.]+ +\( *[0-9.]+%\)  [^ ]}}
// LIST-NEXT: Total

// STATS:      ... Pass statistics report ...
// STATS:      Cse
// STATS-NEXT:   (S) 1 {{[a-z-]+}}'d - {{.*}}

// Times of all chunks add up in one report.
// SPLIT-COUNT-1: Execution time report
// SPLIT-COUNT-1: Parser

"func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "f"}> ({
^bb0(%a: tensor<4xf32>):
  %0 = "hl.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "hl.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "hl.mul"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%2) : (tensor<4xf32>) -> ()
}) : () -> ()

// -----

"unk.x"() : () -> ()

// -o writes the output to a file; `-` and no input read stdin, whose diagnostics are named
// `<stdin>`; a failed run leaves no output file.
// RUN: %kiln-opt %s --allow-unregistered-dialect -o %t.out
// RUN: FileCheck %s < %t.out
// RUN: %kiln-opt --allow-unregistered-dialect < %s | FileCheck %s
// RUN: %kiln-opt - --allow-unregistered-dialect < %s | FileCheck %s
// RUN: %kiln-opt --allow-unregistered-dialect -o - < %s | FileCheck %s
// RUN: not %kiln-opt < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: rm -f %t.fail
// RUN: not %kiln-opt %s -o %t.fail
// RUN: not cat %t.fail

// CHECK: "unk.op"() {value = 42 : i64} : () -> ()

// STDIN: <stdin>:[[@LINE+1]]:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
"unk.op"() {value = 42 : i64} : () -> ()

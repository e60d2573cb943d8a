// Bad invocations and inputs are clear errors with exit 1, and nothing is written.
// RUN: rm -rf %t && mkdir %t
// RUN: not %kiln-translate --allow-unregistered-dialect --emit-bytecode %s 2>&1 | FileCheck %s --check-prefix=NOOUT
// RUN: not %kiln-translate --allow-unregistered-dialect --emit-bytecode %s -o %t/out.kbc 2>&1 | FileCheck %s --check-prefix=UNPLANNED
// RUN: not cat %t/out.kbc
// RUN: not %kiln-translate --disassemble %s -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=NOTKBC
// RUN: not cat %t/out.mlir
// RUN: not %kiln-translate --disassemble %t/missing.kbc 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %kiln-translate --emit-bytecode --disassemble %s 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not %kiln-translate --allow-unregistered-dialect --emit-bytecode %S/Inputs/too-much-ub.mlir -o %t/big.kbc 2>&1 | FileCheck %s --check-prefix=INVALID
// RUN: not cat %t/big.kbc
// RUN: not %kiln-translate --dissassemble %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %kiln-translate --allow-unregistered-dialect --emit-bytecode %s -o %t/out.kbc --target nosuchchip 2>&1 | FileCheck %s --check-prefix=TARGET

// NOOUT: kiln-translate: error: --emit-bytecode needs an output file: -o FILE
// UNPLANNED: errors.mlir:[[# @LINE + 8]]:8: error: 'npuvec.alloc' op is an unplanned buffer: run kiln-codegen-plan-ub first
// NOTKBC: kiln-translate: error: {{.*}}errors.mlir: bytecode:0x0: not Kiln bytecode
// MISSING: kiln-translate: error: cannot read '{{.*}}missing.kbc'
// BOTH: error: the argument '--emit-bytecode' cannot be used with '--disassemble'
// UNKNOWN: kiln-translate: Did you mean '--disassemble'?
// INVALID: kiln-translate: error: the emitted bytecode does not validate for 'tiny-npu': bytecode: kernel 'k': ub_bytes 1048576 exceeds the target's usable UB (16384 bytes)
// TARGET: kiln-translate: error: unknown target 'nosuchchip'
func.func private @k(%x: memref<8xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 32 : i64} {
  %b = "npuvec.alloc"() : () -> memref<1x8xf32, #npuvec.space<ub>>
  return
}
func.func @f(%x: memref<8xf32, #npuvec.space<gm>>) {
  "npuvec.launch"(%x) {callee = @k} : (memref<8xf32, #npuvec.space<gm>>) -> ()
  return
}

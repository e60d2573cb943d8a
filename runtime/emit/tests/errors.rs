//! Located errors for IR the emitter cannot turn into bytecode.

mod common;

use common::emit_text;

/// A module with kernel body `body` (GM argument `%x`, `memref<8x8xf32>`) and its launch.
fn kernel(body: &str) -> String {
    format!(
        "func.func private @k(%x: memref<8x8xf32, #npuvec.space<gm>>) attributes {{npuvec.block_dim = 1 : i64, \
         npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 256 : i64}} {{\n{body}  return\n}}\n\
         func.func @f(%x: memref<8x8xf32, #npuvec.space<gm>>) {{\n  \
         \"npuvec.launch\"(%x) {{callee = @k}} : (memref<8x8xf32, #npuvec.space<gm>>) -> ()\n  return\n}}\n"
    )
}

fn error_of(text: &str) -> String {
    match emit_text(text) {
        Ok(m) => panic!("emitted {m:?}"),
        Err(e) => e,
    }
}

#[test]
fn an_unplanned_buffer_names_the_missing_pass() {
    let e = error_of(&kernel("  %b = \"npuvec.alloc\"() : () -> memref<8x8xf32, #npuvec.space<ub>>\n"));
    assert!(
        e.starts_with(
            "input.mlir:2:8: error: 'npuvec.alloc' op is an unplanned buffer: run kiln-codegen-plan-ub first"
        ),
        "{e}"
    );
}

#[test]
fn a_kernel_without_its_plan_names_the_missing_pass() {
    let text = kernel("").replace(", npuvec.ub_bytes = 256 : i64", "");
    let e = error_of(&text);
    assert!(
        e.contains(
            "error: 'func.func' op has no `npuvec.ub_bytes` attribute: run kiln-codegen-plan-ub first"
        ),
        "{e}"
    );
}

#[test]
fn an_op_without_an_instruction_is_named() {
    // (An unknown op of a known dialect, `npuvec.frobnicate`, already fails verification.)
    let e = error_of(&kernel("  %c = \"test.frobnicate\"() : () -> index\n"));
    assert!(e.starts_with("input.mlir:2:8: error: 'test.frobnicate' op has no bytecode instruction"), "{e}");
}

#[test]
fn running_out_of_registers_is_located_at_the_value_that_does_not_fit() {
    let n = kiln_bytecode::isa::NUM_REGS + 1;
    let mut body: String =
        (0..n).map(|i| format!("  %v{i} = \"npuvec.block_idx\"() : () -> index\n")).collect();
    body.push_str("  %s0 = arith.addi %v0, %v1 : index\n");
    for i in 2..n {
        body.push_str(&format!("  %s{} = arith.addi %s{}, %v{i} : index\n", i - 1, i - 2));
    }
    let e = error_of(&kernel(&body));
    let want = format!("input.mlir:{}:10: error: 'npuvec.block_idx' op needs a register, but all 64 registers hold live values", n + 1);
    assert!(e.starts_with(&want), "{e}");
}

#[test]
fn a_gm_buffer_made_inside_a_kernel_is_an_error() {
    let body =
        "  %b = \"npuvec.buffer\"() {offsets = array<i64: 0>} : () -> memref<8x8xf32, #npuvec.space<ub>>\n  \
                %g = memref.alloc() : memref<8x8xf32, #npuvec.space<gm>>\n  \
                %c0 = arith.constant 0 : index\n  \
                \"npuvec.load\"(%g, %c0, %b) {sizes = array<i64: 64>, strides = array<i64: 1>} : \
                (memref<8x8xf32, #npuvec.space<gm>>, index, memref<8x8xf32, #npuvec.space<ub>>) -> ()\n";
    let e = error_of(&kernel(body));
    assert!(e.starts_with("input.mlir:3:8: error: 'memref.alloc' op has no bytecode instruction"), "{e}");
}

#[test]
fn a_pinned_register_that_is_still_live_is_an_error() {
    let body = "  %a = \"npuvec.block_idx\"() {npuvec.reg = 3 : i64} : () -> index\n  \
                %b = \"npuvec.block_num\"() {npuvec.reg = 3 : i64} : () -> index\n  \
                %s = arith.addi %a, %b : index\n";
    let e = error_of(&kernel(body));
    assert!(e.starts_with("input.mlir:3:8: error: 'npuvec.block_num' op asks for register r3"), "{e}");
    assert!(e.contains("note: the value in that register is defined here"), "{e}");
}

#[test]
fn a_module_for_another_target_is_refused() {
    let text = format!("module attributes {{npuvec.target = \"ascend910b\"}} {{\n{}}}\n", kernel(""));
    let e = error_of(&text);
    assert!(e.contains("error: module was compiled for target \"ascend910b\", not for 'tiny-npu'"), "{e}");
}

//! A double-buffered kernel as `kiln-codegen` writes it: two copies of each tile buffer,
//! ping-pong flags across iterations (set before the loop, waited at the head, set at the
//! tail, drained after), a clean run under the sync checker — and a report (hazard, deadlock
//! or leaked flag) for every one of its `set_flag` / `wait_flag` instructions deleted in turn.

use bumpalo::Bump;
use kiln_bytecode::isa::Inst;
use kiln_compiler::syntax::{parse_bytes, print_module, PrintOptions};
use kiln_compiler::Context;
use kiln_dialects::hl::interp::{random_tensor, DType};
use kiln_emit::compile::compile;
use kiln_run::convert::to_host;
use kiln_targets::Target;
use kiln_vm::sync_check::check;

/// The chain over `rows x 300` f32: tiles of 3 rows on the two cores of tiny-npu-fast-dma (on
/// which double buffering pays, see `targets/tiny-npu-fast-dma.toml`), so with 64 rows
/// the tail tile runs in the first half ("ping") of an unrolled iteration, with 70 in the
/// second ("pong"): between them every branch of the kernel runs.
fn program(rows: usize) -> String {
    let t = format!("tensor<{rows}x300xf32>");
    format!(
        "func.func @f(%a: {t}, %b: {t}) -> {t} {{
           %0 = hl.add %a, %b : {t}
           %1 = hl.exp %0 : {t}
           %2 = hl.mul %1, %a : {t}
           return %2 : {t}
         }}"
    )
}

/// `code` without instruction `at`, the loops and branches around it one shorter.
fn delete(code: &[Inst], at: usize) -> Vec<Inst> {
    let mut out = code.to_vec();
    for (i, inst) in out.iter_mut().enumerate().take(at) {
        match inst {
            Inst::For { body, .. } if at <= i + *body as usize => *body -= 1,
            Inst::If { then_len, else_len, .. } => {
                if at <= i + *then_len as usize {
                    *then_len -= 1;
                } else if at <= i + (*then_len + *else_len) as usize {
                    *else_len -= 1;
                }
            }
            _ => {}
        }
    }
    out.remove(at);
    out
}

#[test]
fn every_deleted_flag_of_a_compiled_double_buffered_kernel_is_reported() {
    let target = Target::load("tiny-npu-fast-dma").unwrap();
    let mut unreported: Option<Vec<usize>> = None;
    for rows in [64, 70] {
        let arena = Bump::new();
        let ctx = Context::new(&arena, kiln_dialects::all_dialects());
        let mut module = parse_bytes(&ctx, program(rows).as_bytes(), "program").expect("parses");
        let program =
            compile(&ctx, &mut module.ir, module.top, &target, "tiny-npu-fast-dma", 2).expect("compiles");
        let text = print_module(&ctx, &module, &PrintOptions::default());
        assert!(text.contains("buffers = 2"), "the tile loop is double-buffered:\n{text}");
        assert!(text.contains("%0:2 = npuvec.buffer ["), "buffers come in pairs:\n{text}");
        let inputs: Vec<_> =
            (0..2).map(|s| to_host(&random_tensor(DType::F32, vec![rows, 300], s)).unwrap()).collect();
        assert_eq!(check(&target, &program, &inputs).unwrap(), vec![], "clean as compiled");
        let code = &program.kernels[0].code;
        let carried = code.iter().filter(|i| matches!(i, Inst::SetFlag { event, .. } if *event != 0)).count();
        assert!(carried >= 4, "ping and pong flags: a set before the loop and one at the tail of each");
        // A deletion in a branch that does not run goes unseen: each must show with one shape.
        let silent: Vec<usize> = code
            .iter()
            .enumerate()
            .filter(|(_, i)| matches!(i, Inst::SetFlag { .. } | Inst::WaitFlag { .. }))
            .map(|(at, _)| at)
            .filter(|&at| unreported.as_ref().is_none_or(|u| u.contains(&at)))
            .filter(|&at| {
                let mut m = program.clone();
                m.kernels[0].code = delete(code, at);
                check(&target, &m, &inputs).expect("the run completes or deadlocks").is_empty()
            })
            .collect();
        unreported = Some(silent);
    }
    assert_eq!(unreported, Some(vec![]), "deleting these flags goes unreported with both shapes");
}

//! What the differential tests share: the example programs, running a pipeline and then the
//! `hl` interpreter on seeded inputs, and bitwise comparison of results.

use bumpalo::Bump;
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::{parse_pipeline, Instrumentation};
use kiln_compiler::syntax::parse_source;
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, Diagnostic, Module, OpId, SourceMgr};
use kiln_dialects::fused::RegionKind;
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::interp::program::{dtype_of, run_function};
use kiln_dialects::hl::interp::{random_tensor, Tensor};

/// Every program in `examples/`, as (path, text), sorted by path.
pub fn examples() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 4, "expected the example programs, found {}", out.len());
    out
}

/// The outcome of [`run`].
pub struct Run {
    /// The first function's results.
    pub results: Vec<Tensor>,
    /// How many `fused.region`s the module holds after the pipeline.
    #[allow(dead_code)] // each test binary compiles this module; not all of them read it
    pub regions: usize,
    /// How many of them are `attention` regions.
    #[allow(dead_code)]
    pub attention: usize,
}

fn first_func(m: &Module<'_>) -> OpId {
    let ir = &m.ir;
    let body = ir.entry_block(ir.regions(m.top)[0]).unwrap();
    ir.block_ops(body).find(|&op| ir.op(op).name == "func.func").expect("a function")
}

/// Parses `text`, runs `pipeline` (none when empty) verifying after each pass, and interprets
/// the first function on inputs drawn from `seed`. Any diagnostic fails the test.
pub fn run(text: &str, pipeline: &str, seed: u64) -> Run {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    // Pipelines may pass through TOSA, whose ops are unregistered in Kiln (hl-to-tosa).
    ctx.set_allow_unregistered(true);
    let mut sm = SourceMgr::new();
    sm.add("test.mlir", text);
    let fail = |d: Vec<Diagnostic<'_>>| -> ! {
        panic!("{pipeline}\n{text}\n{}", d.iter().map(|d| sm.render(d)).collect::<String>())
    };
    let mut m = parse_source(&ctx, text, "test.mlir").unwrap_or_else(|d| fail(d));
    verify(&ctx, &m.ir, m.top).unwrap_or_else(|d| fail(d));
    if !pipeline.is_empty() {
        let mut pm = parse_pipeline(pipeline, &kiln_passes::registry()).unwrap();
        let mut instr = Instrumentation::default();
        instr.verify_each = true;
        let mut diags = Vec::new();
        if pm.run(&ctx, &mut m.ir, m.top, &mut instr, &mut diags).is_err() {
            fail(diags);
        }
        verify(&ctx, &m.ir, m.top).unwrap_or_else(|d| fail(d));
    }
    let regions =
        m.ir.walk(m.top, WalkOrder::PreOrder).filter(|&o| m.ir.op(o).name == "fused.region").count();
    let attention =
        m.ir.walk(m.top, WalkOrder::PreOrder)
            .filter(|&o| RegionKind::of_region(&m.ir, o) == Some(RegionKind::Attention))
            .count();
    let func = first_func(&m);
    let entry = m.ir.entry_block(m.ir.regions(func)[0]).unwrap();
    let args: Vec<Tensor> =
        m.ir.block_args(entry)
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                let (shape, elem) = tensor_parts(m.ir.value_type(a)).unwrap();
                let dims = shape.iter().map(|&d| d as usize).collect();
                random_tensor(dtype_of(elem).unwrap(), dims, seed * 1000 + i as u64)
            })
            .collect();
    let results = run_function(&ctx, &m.ir, func, &args).unwrap_or_else(|d| fail(vec![d]));
    Run { results, regions, attention }
}

/// Bitwise equality (a NaN must stay the same NaN).
pub fn assert_bit_identical(a: &[Tensor], b: &[Tensor], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: result counts differ");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.shape(), y.shape(), "{what}: result #{i} shapes differ");
        assert_eq!(x.dtype(), y.dtype(), "{what}: result #{i} dtypes differ");
        let bits = |t: &Tensor| t.to_f64s().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert!(bits(x) == bits(y), "{what}: result #{i} differs bitwise");
    }
}

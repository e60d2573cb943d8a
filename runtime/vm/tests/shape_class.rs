//! Programs of shape classes on the VM: one compiled elementwise chain and one row softmax,
//! each run on many row counts `n` (1, odd sizes, tails, many tiles per core) on both
//! shipped targets, against plain Rust, with the sync checker clean; and every way the
//! inputs or the tiling data can be wrong, each a clear error before anything out of range
//! runs.

mod classes;
mod common;

use classes::*;
use common::{f32_bytes, f32s, randoms, tensor};
use kiln_bytecode::isa::DType;
use kiln_bytecode::module::TensorSpec;
use kiln_bytecode::shape::ClassModule;
use kiln_targets::Target;
use kiln_vm::{HostTensor, Vm, VmConfig};

const SIZES: [u64; 6] = [1, 7, 31, 64, 1000, 1001];

fn targets() -> Vec<Target> {
    ["tiny-npu", "ascend910b"].iter().map(|t| Target::load(t).expect("target loads")).collect()
}

fn input(n: u64, cols: u64, seed: u64) -> HostTensor {
    let v = randoms((n * cols) as usize, seed, -4.0, 4.0);
    tensor(TensorSpec { dtype: DType::F32, shape: vec![n, cols] }, f32_bytes(&v))
}

/// Loads the program's bytes back (the loader's proof for every shape), runs it with the sync
/// checker, and returns the output.
fn run_checked(target: &Target, program: &ClassModule, inputs: &[HostTensor]) -> Vec<f32> {
    let bytes = kiln_bytecode::encode_class(program);
    let loaded = kiln_bytecode::load_class(&bytes, target).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&loaded, program);
    let reports = kiln_vm::sync_check::check_class(target, &loaded, inputs).expect("the run completes");
    assert!(reports.is_empty(), "{}: sync reports {reports:?}", target.name);
    let out = Vm::new(target).run_class(&loaded, inputs).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.tensors.len(), 1);
    assert_eq!(out.tensors[0].spec.shape, inputs.last().unwrap().spec.shape);
    f32s(&out.tensors[0].bytes)
}

#[test]
fn elementwise_chain_on_every_size_and_target() {
    for target in targets() {
        let program = chain(&target, 16, 64);
        for n in SIZES {
            let (x, y) = (input(n, 64, n), input(n, 64, n + 100));
            let got = run_checked(&target, &program, &[x.clone(), y.clone()]);
            assert_eq!(got, chain_ref(&f32s(&x.bytes), &f32s(&y.bytes)), "{} n = {n}", target.name);
        }
    }
}

#[test]
fn row_softmax_on_every_size_and_target() {
    for target in targets() {
        for (tile, cols) in [(16, 64), (2, 768)] {
            let program = softmax(&target, tile, cols);
            for n in SIZES {
                let x = input(n, cols as u64, 7 * n);
                let got = run_checked(&target, &program, std::slice::from_ref(&x));
                let want = softmax_ref(&f32s(&x.bytes), cols as usize);
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        (g - w).abs() <= 1e-6 + 1e-4 * w.abs(),
                        "{} softmax {tile}x{cols} n = {n}: element {i} is {g}, expected {w}",
                        target.name
                    );
                }
            }
        }
    }
}

#[test]
fn fast_paths_and_reference_agree_on_tails() {
    let target = Target::load("tiny-npu").unwrap();
    let program = softmax(&target, 16, 64);
    for n in [7, 31, 33] {
        let x = input(n, 64, n);
        let run = |fast_paths| {
            let vm = Vm::with_config(&target, VmConfig { fast_paths, ..VmConfig::default() });
            let mut events = Vec::new();
            let out = vm
                .run_class_with(&program, std::slice::from_ref(&x), &mut |e| events.push(e.clone()))
                .unwrap();
            (out, events)
        };
        let ((fast, fe), (slow, se)) = (run(true), run(false));
        assert_eq!(fast.tensors, slow.tensors, "n = {n}");
        assert_eq!(fast.counters.total, slow.counters.total, "n = {n}");
        assert_eq!(fe, se, "n = {n}");
        // A tail tile moves only its rows: 7 rows of 64 f32 in and out.
        if n == 7 {
            assert_eq!(fast.counters.total.gm_read, 7 * 64 * 4);
            assert_eq!(fast.counters.total.gm_written, 7 * 64 * 4);
        }
    }
}

#[test]
fn binding_gives_the_host_program_and_tiling_data_of_the_shape() {
    let target = Target::load("tiny-npu").unwrap();
    let program = chain(&target, 16, 64);
    let (x, y) = (input(20, 64, 1), input(20, 64, 2));
    let bound = program.bind(&[x.spec.clone(), y.spec.clone()]).unwrap();
    assert_eq!(bound.symbols, vec![20]);
    assert_eq!(bound.params, vec![vec![20, 2]]);
    assert_eq!(bound.host.temps, vec![20 * 64 * 4]);
    assert_eq!(bound.host.outputs[0].0.shape, vec![20, 64]);
}

fn error(program: &ClassModule, inputs: &[HostTensor]) -> String {
    let target = Target::load(&program.module.target).unwrap();
    let err = Vm::new(&target).run_class(program, inputs).expect_err("the run is refused");
    err.to_string()
}

fn spec_only(shape: &[u64]) -> HostTensor {
    tensor(TensorSpec { dtype: DType::F32, shape: shape.to_vec() }, Vec::new())
}

#[test]
fn wrong_rank_is_refused_naming_the_input() {
    let program = chain(&Target::load("tiny-npu").unwrap(), 16, 64);
    let e = error(&program, &[input(7, 64, 1), spec_only(&[7, 64, 1])]);
    assert_eq!(e, "input #1: expected tensor<?x64xf32>, got tensor<7x64x1xf32> (the rank differs)");
}

#[test]
fn static_dim_mismatch_is_refused_naming_the_dim() {
    let program = chain(&Target::load("tiny-npu").unwrap(), 16, 64);
    let e = error(&program, &[input(7, 65, 1), input(7, 64, 2)]);
    assert_eq!(
        e,
        "input #0 dim 1: expected 64, got 65 (the input is tensor<7x65xf32>, the program takes tensor<?x64xf32>)"
    );
}

#[test]
fn inconsistent_symbol_is_refused_naming_both_dims() {
    let program = chain(&Target::load("tiny-npu").unwrap(), 16, 64);
    let e = error(&program, &[input(7, 64, 1), input(8, 64, 2)]);
    assert_eq!(e, "input #1 dim 0 is 8, but symbol `n` is 7 (from input #0 dim 0)");
    let e = error(&program, &[spec_only(&[0, 64]), spec_only(&[0, 64])]);
    assert!(e.starts_with("input #0 dim 0 is 0; symbol `n` must be in 1..="), "{e}");
}

#[test]
fn overflowing_sizes_are_refused_before_anything_runs() {
    let program = chain(&Target::load("tiny-npu").unwrap(), 16, 64);
    let n = 1u64 << 58;
    let e = error(&program, &[spec_only(&[n, 64]), spec_only(&[n, 64])]);
    assert_eq!(e, format!("temporary #0's byte size: `n * 256` fails for n = {n}: {n} * 256 overflows"));
}

#[test]
fn tiling_data_outside_the_kernels_ranges_is_refused_before_the_launch() {
    let program = chain(&Target::load("tiny-npu").unwrap(), 16, 64);
    let n = (MAX_N + 1) as u64;
    let e = error(&program, &[spec_only(&[n, 64]), spec_only(&[n, 64])]);
    assert_eq!(
        e,
        format!(
            "launch #0 of kernel 'chain' parameter 0: `n` is {n} for n = {n}, outside the kernel's 1..={MAX_N}"
        )
    );
}

#[test]
fn an_extent_past_its_static_maximum_is_refused_at_its_instruction() {
    // A broken kernel: its loads and stores take their rows from `n` itself, not from the
    // tile's rows, so any n above the tile of 16 rows asks for more rows than the buffer has.
    let target = Target::load("tiny-npu").unwrap();
    let program = program(&target, "broken", tiled(16, 64, N, chain_body(16, 64)), 2, 16, 64);
    let out = Vm::new(&target).run_class(&program, &[input(16, 64, 1), input(16, 64, 2)]).unwrap();
    assert_eq!(f32s(&out.tensors[0].bytes).len(), 16 * 64);
    let e = error(&program, &[input(31, 64, 1), input(31, 64, 2)]);
    let load = program.class.kernels[0].extents[0].inst;
    assert_eq!(
        e,
        format!(
            "kernel `broken` core 0 instruction #{load}: load: view dim 0 takes its size from r0 = 31, \
             outside 1..=16 (the dim's static maximum)"
        )
    );
}

#[test]
fn a_view_leaving_its_buffer_is_refused() {
    // The host says the output has n - 1 rows: the last tile's store would leave it.
    let target = Target::load("tiny-npu").unwrap();
    let mut program = chain(&target, 16, 64);
    let n = || kiln_bytecode::shape::Expr::sym(0);
    let one = kiln_bytecode::shape::Expr::constant(1);
    program.class.temps[0] = Some((n() - one) * kiln_bytecode::shape::Expr::constant(256));
    let e = error(&program, &[input(20, 64, 1), input(20, 64, 2)]);
    assert!(e.contains("instruction #") && e.contains("outside the buffer"), "{e}");
}

#[test]
fn an_inner_extent_leaves_the_other_columns_in_place() {
    // A load of [4, 16] whose columns come from parameter r0, then a store of the whole tile:
    // each loaded element keeps its place in the full tile (the rest of the UB is cleared
    // when the core starts), so row r of the output holds row r's first k values.
    use kiln_bytecode::isa::{Atomic, Dim, GmView, Inst, Pipe, Reg};
    use kiln_bytecode::module::{BufferRef, Core, Host, Kernel, Launch, Module};
    use kiln_bytecode::shape::{Expr, Extent, KernelClass, ParamRange, ShapeClass};
    let target = Target::load("tiny-npu").unwrap();
    let v = |arg| GmView {
        arg,
        offset: None,
        base: 0,
        dims: vec![Dim { size: 4, stride: 16 }, Dim { size: 16, stride: 1 }],
    };
    let buf = ub(0, 4, 16);
    let code = vec![
        Inst::Load { dst: buf, src: v(0), zero_pad: false },
        Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::Mte3, event: 0 },
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::Mte3, event: 0 },
        Inst::Store { dst: v(1), src: buf, atomic: Atomic::None },
    ];
    let spec = TensorSpec { dtype: DType::F32, shape: vec![4, 16] };
    let module = Module {
        target: target.name.clone(),
        kernels: vec![Kernel {
            name: "cols".into(),
            core: Core::Aiv,
            block_dim: 1,
            ub_bytes: 256,
            num_args: 2,
            code,
        }],
        host: Host {
            name: "main".into(),
            inputs: vec![TensorSpec { dtype: DType::I8, shape: vec![0] }, spec.clone()],
            temps: vec![256],
            launches: vec![Launch { kernel: 0, args: vec![BufferRef::Input(1), BufferRef::Temp(0)] }],
            outputs: vec![(spec.clone(), BufferRef::Temp(0))],
        },
        constants: vec![],
    };
    let extent = |inst| Extent { inst, dim: 1, reg: Reg(0) };
    let class = ShapeClass {
        symbols: vec!["k".into()],
        inputs: vec![vec![Some(0)], vec![None, None]],
        temps: vec![None],
        outputs: vec![vec![None, None]],
        launches: vec![vec![Expr::sym(0)]],
        kernels: vec![KernelClass { params: vec![ParamRange { min: 1, max: 16 }], extents: vec![extent(0)] }],
    };
    let program = ClassModule { module, class };
    kiln_bytecode::validate_class(&program, &target).unwrap();
    let x: Vec<f32> = (0..64).map(|i| i as f32 + 1.0).collect();
    for k in [1u64, 5, 16] {
        let inputs = [
            tensor(TensorSpec { dtype: DType::I8, shape: vec![k] }, vec![0; k as usize]),
            tensor(spec.clone(), f32_bytes(&x)),
        ];
        let out = run_checked(&target, &program, &inputs[..]);
        let want: Vec<f32> =
            x.iter().enumerate().map(|(i, &v)| if (i % 16) < k as usize { v } else { 0.0 }).collect();
        assert_eq!(out, want, "k = {k}");
    }
}

#[test]
fn static_programs_run_unchanged_through_the_class_entry() {
    let target = Target::load("tiny-npu").unwrap();
    let program = chain(&target, 16, 64);
    let as_static: ClassModule = program.module.clone().into();
    assert!(as_static.class.is_static());
    assert_eq!(kiln_bytecode::encode_class(&as_static), kiln_bytecode::encode(&program.module));
}

#[test]
fn simulated_time_matches_the_specialized_static_kernel() {
    // The static kernel a compiler would emit for a shape of whole tiles: the same code with
    // its tiling data as constants and no extents, under the bound host program. Same
    // results, and the simulated time within 10% (the extents cost nothing on the pipes).
    use kiln_bytecode::isa::Inst;
    use kiln_vm::cost::{simulate, simulate_class};
    for target in targets() {
        let program = softmax(&target, 16, 64);
        for n in [64u64, 992] {
            let x = input(n, 64, n);
            let bound = program.bind(std::slice::from_ref(&x.spec)).unwrap();
            let mut module = program.module.clone();
            module.host = bound.host.clone();
            let consts = bound.params[0]
                .iter()
                .enumerate()
                .map(|(r, &value)| Inst::Const { dst: kiln_bytecode::isa::Reg(r as u8), value });
            let code: Vec<Inst> = consts.chain(module.kernels[0].code.iter().cloned()).collect();
            module.kernels[0].code = code;
            let (fixed, fixed_cost) = simulate(&target, &module, std::slice::from_ref(&x), false)
                .map_err(|e| e.to_string())
                .unwrap_or_else(|e| panic!("{e}"));
            let (dynamic, cost) = simulate_class(&target, &program, std::slice::from_ref(&x), false).unwrap();
            let ratio = cost.total_ns / fixed_cost.total_ns;
            eprintln!(
                "{} n = {n}: static {:.0} ns, class {:.0} ns",
                target.name, fixed_cost.total_ns, cost.total_ns
            );
            assert_eq!(fixed.tensors, dynamic.tensors, "{} n = {n}", target.name);
            assert!(
                (0.9..=1.1).contains(&ratio),
                "{} n = {n}: class {} ns, static {} ns",
                target.name,
                cost.total_ns,
                fixed_cost.total_ns
            );
        }
    }
}

//! Programs of shape classes in the container: they round-trip, a static program's bytes
//! are those it had before shape classes, the static loader refuses a class, mutants of a
//! class's encoding load or fail cleanly (never panic, canonical when they decode), and each
//! rule of `validate_class` is an error naming what breaks it.

mod common;

use kiln_bytecode::isa::Reg;
use kiln_bytecode::module::TensorSpec;
use kiln_bytecode::shape::{ClassModule, Expr, Extent, ParamRange, Term};
use kiln_bytecode::{decode, decode_class, encode, encode_class, load_class, validate_class};
use kiln_targets::Target;

fn tiny() -> Target {
    Target::load("tiny-npu").unwrap()
}

#[test]
fn a_class_round_trips_and_a_static_program_keeps_its_bytes() {
    let program = common::class_sample();
    let bytes = encode_class(&program);
    assert_eq!(load_class(&bytes, &tiny()).unwrap(), program);
    assert_eq!(encode_class(&decode_class(&bytes).unwrap()), bytes);
    let e = decode(&bytes).unwrap_err().to_string();
    assert_eq!(
        e,
        "bytecode:0xc: this program was compiled for a shape class (it has a `shape class` section); \
         load it with `load_class`"
    );
    let sample = common::sample();
    let static_bytes = encode(&sample);
    assert_eq!(encode_class(&ClassModule::from(sample.clone())), static_bytes);
    assert_eq!(decode_class(&static_bytes).unwrap(), ClassModule::from(sample));
}

#[test]
fn binding_the_sample() {
    let program = common::class_sample();
    let spec = |shape: &[u64], d| TensorSpec { dtype: d, shape: shape.to_vec() };
    use kiln_bytecode::isa::DType::{F16, F32};
    let b = program.bind(&[spec(&[40, 16], F32), spec(&[40, 16], F32), spec(&[16, 32], F16)]).unwrap();
    assert_eq!(b.symbols, vec![40]);
    assert_eq!(b.params, vec![vec![40, 0], vec![]]);
    assert_eq!(b.host.temps, vec![40 * 64]);
    let e = program.bind(&[spec(&[40, 16], F32), spec(&[40, 16], F32), spec(&[16, 32], F32)]).unwrap_err();
    assert_eq!(e.0, "input #2: expected tensor<16x32xf16>, got tensor<16x32xf32> (the element type differs)");
    let e = program.bind(&[spec(&[40, 16], F32)]).unwrap_err();
    assert_eq!(e.0, "expected 3 inputs, got 1");
}

/// SplitMix64, a fixed-seed generator.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn corrupted_classes_load_or_fail_cleanly() {
    let target = tiny();
    let original = encode_class(&common::class_sample());
    let specs: Vec<TensorSpec> = common::sample().host.inputs;
    let (mut decoded, mut loaded, mut mutants) = (0, 0, 0);
    let mut check = |b: &[u8]| {
        mutants += 1;
        if let Ok(p) = decode_class(b) {
            decoded += 1;
            assert!(encode_class(&p) == b, "a mutant decodes to a program that encodes differently");
            // Binding never panics, validated or not.
            let _ = p.bind(&specs);
            if validate_class(&p, &target).is_ok() {
                loaded += 1;
            }
        }
    };
    // Flip each byte of the last 600 (the class section and the constants before it), and
    // truncate anywhere.
    let class_at = original.len() - 600.min(original.len());
    let mut b = original.clone();
    for i in class_at..b.len() {
        for mask in [0x01, 0x10, 0x80, 0xff] {
            b[i] ^= mask;
            check(&b);
            b[i] ^= mask;
        }
    }
    for len in 0..original.len() {
        check(&original[..len]);
    }
    let mut state = 0x7368_6170_6573u64;
    for _ in 0..10_000 {
        b.copy_from_slice(&original);
        let word = next(&mut state);
        let size = [1, 4, 8][(word % 3) as usize];
        let at = class_at + (next(&mut state) as usize) % (b.len() - class_at - size + 1);
        let value = [0, 1, 0xffff_ffff, u64::MAX, next(&mut state)][(word >> 8) as usize % 5];
        b[at..at + size].copy_from_slice(&value.to_le_bytes()[..size]);
        check(&b);
    }
    assert!(
        mutants > 10_000 && decoded > 500 && loaded > 50 && mutants - decoded > 1000,
        "{mutants} {decoded} {loaded}"
    );
}

fn invalid(edit: impl FnOnce(&mut ClassModule)) -> String {
    let mut p = common::class_sample();
    edit(&mut p);
    validate_class(&p, &tiny()).expect_err("the class is refused").to_string()
}

#[test]
fn every_class_rule_is_an_error() {
    let first_load = common::class_sample().class.kernels[0].extents[0].inst;
    assert_eq!(
        invalid(|p| p.class.kernels[0].extents[0].inst = 0),
        "bytecode:0xf0: kernel 'vector' instruction 0 (const): has an extent, but only a load's or a store's \
         view takes one (this is a `const`)"
    );
    let e = invalid(|p| p.class.kernels[0].extents[0].dim = 2);
    assert!(
        e.ends_with(&format!("instruction {first_load} (load): an extent names view dim 2, the view has 2")),
        "{e}"
    );
    let e = invalid(|p| p.class.kernels[0].extents.swap(0, 1));
    assert!(
        e.ends_with("extent 1 (instruction 6 dim 0) is out of order or repeated")
            || e.contains("out of order"),
        "{e}"
    );
    let e = invalid(|p| p.class.kernels[0].extents.push(Extent { inst: 10_000, dim: 0, reg: Reg(0) }));
    assert!(e.contains("names instruction 10000, the kernel has"), "{e}");
    let e = invalid(|p| p.class.kernels[0].extents[0].reg = Reg(64));
    assert!(e.ends_with("an extent reads register r64, which does not exist"), "{e}");
    assert_eq!(
        invalid(|p| p.module.host.inputs[0].shape[0] = 32),
        "bytecode: shape class: input #0 dim 0 is symbolic but the program holds 32, not 0"
    );
    assert_eq!(
        invalid(|p| p.class.inputs = vec![vec![None, None]; 3]),
        "bytecode: shape class: symbol `n` is named by no input dim"
    );
    assert_eq!(
        invalid(|p| drop(p.class.launches[0].pop())),
        "bytecode: shape class: launch #0 of kernel 'vector' gives 1 parameters, the kernel takes 2"
    );
    assert_eq!(
        invalid(|p| p.class.kernels[0].params[0] = ParamRange { min: 2, max: 1 }),
        "bytecode: kernel 'vector': parameter 0 has the empty range 2..=1"
    );
    assert_eq!(
        invalid(|p| p.class.temps[0] = Some(Expr::sym(1))),
        "bytecode: shape class: temporary #0: term 0 names symbol 1, the class has 1"
    );
    assert_eq!(
        invalid(|p| p.class.outputs[0][0] = Some(Expr(vec![Term::Sym(0), Term::Mul]))),
        "bytecode: shape class: output #0 dim 0: term 1 (*) has 1 operands, expected 2"
    );
    assert_eq!(
        invalid(|p| p.class.symbols.push("n".into())),
        "bytecode: shape class: symbol 1 has the name 'n', which is empty or taken"
    );
    assert_eq!(
        invalid(|p| drop(p.class.kernels.pop())),
        "bytecode: shape class: 1 kernel entries for the program's 2"
    );
    assert_eq!(
        invalid(|p| p.class.inputs[2].truncate(1)),
        "bytecode: shape class: 1 input #2 dim entries for the program's 2"
    );
}

/// `bytes` (a static program's five sections) with a sixth section of `class` bytes.
fn with_sixth_section(bytes: &[u8], class: &[u8]) -> Vec<u8> {
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let mut out = bytes[..12].to_vec();
    out.extend(6u32.to_le_bytes());
    for i in 0..5 {
        let entry = 16 + 24 * i;
        out.extend(&bytes[entry..entry + 8]);
        out.extend((u64_at(entry + 8) + 24).to_le_bytes());
        out.extend(u64_at(entry + 16).to_le_bytes());
    }
    let end = (bytes.len() + 24).next_multiple_of(8);
    out.extend(6u32.to_le_bytes());
    out.extend(0u32.to_le_bytes());
    out.extend((end as u64).to_le_bytes());
    out.extend((class.len() as u64).to_le_bytes());
    out.extend(&bytes[16 + 24 * 5..]);
    out.resize(end, 0);
    out.extend(class);
    out
}

#[test]
fn a_sixth_section_holding_a_static_class_is_refused() {
    let bytes = encode(&common::sample());
    // No symbols, inputs, temporaries, outputs, launches or kernels: the static class.
    let e = decode_class(&with_sixth_section(&bytes, &[0; 24])).unwrap_err().to_string();
    assert!(
        e.ends_with("the `shape class` section holds a static class; a static program has no such section"),
        "{e}"
    );
    // One symbol named by nothing: decodes, and validation refuses it.
    let mut class = vec![1, 0, 0, 0, 1, 0, 0, 0, b'n'];
    class.extend([0; 20]);
    let p = decode_class(&with_sixth_section(&bytes, &class)).unwrap();
    assert_eq!(p.class.symbols, vec!["n".to_string()]);
    let e = validate_class(&p, &tiny()).unwrap_err().to_string();
    assert_eq!(e, "bytecode: shape class: 0 input entries for the program's 3");
}

//! Encode -> decode gives the module back, and decode -> encode gives the bytes back.

mod common;

use kiln_bytecode::{decode, encode, format};

#[test]
fn every_variant_round_trips() {
    let m = common::every_variant();
    let bytes = encode(&m);
    assert_eq!(decode(&bytes).unwrap(), m);
}

#[test]
fn the_sample_round_trips() {
    let m = common::sample();
    let bytes = encode(&m);
    let back = decode(&bytes).unwrap();
    assert_eq!(back, m);
    assert_eq!(encode(&back), bytes);
}

#[test]
fn an_empty_module_round_trips() {
    let m = kiln_bytecode::module::Module::default();
    assert_eq!(decode(&encode(&m)).unwrap(), m);
}

#[test]
fn encoding_is_deterministic_and_starts_with_the_header() {
    let bytes = encode(&common::sample());
    assert_eq!(bytes, encode(&common::sample()));
    assert_eq!(bytes[..8], format::MAGIC);
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), format::VERSION);
}

#[test]
fn float_immediates_keep_their_bits() {
    use kiln_bytecode::isa::{Inst, Scalar};
    let mut m = common::every_variant();
    let nan = f64::from_bits(0x7ff8_dead_beef_0001);
    m.kernels[1].code.push(Inst::Fill { dst: common::ub(0, 1, 1), value: Scalar::Float(nan) });
    let bytes = encode(&m);
    match &decode(&bytes).unwrap().kernels[1].code[0] {
        Inst::Fill { value: Scalar::Float(v), .. } => assert_eq!(v.to_bits(), nan.to_bits()),
        other => panic!("decoded {other:?}"),
    }
    assert_eq!(encode(&decode(&bytes).unwrap()), bytes);
}

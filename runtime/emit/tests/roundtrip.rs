//! emit -> encode -> decode -> disassemble -> parse -> emit -> encode gives identical bytes.

mod common;

use common::{emit_text, input, tiny};

/// The round trip of one input; returns the disassembly.
fn round_trip(name: &str) -> String {
    let module = emit_text(&input(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let bytes = kiln_bytecode::encode(&module);
    let loaded = kiln_bytecode::load(&bytes, &tiny()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let text = kiln_emit::disassemble(&loaded, &tiny()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let again =
        emit_text(&text).unwrap_or_else(|e| panic!("{name}: re-emitting the disassembly: {e}\n{text}"));
    assert_eq!(kiln_bytecode::encode(&again), bytes, "{name}: the disassembly re-emits other bytes:\n{text}");
    // A second disassembly is the same text: the disassembly is a fixed point.
    assert_eq!(kiln_emit::disassemble(&again, &tiny()).unwrap(), text, "{name}");
    text
}

#[test]
fn a_vector_kernel_round_trips() {
    round_trip("vector.mlir");
}

#[test]
fn a_matmul_kernel_round_trips() {
    round_trip("matmul.mlir");
}

#[test]
fn a_host_with_two_launches_constants_and_a_reshape_round_trips() {
    round_trip("host.mlir");
}

#[test]
fn the_disassembly_of_the_vector_kernel() {
    insta::assert_snapshot!(round_trip("vector.mlir"));
}

//! `decode`: every malformed form is an error at a byte offset with the reason. Each test
//! patches the sample's bytes at a place the format spec (`kiln_bytecode::format`) fixes.

mod common;

use kiln_bytecode::{decode, encode};

fn sample() -> Vec<u8> {
    encode(&common::sample())
}

/// The (offset, length) of section `i` (0-based) from the section table.
fn section(bytes: &[u8], i: usize) -> (usize, usize) {
    let e = 16 + 24 * i;
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    (word(e + 8), word(e + 16))
}

fn put_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn put_u64(bytes: &mut [u8], at: usize, v: u64) {
    bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn error(bytes: &[u8]) -> String {
    decode(bytes).expect_err("malformed").to_string()
}

fn error_after(edit: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut b = sample();
    edit(&mut b);
    error(&b)
}

/// The file offset of word `w` of kernel 0's code.
fn code_word(bytes: &[u8], w: usize) -> usize {
    section(bytes, 2).0 + 8 + 24 + 8 * w
}

// Word indices in kernel 0's code: const, const, const, block_idx, block_num, for, const, then
// the scalar mul and the first load (a 3-word buffer, then the view).
const SCALAR: usize = 12;
const LOAD: usize = 13;

fn assert_has(e: &str, want: &str) {
    assert!(e.contains(want), "expected {want:?} in:\n{e}");
}

#[test]
fn wrong_magic_and_version() {
    let e = error_after(|b| b[0] = b'X');
    assert_eq!(e, "bytecode:0x0: not Kiln bytecode: the file starts with `XILNKBC\\x00`, expected the magic `KILNKBC\\x00`");
    assert_has(&error(b"\x7fELF"), "not Kiln bytecode: the file starts with `\\x7fELF`");
    let e = error_after(|b| put_u32(b, 8, 2));
    assert_eq!(e, "bytecode:0x8: unsupported bytecode format version 2; this loader reads version 1");
}

#[test]
fn truncation_at_every_length_is_an_error() {
    let bytes = sample();
    for len in 0..bytes.len() {
        assert!(decode(&bytes[..len]).is_err(), "a prefix of {len} bytes decodes");
    }
    assert_eq!(error(&bytes[..0]), "bytecode:0x0: truncated header: the magic needs 8 bytes, 0 are left");
    assert_eq!(
        error(&bytes[..10]),
        "bytecode:0x8: truncated header: the format version needs 4 bytes, 2 are left"
    );
    assert_eq!(
        error(&bytes[..30]),
        "bytecode:0x18: truncated header: a section table entry needs 8 bytes, 6 are left"
    );
    let e = error(&bytes[..bytes.len() - 1]);
    assert_has(&e, "section `constants` (offset ");
    assert_has(&e, &format!("runs past the end of the file ({} bytes)", bytes.len() - 1));
}

#[test]
fn section_table_errors() {
    let e = error_after(|b| put_u32(b, 12, 7));
    assert_eq!(e, "bytecode:0xc: the section table lists 7 sections, expected 5 (or 6 with a shape class)");
    // Six sections: a shape class's table, whose sixth entry is where the first section was.
    let e = error_after(|b| put_u32(b, 12, 6));
    assert_eq!(e, "bytecode:0x18: section `target name` at 0x88 overlaps the section table");
    assert_eq!(error_after(|b| put_u32(b, 16 + 24, 9)), "bytecode:0x28: unknown section kind 9");
    let e = error_after(|b| put_u32(b, 16 + 24, 3));
    assert_has(&e, "section table entry 1 is section `kernels`, expected `names`");
    assert_has(
        &error_after(|b| b[16 + 4] = 1),
        "bytecode:0x14: nonzero reserved field in the entry of section `target name`",
    );
    let e = error_after(|b| put_u64(b, 16 + 24 * 2 + 16, 1 << 40));
    assert_has(&e, "section `kernels` (offset 0x");
    assert_has(&e, "1099511627776 bytes) runs past the end of the file");
    let e = error_after(|b| put_u64(b, 16 + 24 * 2 + 16, u64::MAX));
    assert_has(&e, "runs past the end of the file");
    let e = error_after(|b| {
        let (names, _) = section(b, 1);
        put_u64(b, 16 + 24 * 2 + 8, names as u64);
    });
    assert_has(&e, "section `kernels` at 0x");
    assert_has(&e, "overlaps section `names`");
    assert_has(
        &error_after(|b| put_u64(b, 16 + 8, 64)),
        "section `target name` at 0x40 overlaps the section table",
    );
    let e = error_after(|b| {
        let (kernels, _) = section(b, 2);
        put_u64(b, 16 + 24 * 2 + 8, kernels as u64 + 8);
    });
    assert_has(&e, "starts at 0x");
    assert_has(&e, "(the next 8-byte boundary)");
}

#[test]
fn padding_and_trailing_bytes() {
    let bytes = sample();
    let (target, len) = section(&bytes, 0);
    assert_ne!(len % 8, 0, "the sample has padding after the target name");
    let e = error_after(|b| b[target + len] = 1);
    assert_eq!(e, format!("bytecode:{:#x}: nonzero padding before section `names`", target + len));
    let e = error_after(|b| b.push(0));
    assert_eq!(e, format!("bytecode:{:#x}: 1 trailing bytes after the last section", bytes.len()));
    // The target name "tiny-npu" said to be 4 bytes long: 4 bytes of the section are left.
    let e = error_after(|b| put_u32(b, target, 4));
    assert_eq!(
        e,
        format!("bytecode:{:#x}: 4 trailing bytes at the end of the section `target name`", target + 8)
    );
    let e = error_after(|b| put_u32(b, target, 9));
    assert_has(&e, "truncated section `target name`: the target name needs 9 bytes, 8 are left");
}

#[test]
fn strings_and_counts() {
    let bytes = sample();
    let (target, _) = section(&bytes, 0);
    assert_has(&error_after(|b| b[target + 4] = 0xff), "the target name is not UTF-8");
    let (names, _) = section(&bytes, 1);
    let e = error_after(|b| put_u32(b, names, 1 << 30));
    assert_has(&e, "name count 1073741824 exceeds what the ");
    assert_has(&e, "bytes left in the section `names` can hold");
    let e = error_after(|b| put_u32(b, names, 1));
    assert_has(&e, "trailing bytes at the end of the section `names`");
    let (kernels, _) = section(&bytes, 2);
    let e = error_after(|b| put_u64(b, kernels, u64::MAX));
    assert_has(&e, "kernel count 18446744073709551615 exceeds what the ");
    let e = error_after(|b| put_u64(b, kernels, 1));
    assert_eq!(e, format!("bytecode:{names:#x}: the names section lists 3 names, expected 2 (one per kernel and the host's)"));
    let e = error_after(|b| put_u64(b, kernels + 8 + 8, 1 << 32 | 4096));
    assert_has(&e, "bytecode:");
    assert_has(&e, "kernel 'vector': 1240 trailing bytes at the end of the kernel's code");
    let e = error_after(|b| put_u64(b, kernels + 8 + 16, 1 << 40));
    assert_has(&e, "code word count 1099511627776 exceeds what the ");
    let (constants, _) = section(&bytes, 4);
    // The constant's spec is 16 bytes (dtype, rank 2, two dims), then its byte length.
    let e = error_after(|b| put_u64(b, constants + 4 + 24, 1 << 50));
    assert_has(&e, "constant byte count 1125899906842624 exceeds what the ");
}

#[test]
fn unknown_enum_values() {
    let bytes = sample();
    let (kernels, _) = section(&bytes, 2);
    let e = error_after(|b| b[kernels + 8] = 3);
    assert_eq!(e, format!("bytecode:{:#x}: kernel 'vector': unknown core kind 3", kernels + 8));
    let at = code_word(&bytes, SCALAR);
    let e = error_after(|b| b[at + 3] = 13);
    assert_eq!(e, format!("bytecode:{at:#x}: kernel 'vector' instruction 7: unknown scalar op 13"));
    let at = code_word(&bytes, LOAD + 1);
    assert_has(
        &error_after(|b| b[at + 1] = 0x06),
        &format!("bytecode:{at:#x}: kernel 'vector' instruction 8: unknown memory space 6"),
    );
    assert_has(&error_after(|b| b[at + 1] = 0x71), "unknown element type 7");
    assert_has(&error_after(|b| b[at] = 7), "unknown operand tag 7");
    assert_has(&error_after(|b| b[at] = 1), "expected a buffer operand, found an immediate");
    assert_has(&error_after(|b| b[at + 2] = 1), "nonzero reserved bits in a buffer operand");
    let view = code_word(&bytes, LOAD + 4);
    assert_has(&error_after(|b| b[view + 4] = 5), "a GM view has 5 dims, at most 4 are allowed");
    assert_has(&error_after(|b| b[view + 5] = 1), "nonzero reserved bits in a GM view");
    let (host, _) = section(&bytes, 3);
    assert_has(
        &error_after(|b| b[host + 4] = 7),
        &format!("bytecode:{:#x}: unknown element type 7", host + 4),
    );
    // inputs: count and three specs of rank 2 (24 bytes); temps: count and one size; then the
    // launch count, kernel and argc of launch #0, and its first argument's kind.
    let arg = host + 4 + 3 * 24 + 4 + 8 + 4 + 8;
    assert_eq!(error_after(|b| b[arg] = 3), format!("bytecode:{arg:#x}: unknown buffer reference kind 3"));
}

#[test]
fn instruction_head_errors() {
    let bytes = sample();
    let at = code_word(&bytes, 0);
    let e = error_after(|b| b[at] = 0x7f);
    assert_eq!(e, format!("bytecode:{at:#x}: kernel 'vector' instruction 0: unknown opcode 0x7f"));
    assert_has(&error_after(|b| b[at + 1] = 9), "instruction 0: unknown pipe 9");
    let e = error_after(|b| b[at + 1] = 1);
    assert_has(&e, "instruction 0 (const): pipe field is `v`, the instruction runs on `s`");
    let e = error_after(|b| b[at + 2] = 2);
    assert_has(&e, "(const): operand length mismatch: the head gives 2 operand words, the operands take 1");
    let e = error_after(|b| b[at + 1] = 0x10);
    assert_has(&e, "(const): nonzero reserved bits 0x1000 in the head word");
    let e = error_after(|b| b[at + 5] = 3);
    assert_has(&e, "(const): nonzero reserved bits 0x30000000000 in the head word");
    // A `for` body length that does not fit 32 bits.
    let body = code_word(&bytes, 9);
    assert_has(
        &error_after(|b| b[body + 4] = 1),
        "instruction 5: a loop body length 4294967317 does not fit 32 bits",
    );
}

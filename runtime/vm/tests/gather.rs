//! `Gather`: rows of a GM table picked by i32 / i64 indices (negative ones from the end), along
//! the first dim or, by strides, another one; an index out of range is a located error; the
//! counters charge it and the sync checker sees its UB write on MTE2.

mod common;

use common::*;
use half::f16;
use kiln_bytecode::isa::{Atomic, DType, Dim, GmView, Inst, Pipe, Space, UnaryOp};
use kiln_bytecode::module::TensorSpec;
use kiln_vm::sync_check::{check, Issue};

fn indices(dtype: DType, values: &[i64]) -> Vec<u8> {
    match dtype {
        DType::I64 => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        _ => values.iter().flat_map(|&v| (v as i32).to_le_bytes()).collect(),
    }
}

fn gm(arg: u16, base: i64, dims: &[(u32, i64)]) -> GmView {
    GmView {
        arg,
        offset: None,
        base,
        dims: dims.iter().map(|&(size, stride)| Dim { size, stride }).collect(),
    }
}

/// Gathers `ids` from a `[rows, cols]` f32 table with `index` indices into `[ids, cols]`.
fn gather_rows(rows: u32, cols: u32, ids: &[i64], index: DType) -> Result<(Vec<f32>, Vec<f32>), String> {
    let table = randoms((rows * cols) as usize, 7, -4.0, 4.0);
    let n = ids.len() as u32;
    let dst = ub(DType::F32, 0, n, cols);
    let code = vec![
        Inst::Gather {
            dst,
            table: gm(0, 0, &[(rows, cols as i64), (cols, 1)]),
            indices: gm(1, 0, &[(n, 1)]),
            index,
        },
        Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::Mte3, event: 0 },
        Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::Mte3, event: 0 },
        Inst::Store { dst: gm(2, 0, &[(n, cols as i64), (cols, 1)]), src: dst, atomic: Atomic::None },
    ];
    let specs = [spec(DType::F32, &[rows as u64, cols as u64]), spec(index, &[n as u64])];
    let out = spec(DType::F32, &[n as u64, cols as u64]);
    let m = module(code, 1, &specs, std::slice::from_ref(&out));
    let inputs = [tensor(specs[0].clone(), f32_bytes(&table)), tensor(specs[1].clone(), indices(index, ids))];
    let got = run(&m, &inputs).map_err(|e| e.to_string())?;
    let c = &got.counters.total;
    assert_eq!((c.dma, c.gm_written), (1 + n as u64 + 1, (n * cols * 4) as u64));
    assert_eq!(c.gm_read, (n * cols * 4 + n * index.bytes()) as u64);
    Ok((f32s(&got.tensors[0].bytes), table))
}

#[test]
fn rows_by_i32_and_i64_indices_negative_from_the_end() {
    let ids = [3, 0, -1, 9, -10, 3, 5];
    for index in [DType::I32, DType::I64] {
        let (got, table) = gather_rows(10, 5, &ids, index).unwrap();
        let want: Vec<f32> = ids
            .iter()
            .flat_map(|&i| {
                let r = if i < 0 { i + 10 } else { i } as usize;
                table[r * 5..r * 5 + 5].to_vec()
            })
            .collect();
        assert_eq!(got, want, "{index:?}");
    }
}

#[test]
fn an_index_out_of_range_is_a_located_error() {
    for (bad, row) in [(10i64, 2), (-11, 2), (i64::MAX, 2)] {
        let ids = [1, 2, bad, 4];
        let e = gather_rows(10, 3, &ids, DType::I64).unwrap_err();
        assert_eq!(
            e,
            format!("kernel `k` core 0 instruction #0: gather index {bad} of row {row} is out of range for a table of 10 rows")
        );
    }
    // An i32 index is read as 4 bytes: 2^32 + 1 is 1 there, not out of range.
    assert!(gather_rows(10, 3, &[(1 << 32) + 1], DType::I32).is_ok());
}

#[test]
fn f16_slices_of_a_rank_3_table_and_a_middle_axis_by_strides() {
    // table [4, 6, 3] f16: gather axis 1 with 5 i32 indices -> [4, 5, 3], one gather per outer
    // index (the table view starts at o * 18; a slice is 3 elements, stride 3 apart).
    let (outer, size, inner) = (4u32, 6u32, 3u32);
    let table: Vec<f16> =
        randoms((outer * size * inner) as usize, 3, -2.0, 2.0).into_iter().map(f16::from_f32).collect();
    let ids = [5i64, -6, 2, 2, 0];
    let n = ids.len() as u32;
    let dst = ub(DType::F16, 0, n, inner);
    let mut code = Vec::new();
    for o in 0..outer as i64 {
        code.push(Inst::Gather {
            dst,
            table: gm(0, o * (size * inner) as i64, &[(size, inner as i64), (inner, 1)]),
            indices: gm(1, 0, &[(n, 1)]),
            index: DType::I32,
        });
        code.push(Inst::Barrier { pipe: Pipe::All });
        code.push(Inst::Store {
            dst: gm(2, o * (n * inner) as i64, &[(n * inner, 1)]),
            src: dst,
            atomic: Atomic::None,
        });
        code.push(Inst::Barrier { pipe: Pipe::All });
    }
    let specs = [spec(DType::F16, &[outer as u64, size as u64, inner as u64]), spec(DType::I32, &[n as u64])];
    let out = spec(DType::F16, &[outer as u64, n as u64, inner as u64]);
    let m = module(code, 1, &specs, std::slice::from_ref(&out));
    let bytes: Vec<u8> = table.iter().flat_map(|v| v.to_le_bytes()).collect();
    let inputs = [tensor(specs[0].clone(), bytes), tensor(specs[1].clone(), indices(DType::I32, &ids))];
    let got = run(&m, &inputs).unwrap().tensors[0].bytes.clone();
    let mut want = Vec::new();
    for o in 0..outer as usize {
        for &i in &ids {
            let r = if i < 0 { i + size as i64 } else { i } as usize;
            let at = (o * size as usize + r) * inner as usize;
            want.extend(table[at..at + inner as usize].iter().flat_map(|v| v.to_le_bytes()));
        }
    }
    assert_eq!(got, want);
}

#[test]
fn a_one_dim_table_gathers_elements() {
    let table = randoms(9, 5, -1.0, 1.0);
    let dst = ub(DType::F32, 0, 4, 1);
    let code = vec![
        Inst::Gather { dst, table: gm(0, 0, &[(9, 1)]), indices: gm(1, 0, &[(4, 1)]), index: DType::I32 },
        Inst::Barrier { pipe: Pipe::All },
        Inst::Store { dst: gm(2, 0, &[(4, 1)]), src: dst, atomic: Atomic::None },
    ];
    let specs = [spec(DType::F32, &[9]), spec(DType::I32, &[4])];
    let out = spec(DType::F32, &[4]);
    let m = module(code, 1, &specs, std::slice::from_ref(&out));
    let inputs = [
        tensor(specs[0].clone(), f32_bytes(&table)),
        tensor(specs[1].clone(), indices(DType::I32, &[8, 0, -2, 4])),
    ];
    let got = f32s(&run(&m, &inputs).unwrap().tensors[0].bytes);
    assert_eq!(got, vec![table[8], table[0], table[7], table[4]]);
}

#[test]
fn bad_gathers_are_errors_not_out_of_bounds_reads() {
    let dst = ub(DType::F32, 0, 2, 4);
    let specs = [spec(DType::F32, &[8, 4]), spec(DType::I32, &[2])];
    let out = spec(DType::F32, &[2, 4]);
    let inputs =
        [tensor(specs[0].clone(), vec![0; 128]), tensor(specs[1].clone(), indices(DType::I32, &[0, 1]))];
    let err = |table: GmView, indices: GmView, index: DType, dst| {
        let m =
            module(vec![Inst::Gather { dst, table, indices, index }], 1, &specs, std::slice::from_ref(&out));
        run(&m, &inputs).unwrap_err().to_string()
    };
    // The table view claims 9 rows of a buffer of 8.
    let e = err(gm(0, 0, &[(9, 4), (4, 1)]), gm(1, 0, &[(2, 1)]), DType::I32, dst);
    assert!(e.ends_with("gm view of argument #0 reaches elements [0, 35] outside the buffer's 32"), "{e}");
    let e = err(gm(0, 0, &[(8, 4), (4, 1)]), gm(1, 1, &[(2, 1)]), DType::I32, dst);
    assert!(e.ends_with("gm view of argument #1 reaches elements [1, 2] outside the buffer's 2"), "{e}");
    let e = err(gm(0, 0, &[(8, 4), (4, 1)]), gm(1, 0, &[(2, 1)]), DType::F32, dst);
    assert!(e.ends_with("gather indices of type f32, expected i32 or i64"), "{e}");
    // The table is read in the destination's type: as i64, the f32 table is half as long.
    let e = err(gm(0, 0, &[(8, 4), (4, 1)]), gm(1, 0, &[(2, 1)]), DType::I32, ub(DType::I64, 0, 2, 4));
    assert!(e.ends_with("gm view of argument #0 reaches elements [0, 31] outside the buffer's 16"), "{e}");
    let l1 = in_space(Space::L1, DType::F32, 0, 2, 4);
    let e = err(gm(0, 0, &[(8, 4), (4, 1)]), gm(1, 0, &[(2, 1)]), DType::I32, l1);
    assert!(e.contains("gather destination"), "{e}");
}

#[test]
fn the_sync_checker_sees_the_gather_write_on_mte2() {
    let dst = ub(DType::F32, 0, 2, 4);
    let specs = [spec(DType::F32, &[8, 4]), spec(DType::I32, &[2])];
    let out: TensorSpec = spec(DType::F32, &[2, 4]);
    let code = |flags: bool| {
        let mut c = vec![Inst::Gather {
            dst,
            table: gm(0, 0, &[(8, 4), (4, 1)]),
            indices: gm(1, 0, &[(2, 1)]),
            index: DType::I32,
        }];
        if flags {
            c.push(Inst::SetFlag { src: Pipe::Mte2, dst: Pipe::V, event: 0 });
            c.push(Inst::WaitFlag { src: Pipe::Mte2, dst: Pipe::V, event: 0 });
        }
        c.extend([
            Inst::Unary { op: UnaryOp::Neg, dst, src: dst },
            Inst::Barrier { pipe: Pipe::All },
            Inst::Store { dst: gm(2, 0, &[(8, 1)]), src: dst, atomic: Atomic::None },
        ]);
        module(c, 1, &specs, std::slice::from_ref(&out))
    };
    let inputs =
        [tensor(specs[0].clone(), vec![0; 128]), tensor(specs[1].clone(), indices(DType::I32, &[0, 1]))];
    assert_eq!(check(&tiny(), &code(true), &inputs).unwrap(), vec![]);
    let found = check(&tiny(), &code(false), &inputs).unwrap();
    assert!(found.iter().any(|r| matches!(r.issue, Issue::Hazard { .. })), "{found:?}");
    let text: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert!(text.iter().any(|t| t.contains("gather")), "{text:?}");
}

//! Bad input: errors at the op, of the right kind, in MLIR's wording; no panics.

use kiln_eager::{CmpPredicate, DType, ErrorKind, Flags, Session};

fn session() -> Session {
    Session::new(Flags::default()).unwrap()
}

#[test]
fn element_type_mismatches_are_dtype_errors() {
    let s = session();
    let f = s.tensor(&[1.0f32; 4], &[4]).unwrap();
    let i = s.tensor(&[1i32; 4], &[4]).unwrap();
    let e = f.add(&i).unwrap_err();
    assert_eq!(e.kind, ErrorKind::DType);
    assert!(e.message.starts_with("'hl.add' op operand #1 has element type 'i32'"), "{e}");
    let e = i.exp().unwrap_err();
    assert_eq!(e.kind, ErrorKind::DType);
    assert!(e.message.contains("'hl.exp' op operand #0 must be ranked tensor of f16, bf16 or f32"), "{e}");
    let e = f.select(&f, &f).unwrap_err();
    assert!(e.message.contains("condition must have element type 'i1'"), "{e}");
    assert_eq!(f.to_vec::<i32>().unwrap_err().kind, ErrorKind::DType);
    let mask = f.cmp(CmpPredicate::Gt, 0.0).unwrap();
    assert_eq!(mask.dtype(), DType::I1);
    assert_eq!(mask.to_vec::<bool>().unwrap(), vec![true; 4]);
    assert_eq!(s.pending_ops(), 0);
}

#[test]
fn shape_errors_name_the_shapes() {
    let s = session();
    let a = s.tensor(&[0.0f32; 6], &[2, 3]).unwrap();
    let e = a.reshape(&[4, 2]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Shape);
    assert!(e.message.contains("cannot reshape 'tensor<2x3xf32>' (6 elements) to 'tensor<4x2xf32>'"), "{e}");
    let e = a.sum(&[2], false).unwrap_err();
    assert!(e.message.contains("axis 2 is out of range for rank 2"), "{e}");
    let e = a.matmul(&a, false, false).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Shape);
    assert!(e.message.starts_with("'hl.matmul' op"), "{e}");
    let e = s.tensor(&[0.0f32; 5], &[2, 3]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Shape);
    assert!(e.message.contains("cannot make a 'tensor<2x3xf32>' from 5 elements"), "{e}");
    let e = s.assign(&a, &s.tensor(&[0.0f32; 3], &[3]).unwrap()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Shape);
}

#[test]
fn tensors_of_another_or_a_dropped_session_are_refused() {
    let s = session();
    let t = session();
    let a = s.tensor(&[1.0f32; 4], &[4]).unwrap();
    let b = t.tensor(&[1.0f32; 4], &[4]).unwrap();
    let e = a.add(&b).unwrap_err();
    assert_eq!(e.kind, ErrorKind::StaleHandle);
    assert_eq!(e.message, "the tensor belongs to another session");
    assert_eq!(s.assign(&a, &b).unwrap_err().kind, ErrorKind::StaleHandle);
    drop(t);
    assert_eq!(b.to_vec::<f32>().unwrap_err().kind, ErrorKind::SessionDropped);
    let c = b.clone();
    drop(b);
    assert_eq!(c.neg().unwrap_err().kind, ErrorKind::SessionDropped);
}

#[test]
fn a_failed_segment_fails_its_values_not_the_session() {
    let s = small_session();
    let big = s.tensor(&vec![1.0f32; 3072], &[3072]).unwrap();
    let y = big.exp().unwrap();
    let e = y.to_vec::<f32>().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Run, "{e}");
    assert_eq!(y.to_vec::<f32>().unwrap_err(), e, "the value keeps its error");
    let small = s.tensor(&[1.0f32; 4], &[4]).unwrap();
    assert_eq!(small.neg().unwrap().to_vec::<f32>().unwrap(), vec![-1.0; 4]);
}

/// A session whose VM holds 16 KiB of GM: a 3072-element `f32` value fits, but not with a
/// second one in the same run.
fn small_session() -> Session {
    let config = kiln_vm::VmConfig { max_gm_bytes: 16 << 10, ..kiln_vm::VmConfig::default() };
    Session::with_target(Flags::default(), kiln_targets::DEFAULT_TARGET, config).unwrap()
}

#[test]
fn a_segment_that_fails_when_a_later_op_flushes_it_does_not_fail_that_op() {
    // Issue 43: the error of a segment flushed because of the next op (here the reduction
    // closes it) came out of that op, which has nothing to do with it.
    let s = small_session();
    let big = s.tensor(&vec![1.0f32; 3072], &[3072]).unwrap();
    let x = big.exp().unwrap();
    let y = x.sum(&[0], false).unwrap();
    let small = s.tensor(&[1.0f32; 4], &[4]).unwrap();
    let z = small.mul(2.0).unwrap();
    let e = y.to_vec::<f32>().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Run, "{e}");
    assert_eq!(z.to_vec::<f32>().unwrap(), vec![2.0; 4]);
    // An op on a failed value gives its error.
    assert_eq!(x.neg().unwrap_err(), e);
    // An overwrite that flushes a failing segment succeeds too.
    let w = big.exp().unwrap();
    let big2 = s.tensor(&vec![2.0f32; 3072], &[3072]).unwrap();
    let t = big2.neg().unwrap();
    s.write(&big2, &[0.0f32; 3072]).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap_err().kind, ErrorKind::Run);
    assert_eq!(w.to_vec::<f32>().unwrap_err().kind, ErrorKind::Run);
    assert_eq!(big2.to_vec::<f32>().unwrap(), vec![0.0; 3072]);
}

#[test]
fn a_failed_segment_runs_again_op_by_op_so_that_its_error_stays_with_the_op_that_caused_it() {
    // One segment: `w` (12 KiB in, 12 KiB out) cannot run in 16 KiB of GM, `z` and `u` can;
    // the whole segment fails, then each op runs alone.
    let s = small_session();
    let big = s.tensor(&vec![1.0f32; 3072], &[3072]).unwrap();
    let small = s.tensor(&[1.0f32; 4], &[4]).unwrap();
    let z = small.mul(2.0).unwrap();
    let w = big.exp().unwrap();
    let u = z.add(1.0).unwrap();
    let v = w.neg().unwrap();
    assert_eq!(s.pending_ops(), 6);
    let e = s.sync().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Run, "{e}");
    assert_eq!(z.to_vec::<f32>().unwrap(), vec![2.0; 4]);
    assert_eq!(u.to_vec::<f32>().unwrap(), vec![3.0; 4]);
    assert_eq!(w.to_vec::<f32>().unwrap_err(), e);
    assert_eq!(v.to_vec::<f32>().unwrap_err(), e, "an op that reads a failed value fails with it");
}

#[test]
fn what_the_back_end_cannot_compile_is_refused_at_the_op() {
    // Issue 43, class 4: these were accepted and failed when their segment compiled.
    let s = session();
    let a = s.tensor(&[1.0f32; 4], &[2, 1, 2]).unwrap();
    let b = s.tensor(&[1.0f32; 2], &[1, 2, 1]).unwrap();
    // Batch dims that broadcast compile (hl-decompose broadcasts the operands).
    assert_eq!(a.batch_matmul(&b, false, false).unwrap().to_vec::<f32>().unwrap(), vec![2.0; 2]);
    let i = s.tensor(&[1i32; 4], &[2, 2]).unwrap();
    let e = i.matmul(&i, false, false).unwrap_err();
    assert_eq!(e.kind, ErrorKind::DType);
    assert!(e.message.contains("'hl.matmul' op operands of element type 'i32' have no cube lowering"), "{e}");
    let x = s.tensor(&[3.0f32], &[]).unwrap();
    let e = x.layer_norm(&x, &x, 1e-5).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Shape);
    assert_eq!(
        e.message,
        "'hl.layer_norm' op normalizes over the last dim, which 'tensor<f32>' has not (rank 0)"
    );
    assert_eq!(x.exp().unwrap().to_vec::<f32>().unwrap(), vec![3.0f32.exp()], "the session goes on");
    assert_eq!(s.pending_ops(), 0);
}

#[test]
fn values_larger_than_the_memory_limit_are_refused_not_allocated() {
    let s = small_session();
    let e = s.tensor(&vec![0.0f32; 8192], &[8192]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Memory);
    assert_eq!(
        e.message,
        "'tensor<8192xf32>' needs 32768 bytes, more than the session's memory limit of 16384 bytes"
    );
    let col = s.tensor(&[1.0f32; 64], &[64, 1]).unwrap();
    let row = s.tensor(&[1.0f32; 65], &[1, 65]).unwrap();
    let e = col.add(&row).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Memory);
    assert!(e.message.starts_with("'hl.add' op result 'tensor<64x65xf32>' needs 16640 bytes"), "{e}");
    let s = session();
    let col = s.tensor(&[1.0f32; 2], &[2, 1, 1, 1]).unwrap();
    let huge = col.broadcast_to(&[2, 1 << 40, 1 << 40, 1 << 40]).unwrap_err();
    assert_eq!(huge.kind, ErrorKind::Memory);
    assert!(huge.message.contains("needs more than 2^64 bytes"), "{huge}");
    let e = s.tensor_from_bytes(Vec::new(), &[usize::MAX, 2], DType::F32).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Memory);
    assert!(e.message.starts_with("'tensor<9223372036854775807x2xf32>' needs more than 2^64 bytes"), "{e}");
}

#[test]
fn edge_shapes_give_results_or_errors_never_panics() {
    let s = session();
    let a = s.tensor(&[2.0f32], &[]).unwrap();
    assert_eq!(a.neg().unwrap().to_vec::<f32>().unwrap(), vec![-2.0], "rank 0");
    let e = s.tensor::<f32>(&[], &[0, 4]).unwrap_err();
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::Shape, "zero-size tensors are not supported: 'tensor<0x4xf32>'")
    );
    let w = s.tensor(&[1.0f32; 4], &[4]).unwrap();
    let e = w.slice(&[2], &[2], &[1]).unwrap_err();
    assert_eq!(e.message, "'hl.slice' op zero-size tensors are not supported: 'tensor<0xf32>'");
    let b = s.tensor(&[1.0f32; 6], &[2, 3]).unwrap();
    let e = b.op(
        &kiln_dialects::hl::ARGMAX,
        &[kiln_eager::Arg::Tensor(&b)],
        &[("axis", kiln_eager::AttrValue::Int(0))],
        None,
    );
    assert!(e.unwrap_err().message.contains("no 'i64' tensors"));
    // `hl.concat` compiles (a layout kernel) and runs.
    let c = b.concat(&[&b], 0).unwrap();
    assert_eq!(c.shape(), vec![4, 3]);
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![1.0; 12]);
    assert_eq!(b.transpose(&[1, 0]).unwrap().cast(DType::I32).unwrap().to_vec::<i32>().unwrap(), vec![1; 6]);
}

#[test]
fn scalars_of_a_select_take_the_type_of_its_values_not_of_its_condition() {
    // Issue 43, class 5: `where(cond, 1.0, 0.0)` gave an `i1` result.
    let s = session();
    let x = s.tensor(&[1.0f32, -1.0], &[2]).unwrap();
    let c = x.cmp(CmpPredicate::Gt, 0.0).unwrap();
    let y = c.select(1.0, 0.0).unwrap();
    assert_eq!(y.dtype(), DType::F32);
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, 0.0]);
    let i = s.tensor(&[5i32, 6], &[2]).unwrap();
    assert_eq!(c.select(&i, 0.0).unwrap().to_vec::<i32>().unwrap(), vec![5, 0]);
    assert_eq!(c.select(&c, 1.0).unwrap().to_vec::<bool>().unwrap(), vec![true, true]);
}

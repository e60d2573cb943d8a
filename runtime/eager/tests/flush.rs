//! Each flush rule, with the segment boundary it causes.

use kiln_eager::{ErrorKind, Flags, FlushReason, Session, Tensor};

fn session(flags: &str) -> Session {
    Session::new(Flags::parse(flags).unwrap().flags).unwrap()
}

fn ramp(s: &Session, shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    let data: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 1.0).collect();
    s.tensor(&data, shape).unwrap()
}

#[test]
fn an_unfusable_op_runs_alone() {
    let s = session("");
    let x = ramp(&s, &[4, 8]);
    let a = x.exp().unwrap();
    let b = a.slice(&[0, 0], &[2, 8], &[1, 1]).unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::UnfusableOp), 1, "before the slice");
    assert_eq!(s.pending_ops(), 1, "the slice alone");
    let c = b.neg().unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::UnfusableOp), 2, "after the slice");
    assert_eq!(s.pending_ops(), 1);
    let want: Vec<f32> = x.to_vec::<f32>().unwrap()[..16].iter().map(|v| -v.exp()).collect();
    let got = c.to_vec::<f32>().unwrap();
    assert_eq!(got.len(), want.len());
    assert!(got.iter().zip(&want).all(|(g, w)| (g - w).abs() <= 1e-5 * w.abs()), "{got:?} vs {want:?}");
    assert_eq!(s.stats().segments_run, 3);
}

#[test]
fn a_reduction_ends_the_segment_unless_opt_level_2_stitches() {
    for (flags, boundary) in [("--opt_level=1", true), ("--opt_level=2", false)] {
        let s = session(flags);
        let x = ramp(&s, &[4, 8]);
        let r = x.exp().unwrap().sum(&[1], true).unwrap();
        let y = x.div(&r).unwrap();
        let stats = s.stats();
        assert_eq!(stats.flushes_for(FlushReason::ReductionBoundary), u64::from(boundary), "{flags}");
        assert_eq!(s.pending_ops(), if boundary { 1 } else { 3 }, "{flags}");
        y.to_vec::<f32>().unwrap();
    }
}

#[test]
fn a_host_read_flushes_once() {
    let s = session("");
    let x = ramp(&s, &[16]);
    x.to_vec::<f32>().unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::HostRead), 0, "x is on the host");
    let y = x.tanh().unwrap();
    y.to_vec::<f32>().unwrap();
    y.to_vec::<f32>().unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::HostRead), 1);
    assert_eq!(s.pending_ops(), 0);
}

#[test]
fn sync_flushes_what_is_pending() {
    let s = session("");
    s.sync().unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::Sync), 0, "nothing pending");
    let x = ramp(&s, &[16]);
    let y = x.sigmoid().unwrap();
    s.sync().unwrap();
    assert_eq!((s.stats().flushes_for(FlushReason::Sync), s.pending_ops()), (1, 0));
    y.to_vec::<f32>().unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::HostRead), 0, "y was computed by the sync");
}

#[test]
fn the_capacity_threshold_flushes() {
    let s = session("--flush_threshold=3");
    let x = ramp(&s, &[16]);
    let mut t = x.abs().unwrap();
    for _ in 0..3 {
        t = t.neg().unwrap();
    }
    assert_eq!(s.stats().flushes_for(FlushReason::Capacity), 1);
    assert_eq!(s.pending_ops(), 1);
    let want: Vec<f32> = x.to_vec::<f32>().unwrap().iter().map(|v| -v.abs()).collect();
    assert_eq!(t.to_vec::<f32>().unwrap(), want);
}

#[test]
fn overwriting_a_pending_input_flushes_first() {
    let s = session("");
    let x = ramp(&s, &[8]);
    let old = x.to_vec::<f32>().unwrap();
    let y = x.add(1.0).unwrap();
    s.write(&x, &[5.0f32; 8]).unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::Overwrite), 1);
    assert_eq!(
        y.to_vec::<f32>().unwrap(),
        old.iter().map(|v| v + 1.0).collect::<Vec<_>>(),
        "y read the old x"
    );
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![5.0; 8]);
    // `assign` too; a tensor no pending op reads is overwritten without a flush.
    let z = x.mul(2.0).unwrap();
    let w = ramp(&s, &[8]);
    s.assign(&w, &z).unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::Overwrite), 1);
    s.assign(&x, &w).unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::Overwrite), 2);
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![10.0; 8]);
    assert_eq!(z.to_vec::<f32>().unwrap(), vec![10.0; 8]);
}

#[test]
fn dropping_the_session_flushes_and_ends_its_tensors() {
    let dir = std::env::temp_dir().join(format!("kiln-eager-drop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let s = session(&format!("--dump_as_text --dump_dir={}", dir.display()));
    let x = ramp(&s, &[8]);
    let y = x.exp().unwrap().add(&x).unwrap();
    assert!(!dir.exists(), "nothing compiled yet");
    drop(s);
    for stage in ["hl", "fused", "npuvec"] {
        let path = dir.join(format!("segment_0000.{stage}.mlir"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(text.contains("func.func"), "{stage}: {text}");
    }
    assert!(std::fs::read_to_string(dir.join("segment_0000.hl.mlir")).unwrap().contains("hl.exp"));
    assert!(std::fs::read_to_string(dir.join("segment_0000.fused.mlir")).unwrap().contains("fused.region"));
    assert!(std::fs::read_to_string(dir.join("segment_0000.npuvec.mlir")).unwrap().contains("npuvec."));
    assert_eq!(y.to_vec::<f32>().unwrap_err().kind, ErrorKind::SessionDropped);
    assert_eq!(x.exp().unwrap_err().kind, ErrorKind::SessionDropped);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn matmul_runs_alone_unless_enabled_and_then_takes_an_epilogue() {
    let s = session("");
    let a = ramp(&s, &[16, 16]);
    let b = ramp(&s, &[16, 16]);
    let c = a.exp().unwrap().matmul(&b, false, false).unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::UnfusableOp), 1);
    let _d = c.relu().unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::UnfusableOp), 2, "the matmul ran alone");

    let s = session("--enable_ops=MatMul");
    let a = ramp(&s, &[16, 16]);
    let b = ramp(&s, &[16, 16]);
    let c = a.exp().unwrap().matmul(&b, false, false).unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::CubeBoundary), 1, "the matmul starts a segment");
    let d = c.relu().unwrap().mul(2.0).unwrap();
    assert_eq!(s.pending_ops(), 4, "matmul, relu, constant, mul");
    let e = d.sum(&[1], false).unwrap();
    assert_eq!(s.stats().flushes_for(FlushReason::CubeBoundary), 2, "a reduction is no epilogue");
    assert_eq!(e.shape(), vec![16]);
    e.to_vec::<f32>().unwrap();
}

#[test]
fn only_values_read_outside_become_outputs() {
    let s = session("");
    let x = ramp(&s, &[32]);
    let a = x.exp().unwrap();
    let b = a.neg().unwrap();
    let c = b.add(&a).unwrap();
    drop(a);
    drop(b);
    c.to_vec::<f32>().unwrap();
    assert_eq!(s.stats().segment_outputs, 1, "a and b stay inside");
    let d = c.abs().unwrap();
    let e = d.sqrt().unwrap();
    e.to_vec::<f32>().unwrap();
    assert_eq!(s.stats().segment_outputs, 3, "d and e both live");
    drop((d, e));
    let f = c.tanh().unwrap();
    drop(f);
    s.sync().unwrap();
    assert_eq!(s.stats().segments_skipped, 1, "nothing reads f");
    assert_eq!(s.stats().segments_run, 2);
}

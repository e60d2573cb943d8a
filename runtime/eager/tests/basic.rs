//! The session's core: recording, host reads, outputs, handles.

use kiln_eager::{Element, ErrorKind, Flags, FlushReason, Session};

fn session(flags: &str) -> Session {
    Session::new(Flags::parse(flags).unwrap().flags).unwrap()
}

#[test]
fn a_chain_runs_as_one_segment() {
    let s = session("");
    let x = s.tensor(&[1.0f32, -2.0, 3.0, -4.0, 0.5, 6.0], &[2, 3]).unwrap();
    let y = x.mul(2.0).unwrap().add(&x).unwrap().abs().unwrap().sub(1.0).unwrap();
    assert_eq!(s.stats().segments_run, 0, "recording runs nothing");
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![2.0, 5.0, 8.0, 11.0, 0.5, 17.0]);
    let st = s.stats();
    assert_eq!((st.segments_run, st.cache_misses), (1, 1));
    assert_eq!(st.flushes_for(FlushReason::HostRead), 1);
    assert_eq!(y.shape(), vec![2, 3]);
}

#[test]
fn shape_mismatch_is_reported_at_the_op_naming_both_shapes() {
    let s = session("");
    let a = s.tensor(&[0.0f32; 6], &[2, 3]).unwrap();
    let b = s.tensor(&[0.0f32; 4], &[4]).unwrap();
    let e = a.add(&b).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Shape);
    assert!(e.message.starts_with("'hl.add' op"), "{e}");
    assert!(e.message.contains("tensor<2x3xf32>") && e.message.contains("tensor<4xf32>"), "{e}");
    assert_eq!(s.pending_ops(), 0, "nothing is recorded");
}

#[test]
fn a_released_large_value_is_reused_for_a_later_output() {
    let s = session("");
    let n = 1 << 17; // 512 KiB of f32: large enough to keep
    let data: Vec<f32> = (0..n).map(|i| (i % 97) as f32 - 48.0).collect();
    let x = s.tensor(&data, &[n]).unwrap();
    let expect = |k: f32| data.iter().map(|&v| (v * k).abs()).collect::<Vec<f32>>();
    let run = |k: f32| x.mul(k).unwrap().abs().unwrap();
    assert_eq!(run(2.0).to_vec::<f32>().unwrap(), expect(2.0));
    assert_eq!(s.stats().buffers_reused, 0, "nothing was released before the first run");
    // The first output was released with its tensor: the second run writes into its bytes.
    assert_eq!(run(3.0).to_vec::<f32>().unwrap(), expect(3.0));
    assert_eq!(s.stats().buffers_reused, 1);
    // A value still held on the host is not taken, even once its tensor is gone; when its
    // holder lets go, it is.
    let held = run(0.5).host().unwrap();
    assert_eq!(s.stats().buffers_reused, 2);
    assert_eq!(run(4.0).to_vec::<f32>().unwrap(), expect(4.0));
    assert_eq!(s.stats().buffers_reused, 2, "the held value was not in the pool");
    assert_eq!(held.bytes.chunks_exact(4).map(f32::get).collect::<Vec<_>>(), expect(0.5));
    drop(held);
    assert_eq!(run(5.0).to_vec::<f32>().unwrap(), expect(5.0));
    assert_eq!(s.stats().buffers_reused, 3);
}

#[test]
fn a_new_size_reuses_a_released_buffer_that_has_room() {
    // Rows of a dynamic workload: each run's size differs from the last, growing and
    // shrinking; the outputs' buffers are reused all the same, and every result is right.
    let s = session("");
    let cols = 3 << 15; // 384 KiB of f32 per row
    let mut reused = 0;
    for (i, rows) in [1usize, 2, 3, 2, 4, 1, 3].into_iter().enumerate() {
        let data: Vec<f32> = (0..rows * cols).map(|j| ((j + i) % 89) as f32 - 44.0).collect();
        let x = s.tensor(&data, &[rows, cols]).unwrap();
        let y = x.mul(-2.0).unwrap().abs().unwrap();
        let expect: Vec<f32> = data.iter().map(|&v| (v * -2.0).abs()).collect();
        assert_eq!(y.to_vec::<f32>().unwrap(), expect, "{rows} rows");
        reused = s.stats().buffers_reused;
        // The growing sizes find no room (the released inputs and outputs are smaller);
        // from then on each output reuses one: 2 and 1 rows an input of their size, 4 rows
        // the 3 rows' output (its capacity rounded up to 5.3 rows), 3 rows the 3 rows' input.
        let expected = [0, 0, 0, 1, 2, 3, 4][i];
        assert_eq!(reused, expected, "run {i} ({rows} rows)");
    }
    assert_eq!(reused, 4);
}

#[test]
fn values_move_out_when_nothing_else_holds_them() {
    let s = session("");
    let x = s.tensor(&[1.0f32, 2.0, 3.0], &[3]).unwrap();
    let y = x.mul(2.0).unwrap();
    let shared = y.clone();
    // Two handles: the bytes are shared, not moved.
    let Err(host) = s.take_bytes(&y).unwrap() else { panic!("a shared value moved") };
    assert_eq!(host.bytes, kiln_eager::HostTensor::clone(&host).bytes);
    drop((host, shared));
    let Ok(bytes) = s.take_bytes(&y).unwrap() else { panic!("a sole value did not move") };
    let values: Vec<f32> = bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
    assert_eq!(values, [2.0, 4.0, 6.0]);
    let e = y.add(1.0).unwrap_err();
    assert_eq!(e.kind, ErrorKind::StaleHandle, "{e}");
    // Bytes given back are reused by a copy of the same size.
    s.give_bytes(vec![0u8; 1 << 20]);
    let big = s.tensor_from_slice(&[7u8; 1 << 20], &[1 << 20], kiln_eager::DType::I8).unwrap();
    assert_eq!(big.to_vec::<i8>().unwrap()[12345], 7);
}

#[test]
fn kernels_launched_and_device_time_are_counted() {
    let s = session("");
    let x = s.tensor(&[1.0f32; 64], &[8, 8]).unwrap();
    let y = x.exp().unwrap().sum(&[1], false).unwrap();
    y.to_vec::<f32>().unwrap();
    let st = s.stats();
    assert!(st.kernels_launched >= 1, "{st:?}");
    assert_eq!(st.device_time_ns, 0, "device time is counted with --device_time only");
    let timed = session("--device_time");
    let x = timed.tensor(&[1.0f32; 64], &[8, 8]).unwrap();
    let y = x.exp().unwrap().sum(&[1], false).unwrap();
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![8.0 * 1f32.exp(); 8]);
    let st = timed.stats();
    assert!(st.device_time_ns > 0 && st.kernels_launched >= 1, "{st:?}");
}

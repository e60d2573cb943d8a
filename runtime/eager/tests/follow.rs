//! Scripts: a segment that repeats the one that followed the previous segment last time is
//! recorded without checks and run without a cache lookup (`Stats::segments_predicted`);
//! every way it can differ (an op, a scalar, an input shape, the outputs read, the flags, an
//! evicted entry, a missing declared type) leaves the script, with the same values and errors
//! as a session that never followed one.

use kiln_eager::{ErrorKind, Flags, Session, Stats, Tensor, TensorType};

fn session(flags: &str) -> Session {
    Session::new(Flags::parse(flags).unwrap().flags).unwrap()
}

fn ramp(s: &Session, n: usize) -> Tensor {
    let data: Vec<f32> = (0..n).map(|i| i as f32 * 0.125 - 2.0).collect();
    s.tensor(&data, &[1, n]).unwrap()
}

/// A step's value read on the host, and (when asked) its first segment's.
type Step = (Vec<f32>, Option<Vec<f32>>);

/// Two segments: `y = exp(x * k + 1)` and its row sum (a reduction ends the segment), then
/// `y / sum - x`, read on the host. `also`: read the first segment's value too.
fn step(x: &Tensor, k: f64, also: bool) -> Step {
    let y = x.mul(k).unwrap().add(1.0).unwrap().exp().unwrap();
    let first = also.then(|| y.to_vec::<f32>().unwrap());
    let sum = y.sum(&[1], true).unwrap();
    let z = y.div(&sum).unwrap().sub(x).unwrap();
    (z.to_vec::<f32>().unwrap(), first)
}

/// A session that ran two steps on `x` (so that the second segment follows the first's
/// script); the step's result.
fn two_steps(flags: &str) -> (Session, Tensor, Step) {
    let s = session(flags);
    let x = ramp(&s, 24);
    let want = step(&x, 0.5, false);
    assert_eq!(step(&x, 0.5, false), want);
    assert_eq!(counts(&s), (2, 2, 1));
    (s, x, want)
}

fn counts(s: &Session) -> (u64, u64, u64) {
    let Stats { cache_hits, cache_misses, segments_predicted, .. } = s.stats();
    (cache_hits, cache_misses, segments_predicted)
}

#[test]
fn a_repeated_step_follows_its_scripts() {
    let s = session("");
    let x = ramp(&s, 24);
    let want = step(&x, 0.5, false);
    assert_eq!(counts(&s), (0, 2, 0), "two segments compiled (the sum ends the first)");
    // The first segment of the second step is found by lookup (nothing has followed the last
    // segment yet); the second follows the chain the first step left.
    assert_eq!(step(&x, 0.5, false), want);
    assert_eq!(counts(&s), (2, 2, 1));
    for i in 0..3 {
        assert_eq!(step(&x, 0.5, false), want, "step {i}");
    }
    assert_eq!(counts(&s), (8, 2, 7), "every segment predicted");
    assert_eq!(s.stats().ops_recorded, 5 * 8, "constants included, scripts or not");
}

#[test]
fn a_different_scalar_input_shape_or_output_leaves_the_script() {
    let (s, x, base) = two_steps("");
    let before = counts(&s);
    // Another scalar: the first op's constant differs.
    let other = step(&x, 0.25, false);
    assert_ne!(other, base);
    let fresh = session("");
    assert_eq!(other, step(&ramp(&fresh, 24), 0.25, false));
    let after = counts(&s);
    assert_eq!(after.1, before.1 + 1, "the first segment compiles anew, the second is the same");
    // Another shape: the first input differs.
    let y = ramp(&s, 40);
    let (z, _) = step(&y, 0.5, false);
    assert_eq!(z.len(), 40);
    // The first segment's value read as well: same nodes, another output set.
    let predicted = counts(&s).2;
    step(&x, 0.5, false);
    step(&x, 0.5, false);
    let (z, first) = step(&x, 0.5, true);
    assert_eq!(z, base.0);
    let first = first.unwrap();
    let fresh = session("");
    let want = ramp(&fresh, 24).mul(0.5).unwrap().add(1.0).unwrap().exp().unwrap().to_vec::<f32>().unwrap();
    assert_eq!(first, want, "as a session that never followed a script");
    assert!(counts(&s).2 > predicted, "the unchanged steps still followed scripts");
}

#[test]
fn new_flags_and_evicted_entries_are_not_followed() {
    let (s, x, want) = two_steps("");
    let (_, misses, predicted) = counts(&s);
    s.set_flags("--opt_level=0").unwrap();
    assert_eq!(step(&x, 0.5, false), want);
    let now = counts(&s);
    assert_eq!((now.1, now.2), (misses + 2, predicted), "new flags compile anew");
    // A cache of one holds only the last segment: the chain's successors are evicted.
    let s = session("--cache_size=1");
    let x = ramp(&s, 24);
    for _ in 0..3 {
        assert_eq!(step(&x, 0.5, false), want);
    }
    assert_eq!(counts(&s), (0, 6, 0));
}

#[test]
fn a_declared_type_is_part_of_the_match() {
    let s = session("");
    let x = ramp(&s, 8);
    let cast = |declared: Option<TensorType>| {
        let r = s.record(&kiln_dialects::hl::CAST, &[(&x).into()], &[], declared)?;
        r.add(1.0)?.to_vec::<f32>()
    };
    let to = TensorType::new(kiln_eager::DType::F32, &[1, 8]);
    let want = cast(Some(to.clone())).unwrap();
    assert_eq!(cast(Some(to.clone())).unwrap(), want);
    assert_eq!(cast(Some(to)).unwrap(), want);
    assert_eq!(counts(&s).2, 1, "the third cast followed the second's script");
    // Without its declared type the cast is checked (and fails) even where the script has one.
    let e = cast(None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Shape, "{e}");
    assert!(e.message.starts_with("'hl.cast' op"), "{e}");
}

#[test]
fn another_output_set_is_another_segment() {
    // `exp(x) + 1` read on the host, with `exp(x)` kept alive (an output too) or not.
    let run = |x: &Tensor, keep: bool| {
        let e = x.exp().unwrap();
        let f = e.add(1.0).unwrap();
        let kept = keep.then(|| e.clone());
        drop(e);
        (f.to_vec::<f32>().unwrap(), kept.map(|e| e.to_vec::<f32>().unwrap()))
    };
    let fresh = session("");
    let want = run(&ramp(&fresh, 16), true);
    let s = session("");
    let x = ramp(&s, 16);
    for _ in 0..3 {
        assert_eq!(run(&x, false).0, want.0);
    }
    assert_eq!(counts(&s), (2, 1, 1));
    // Every node follows the script, but one more value leaves the segment.
    assert_eq!(run(&x, true), want);
    assert_eq!(counts(&s), (2, 2, 1), "compiled with both outputs");
}

#[test]
fn a_script_evicted_before_its_flush_is_looked_up() {
    let (s, x, want) = two_steps("");
    // The next step's first segment is the script now; shrinking the cache evicts it (the
    // second segment ran last).
    s.set_flags("--cache_size=1").unwrap();
    assert_eq!(step(&x, 0.5, false), want);
    assert_eq!(counts(&s), (2, 4, 1), "both compile again (the cache holds one)");
}

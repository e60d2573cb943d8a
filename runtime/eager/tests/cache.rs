//! The compile cache: hits for the same structure, misses for new shapes, attributes and
//! flags, least-recently-used eviction at the configured size.

use kiln_eager::{Flags, Session, Tensor};

fn session(flags: &str) -> Session {
    Session::new(Flags::parse(flags).unwrap().flags).unwrap()
}

fn chain(s: &Session, n: usize, scale: f64) -> Vec<f32> {
    let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let x: Tensor = s.tensor(&data, &[n]).unwrap();
    x.mul(scale).unwrap().add(&x).unwrap().relu().unwrap().to_vec::<f32>().unwrap()
}

fn counts(s: &Session) -> (u64, u64, u64) {
    let st = s.stats();
    (st.cache_hits, st.cache_misses, st.cache_evictions)
}

#[test]
fn the_same_structure_hits() {
    let s = session("");
    assert_eq!(chain(&s, 64, 2.0), (0..64).map(|i| 3.0 * i as f32).collect::<Vec<_>>());
    chain(&s, 64, 2.0);
    assert_eq!(counts(&s), (1, 1, 0));
    assert!(s.stats().compile_time > std::time::Duration::ZERO);
}

#[test]
fn shapes_attributes_and_flags_are_part_of_the_key() {
    let s = session("");
    chain(&s, 64, 2.0);
    chain(&s, 65, 2.0);
    assert_eq!(counts(&s), (0, 2, 0), "a new shape");
    chain(&s, 64, 3.0);
    assert_eq!(counts(&s), (0, 3, 0), "a new scalar");
    s.set_flags("--opt_level=0").unwrap();
    chain(&s, 64, 2.0);
    assert_eq!(counts(&s), (0, 4, 0), "new flags");
    s.set_flags("--opt_level=1").unwrap();
    chain(&s, 64, 2.0);
    assert_eq!(counts(&s), (1, 4, 0));
}

#[test]
fn the_least_recently_used_segment_is_evicted() {
    let s = session("--cache_size=2");
    chain(&s, 8, 2.0); // A
    chain(&s, 9, 2.0); // B
    chain(&s, 8, 2.0); // A hit: B is now the oldest
    chain(&s, 10, 2.0); // C evicts B
    assert_eq!(counts(&s), (1, 3, 1));
    assert_eq!(s.cache_len(), 2);
    chain(&s, 8, 2.0); // A still there
    assert_eq!(counts(&s), (2, 3, 1));
    chain(&s, 9, 2.0); // B was evicted
    assert_eq!(counts(&s), (2, 4, 2));
    s.set_flags("--cache_size=1").unwrap();
    assert_eq!((s.cache_len(), counts(&s).2), (1, 3), "shrinking evicts");
}

//! Flags: the frameworks' syntax, warnings for unknown and repeated keys, errors for
//! malformed strings, the environment variable.

use kiln_dialects::hl;
use kiln_eager::{ErrorKind, Flags, Session};

#[test]
fn flags_parse_in_the_frameworks_syntax() {
    let p = Flags::parse(
        "--opt_level=2 --enable_ops=MatMul,BatchMatMul --disable_ops=Exp --enable_ops_only=Add,MatMul \
         --flush_threshold=7 --cache_size=3 --dump_as_text --dump_dir=/tmp/d",
    )
    .unwrap();
    assert!(p.warnings.is_empty());
    let f = p.flags;
    assert_eq!(f.opt_level, 2);
    assert_eq!(f.enable_ops, vec![&hl::MATMUL, &hl::BATCH_MATMUL]);
    assert_eq!(f.disable_ops, vec![&hl::EXP]);
    assert_eq!(f.enable_ops_only, vec![&hl::ADD, &hl::MATMUL]);
    assert_eq!((f.flush_threshold, f.cache_size, f.dump_as_text), (7, 3, true));
    assert_eq!(f.dump_dir, std::path::PathBuf::from("/tmp/d"));
    assert!(f.cube_joins(&hl::MATMUL) && f.cube_joins(&hl::BATCH_MATMUL));
    assert!(!Flags::parse("--dump_as_text=false").unwrap().flags.dump_as_text);
    assert!(f.direct_emit, "on by default");
    assert!(!Flags::parse("--direct_emit=false").unwrap().flags.direct_emit);
    assert!(Flags::parse("--direct_emit=0 --direct_emit").unwrap().flags.direct_emit);
    assert!(Flags::parse("--device_time").unwrap().flags.device_time);
    assert!(!Flags::default().device_time, "off by default");
    assert_eq!(Flags::parse("").unwrap().flags, Flags::default());
}

#[test]
fn unknown_and_repeated_keys_warn_with_the_valid_keys() {
    let p = Flags::parse("--opt_levle=2 --opt_level=0 --opt_level=2").unwrap();
    assert_eq!(p.flags.opt_level, 2, "the last value wins");
    assert_eq!(p.warnings.len(), 2);
    assert!(p.warnings[0]
        .starts_with("unknown fusion flag '--opt_levle' ignored; valid flags: --opt_level, --enable_ops"));
    assert!(p.warnings[1].contains("'--opt_level' given more than once"), "{}", p.warnings[1]);
    assert!(p.warnings[1].contains("--dump_dir"));
}

#[test]
fn malformed_flags_are_errors_and_change_nothing() {
    for (text, wanted) in [
        ("opt_level=1", "fusion flag 'opt_level=1' must start with '--'"),
        ("--opt_level=3", "invalid value '3' for fusion flag '--opt_level': expected an integer in 0..=2"),
        ("--opt_level", "fusion flag '--opt_level' needs a value"),
        ("--flush_threshold=0", "expected an integer in 1..="),
        ("--dump_as_text=yes", "expected true or false"),
        (
            "--direct_emit=maybe",
            "invalid value 'maybe' for fusion flag '--direct_emit': expected true or false",
        ),
        ("--enable_ops=Sort", "unknown op 'Sort'"),
        ("--dump_dir=", "needs a value"),
    ] {
        let e = Flags::parse(text).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Flags);
        assert!(e.message.contains(wanted), "{text}: {e}");
    }
    let s = Session::new(Flags::default()).unwrap();
    assert!(s.set_flags("--opt_level=0 --cache_size=x").is_err());
    assert_eq!(s.flags(), Flags::default(), "a failed set_flags changes nothing");
}

#[test]
fn the_environment_variable_sets_the_flags() {
    // The only test in this binary that touches the environment.
    std::env::set_var(kiln_eager::ENV_VAR, "--flush_threshold=5 --bogus");
    let s = Session::from_env().unwrap();
    std::env::remove_var(kiln_eager::ENV_VAR);
    assert_eq!(s.flags().flush_threshold, 5);
    assert_eq!(s.warnings().len(), 1);
    assert!(s.warnings()[0].contains("'--bogus'"));
}

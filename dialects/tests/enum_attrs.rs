//! The attribute kinds the dialects declare: each is listed by the dialect it names, with a
//! unique mnemonic, and every case of every enum attribute parses from its pretty and angle
//! spellings to the one interned value, which prints back in the pretty form.

use bumpalo::Bump;
use kiln_compiler::syntax::type_attr::TypeAttrParser;
use kiln_compiler::Context;
use kiln_dialects::fused::RegionKind;
use kiln_dialects::hl::attrs::{CmpPredicate, GeluApproximation};
use kiln_dialects::npuvec;

#[test]
fn declared_kinds_belong_to_their_dialect() {
    let registry = kiln_dialects::all_dialects();
    for d in registry.dialects() {
        for (i, a) in d.attrs.iter().enumerate() {
            assert_eq!(a.dialect, d.name, "{a:?} is listed by `{}`", d.name);
            assert!(d.attrs[..i].iter().all(|b| b.name != a.name), "{a:?} declared twice");
        }
        for t in d.types {
            assert_eq!(t.dialect, d.name, "{t:?} is listed by `{}`", d.name);
        }
    }
}

#[test]
fn every_enum_case_round_trips() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mut cases = 0;
    for d in ctx.registry().dialects() {
        for def in d.attrs {
            for (i, case) in def.cases().iter().enumerate() {
                let want = ctx.enum_attr(def, i);
                for text in [
                    format!("#{}.{}<{case}>", d.name, def.name),
                    format!("#{}<{}<{case}>>", d.name, def.name),
                ] {
                    let (got, end) = TypeAttrParser::new(&ctx).parse_attr(&text, 0).expect("parses");
                    assert_eq!((got, end), (want, text.len()), "{text}");
                }
                assert_eq!(want.to_string(), format!("#{}.{}<{case}>", d.name, def.name));
                assert_eq!(want.enum_case(def), Some(i));
                cases += 1;
            }
        }
    }
    let npuvec_cases = npuvec::Space::ALL.len()
        + npuvec::Pipe::ALL.len()
        + npuvec::Core::ALL.len()
        + npuvec::ReduceKind::ALL.len()
        + npuvec::CmpPredicate::ALL.len()
        + npuvec::RoundMode::ALL.len()
        + npuvec::AtomicKind::ALL.len();
    assert_eq!(
        cases,
        CmpPredicate::ALL.len() + GeluApproximation::ALL.len() + RegionKind::ALL.len() + npuvec_cases
    );
}

#[test]
fn typed_accessors_agree_with_the_declaration() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    for &p in CmpPredicate::ALL {
        assert_eq!(CmpPredicate::of(p.attr(&ctx)), Some(p));
        assert_eq!(CmpPredicate::from_keyword(p.keyword()), Some(p));
        // Another enum's attribute (or a string) is not a predicate.
        assert_eq!(RegionKind::of(p.attr(&ctx)), None);
    }
    assert_eq!(CmpPredicate::of(ctx.str_attr(b"lt")), None);
    assert_eq!(RegionKind::Mix.attr(&ctx).to_string(), "#fused.kind<mix>");
    assert_eq!(GeluApproximation::Tanh.attr(&ctx).to_string(), "#hl.approx<tanh>");
}

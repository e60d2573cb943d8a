//! Unit tests. Expected spellings were obtained from mlir-opt 22
//! (`--allow-unregistered-dialect --mlir-print-op-generic --mlir-print-local-scope`).

use bumpalo::Bump;

use super::{print_location, AliasLookup, LocRef, NoAliases, SyntaxError, TypeAttrParser};
use crate::attributes::{AttrKind, Attribute};
use crate::context::Context;
use crate::dialect::DialectRegistry;
use crate::types::Type;

fn with_parser(allow_unregistered: bool, f: impl FnOnce(&mut TypeAttrParser<'_, '_>)) {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    ctx.set_allow_unregistered(allow_unregistered);
    let mut p = TypeAttrParser::new(&ctx);
    f(&mut p);
}

/// Parses every input as a whole attribute and checks the printed form.
fn check_attrs(cases: &[(&str, &str)]) {
    with_parser(true, |p| {
        for (input, expected) in cases {
            match p.parse_attr(input, 0) {
                Ok((a, end)) => {
                    assert_eq!(end, input.len(), "{input}: stopped early");
                    assert_eq!(a.to_string(), *expected, "{input}");
                }
                Err(e) => panic!("{input}: error at {}: {}", e.offset, e.message),
            }
        }
    });
}

fn check_types(cases: &[(&str, &str)]) {
    with_parser(true, |p| {
        for (input, expected) in cases {
            let (t, end) = p.parse_type(input, 0).unwrap_or_else(|e| panic!("{input}: {}", e.message));
            assert_eq!(end, input.len(), "{input}: stopped early");
            assert_eq!(t.to_string(), *expected, "{input}");
        }
    });
}

fn attr_error(allow_unregistered: bool, input: &str) -> SyntaxError {
    let mut err = None;
    with_parser(allow_unregistered, |p| {
        err = Some(p.parse_attr(input, 0).expect_err(input));
    });
    err.unwrap()
}

fn type_error(input: &str) -> SyntaxError {
    let mut err = None;
    with_parser(true, |p| err = Some(p.parse_type(input, 0).expect_err(input)));
    err.unwrap()
}

#[test]
fn builtin_types() {
    check_types(&[
        ("i1", "i1"),
        ("si8", "si8"),
        ("ui64", "ui64"),
        ("i16777215", "i16777215"),
        ("index", "index"),
        ("none", "none"),
        ("f8E4M3FNUZ", "f8E4M3FNUZ"),
        ("tf32", "tf32"),
        ("complex<f32>", "complex<f32>"),
        ("tuple<>", "tuple<>"),
        ("tuple<i1, (i32) -> f32>", "tuple<i1, (i32) -> f32>"),
        ("(i32, f32) -> (i1, i1)", "(i32, f32) -> (i1, i1)"),
        ("() -> (i32)", "() -> i32"),
        ("(i32) -> ((i1) -> i1)", "(i32) -> ((i1) -> i1)"),
        ("tensor<4x?xf32>", "tensor<4x?xf32>"),
        ("tensor<0x4xf32>", "tensor<0x4xf32>"),
        ("tensor<*xbf16>", "tensor<*xbf16>"),
        ("tensor<f32>", "tensor<f32>"),
        ("tensor<4xf32, \"enc\">", "tensor<4xf32, \"enc\">"),
        ("vector<4x[8]xf32>", "vector<4x[8]xf32>"),
        ("memref<4x?xf32, strided<[?, 1], offset: ?>, 3>", "memref<4x?xf32, strided<[?, 1], offset: ?>, 3>"),
        ("memref<*xf32, 1>", "memref<*xf32, 1>"),
        ("memref<4xf32, 0>", "memref<4xf32>"),
        ("memref<4xf32, 1 : i32>", "memref<4xf32, 1 : i32>"),
        ("memref<4xf32, affine_map<(d0) -> (d0)>>", "memref<4xf32>"),
        ("memref<4xf32, affine_map<(d0) -> (d0 + 1)>>", "memref<4xf32, affine_map<(d0) -> (d0 + 1)>>"),
        ("memref<4xf32, strided<[1], offset: 0>>", "memref<4xf32, strided<[1]>>"),
        ("!foo.bar", "!foo.bar"),
        ("!foo<bar>", "!foo.bar"),
        ("!foo<\"a b\">", "!foo<\"a b\">"),
        ("!foo.bar<a->b>", "!foo.bar<a->b>"),
        ("tensor< 4 x f32 >", "tensor<4xf32>"),
    ]);
}

#[test]
fn integer_and_float_attributes() {
    check_attrs(&[
        ("42", "42 : i64"),
        ("255 : i8", "-1 : i8"),
        ("0xFF : i8", "-1 : i8"),
        ("255 : ui8", "255 : ui8"),
        ("-1 : i1", "true"),
        ("9223372036854775808", "-9223372036854775808 : i64"),
        (
            "340282366920938463463374607431768211455 : ui128",
            "340282366920938463463374607431768211455 : ui128",
        ),
        ("7 : index", "7 : index"),
        ("0.1", "1.000000e-01 : f64"),
        ("1.e10", "1.000000e+10 : f64"),
        ("3.14159265358979", "3.14159265358979 : f64"),
        ("5.e-324", "4.940660e-324 : f64"),
        ("-0.0", "-0.000000e+00 : f64"),
        ("1234567.0", "0x4132D68700000000 : f64"),
        ("65504. : f16", "6.550400e+04 : f16"),
        ("0.1 : f16", "9.997550e-02 : f16"),
        ("1.e-40 : f32", "9.999940e-41 : f32"),
        ("0.3 : f80", "0.299999999999999988898 : f80"),
        ("0x1 : f80", "3.645200e-4951 : f80"),
        ("0x8000000000000000000000000000 : f128", "1.6810515715560467531313389086608763E-4932 : f128"),
        ("2.5 : f4E2M1FN", "2.000000e+00 : f4E2M1FN"),
        ("100.0 : f4E2M1FN", "6.000000e+00 : f4E2M1FN"),
        ("3.0 : f8E8M0FNU", "4.000000e+00 : f8E8M0FNU"),
        ("1000.0 : f8E4M3FN", "0x7F : f8E4M3FN"),
        ("-0.0 : f8E4M3FNUZ", "0.000000e+00 : f8E4M3FNUZ"),
        ("1.0e39 : f32", "0x7F800000 : f32"),
        ("0x7FC00000 : f32", "0x7FC00000 : f32"),
    ]);
}

#[test]
fn other_attributes() {
    check_attrs(&[
        ("\"a\\n\\\"\\\\\\t\\01\\7f\\ff\"", "\"a\\0A\\22\\\\\\09\\01\\7F\\FF\""),
        ("\"x\" : i32", "\"x\" : i32"),
        ("unit", "unit"),
        ("@a::@b", "@a::@b"),
        ("@\"q n\"", "@\"q n\""),
        ("{\"a b\" = 1, b, _c = unit}", "{_c, \"a b\" = 1 : i64, b}"),
        (
            "[1, true, 2.5 : f32, 1.5, \"x\", i32, []]",
            "[1, true, 2.500000e+00 : f32, 1.500000e+00, \"x\", i32, []]",
        ),
        ("(i32) -> i32", "(i32) -> i32"),
        ("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>", "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"),
        ("dense<[1, 1]> : tensor<2xi8>", "dense<1> : tensor<2xi8>"),
        ("dense<[(1, 2)]> : tensor<1xcomplex<i8>>", "dense<(1,2)> : tensor<1xcomplex<i8>>"),
        ("dense<\"0x0100000002000000\"> : tensor<2xi32>", "dense<[1, 2]> : tensor<2xi32>"),
        ("dense<\"0x05\"> : tensor<3xi1>", "dense<[true, false, true]> : tensor<3xi1>"),
        ("dense<[]> : tensor<0xi32>", "dense<> : tensor<0xi32>"),
        ("dense<[\"a\", \"b\"]> : tensor<2x!foo.s>", "dense<[\"a\", \"b\"]> : tensor<2x!foo.s>"),
        ("dense_resource<blob1> : tensor<4xf32>", "dense_resource<blob1> : tensor<4xf32>"),
        ("array<i32: 1, 2>", "array<i32: 1, 2>"),
        ("array<f32>", "array<f32>"),
        (
            "sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>",
            "sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>",
        ),
        ("sparse<> : tensor<3xf32>", "sparse<> : tensor<3xf32>"),
        ("strided<[?, 1], offset: ?>", "strided<[?, 1], offset: ?>"),
        (
            "affine_map<(i, j)[s] -> (j - i, -i, 3 * 4, s + j)>",
            "affine_map<(d0, d1)[s0] -> (d1 - d0, -d0, 12, d1 + s0)>",
        ),
        (
            "affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 <= 5)>",
            "affine_set<(d0)[s0] : (d0 - s0 >= 0, -d0 + 5 >= 0)>",
        ),
        ("#foo<abc>", "#foo.abc"),
        ("#foo<\"x y\">", "#foo<\"x y\">"),
        ("loc(fused[\"a\", fused[\"b\", \"c\"], \"a\", unknown])", "loc(fused[\"a\", \"b\", \"c\"])"),
    ]);
    let hex: Vec<String> = (0..101).map(|i| i.to_string()).collect();
    let src = format!("dense<[{}]> : tensor<101xi8>", hex.join(", "));
    with_parser(true, |p| {
        let printed = p.parse_attr(&src, 0).unwrap().0.to_string();
        assert!(printed.starts_with("dense<\"0x000102"), "{printed}");
        assert_eq!(p.parse_attr(&printed, 0).unwrap().0.to_string(), printed);
    });
}

#[test]
fn locations() {
    let cases = [
        ("loc(\"f\":1:2)", "loc(\"f\":1:2)"),
        ("loc(\"f\":1:2 to 3:4)", "loc(\"f\":1:2 to 3:4)"),
        ("loc(\"f\":1:2 to :9)", "loc(\"f\":1:2 to :9)"),
        ("loc(\"f\":3)", "loc(\"f\":3:0)"),
        ("loc(\"n\"(\"f\":1:2))", "loc(\"n\"(\"f\":1:2))"),
        ("loc(\"a\"(unknown))", "loc(\"a\")"),
        ("loc(callsite(\"a\" at \"b\":1:2))", "loc(callsite(\"a\" at \"b\":1:2))"),
        ("loc(fused<\"m\">[])", "loc(fused<\"m\">[unknown])"),
        ("loc(fused[])", "loc(unknown)"),
    ];
    with_parser(true, |p| {
        for (input, expected) in cases {
            let Ok((LocRef::Loc(l), end)) = p.parse_location(input, 0) else { panic!("{input}") };
            assert_eq!(end, input.len());
            let mut s = String::new();
            print_location(&mut s, l, &NoAliases);
            assert_eq!(s, expected);
        }
        let (r, end) = p.parse_location("loc(#loc3) x", 0).unwrap();
        assert_eq!((r, end), (LocRef::Alias("loc3".into()), 10));
    });
}

struct OneAlias<'c>(Attribute<'c>, Type<'c>);

impl<'c> AliasLookup<'c> for OneAlias<'c> {
    fn attr_alias(&self, a: Attribute<'c>) -> Option<&str> {
        (a == self.0).then_some("#map")
    }
    fn type_alias(&self, t: Type<'c>) -> Option<&str> {
        (t == self.1).then_some("!t")
    }
}

#[test]
fn aliases_and_prefixes() {
    with_parser(true, |p| {
        let (map, _) = p.parse_attr("affine_map<(d0) -> (d0 + 1)>", 0).unwrap();
        let (t, _) = p.parse_type("tensor<4xf32>", 0).unwrap();
        assert!(p.add_attr_alias("map", map));
        assert!(!p.add_attr_alias("map", map));
        assert!(p.add_type_alias("t", t));
        let src = "x = memref<4xf32, #map>, tuple<!t>) loc(#l)";
        let (m, end) = p.parse_type(src, 4).unwrap();
        assert_eq!(&src[end..end + 1], ",");
        let (tu, end) = p.parse_type(src, end + 2).unwrap();
        assert_eq!(&src[end..], ") loc(#l)");
        let aliases = OneAlias(map, t);
        let mut s = String::new();
        super::print_type(&mut s, m, &aliases);
        s.push(' ');
        super::print_type(&mut s, tu, &aliases);
        assert_eq!(s, "memref<4xf32, #map> tuple<!t>");
        let (_, end) = p.parse_type("(i32) -> i32 loc(x)", 0).unwrap();
        assert_eq!(end, 12);
        let (_, end) = p.parse_attr("dense<1> : tensor<2xi32>}", 0).unwrap();
        assert_eq!(end, 24);
        let (_, end) = p.parse_attr("@f(%a)", 0).unwrap();
        assert_eq!(end, 2);
        // A cache hit returns the same interned value.
        assert_eq!(p.parse_type("tensor<4xf32>", 0).unwrap().0, t);
    });
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    // At end of input MLIR steps back one character: the error is at the `x` (as mlir-opt 22).
    let e = type_error("tensor<4x");
    assert_eq!((e.offset, e.message.as_str()), (8, "expected non-function type"));
    assert!(attr_error(true, "dense<[1, 2").offset > 0);
    let e = type_error("i16777216");
    assert_eq!(e.message, "integer bitwidth is limited to 16777215 bits");
    let e = attr_error(true, "300 : i8");
    assert_eq!((e.offset, e.message.as_str()), (0, "integer constant out of range for attribute"));
    let e = attr_error(true, "-1 : ui8");
    assert_eq!(
        (e.offset, e.message.as_str()),
        (1, "negative integer literal not valid for unsigned integer type")
    );
    let e = attr_error(
        true,
        "999999999999999999999999999999999999999999999999999999999999999999999999999999 : i256",
    );
    assert_eq!(e.message, "integer constant out of range for attribute");
    let e = attr_error(true, "1 : f32");
    assert_eq!(e.message, "unexpected decimal integer literal for a floating point value");
    let e = attr_error(true, "1.5 : i32");
    assert_eq!(e.message, "floating point value not valid for specified type");
    assert!(attr_error(true, "1.5.3").offset > 0);
    let e = attr_error(false, "#bar.x");
    assert_eq!(e.offset, 5);
    assert!(e.message.starts_with("#\"bar\"<\"x\"> : 'none' attribute created with unregistered dialect."));
    with_parser(false, |p| {
        let e = p.parse_type("!bar.x", 0).unwrap_err();
        assert!(e.message.starts_with("`!\"bar\"<\"x\">` type created with unregistered dialect."));
    });
    let e = attr_error(true, "dense<[1, 2]> : tensor<3xi32>");
    assert_eq!(e.message, "inferred shape of elements literal ([2]) does not match type ([3])");
    for bad in
        ["\"abc", "dense<\"0x1\"> : tensor<2xi8>", "@", "loc(", "[1, ]", "{a = }", "affine_map<(d0) -> (d9)>"]
    {
        attr_error(true, bad);
    }
}

#[test]
fn deep_nesting_is_reported_before_parsing() {
    // Runs on a 1 MiB stack: accepted nesting must fit comfortably.
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let deep = "[".repeat(10_000) + &"]".repeat(10_000);
            assert_eq!(attr_error(true, &deep).message, "nesting too deep");
            let deep_ty = "tuple<".repeat(10_000) + &">".repeat(10_000);
            assert_eq!(type_error(&deep_ty).message, "nesting too deep");
            let n = super::scan::MAX_NESTING;
            let ok = "[".repeat(n) + &"]".repeat(n);
            check_attrs(&[(&ok, &ok)]);
            let dict = "{a = ".repeat(n) + "1" + &"}".repeat(n);
            with_parser(true, |p| assert!(p.parse_attr(&dict, 0).is_ok()));
            let ty = "tuple<".repeat(n) + &">".repeat(n);
            check_types(&[(&ty, &ty)]);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn long_inputs_are_linear() {
    let n = 1 << 20;
    let src = format!("dense<\"0x{}\"> : tensor<{n}xi8>", "AB".repeat(n));
    with_parser(true, |p| {
        let (a, end) = p.parse_attr(&src, 0).unwrap();
        assert_eq!(end, src.len());
        assert!(a.to_string().starts_with("dense<-85>"));
    });
}

/// A string left open, at a newline or at the end: the lexer's error where it ends (found by
/// the scanner, before the grammar would walk it byte by byte).
#[test]
fn unterminated_strings() {
    for (input, offset) in [("\"ab\ncd\"", 3), ("\"abcd", 5)] {
        let e = attr_error(true, input);
        assert_eq!((e.offset, e.message.as_str()), (offset, "expected '\"' in string literal"), "{input:?}");
    }
}

#[test]
fn integers_wider_than_128_bits() {
    // Expected texts from mlir-opt 22.
    check_attrs(&[
        ("-1 : i256", "-1 : i256"),
        ("0x3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF : i130", "-1 : i130"),
        (
            "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF : ui256",
            "115792089237316195423570985008687907853269984665640564039457584007913129639935 : ui256",
        ),
        ("170141183460469231731687303715884105728 : i200", "170141183460469231731687303715884105728 : i200"),
        (
            "-57896044618658097711785492504343953926634992332820282019728792003956564819968 : si256",
            "-57896044618658097711785492504343953926634992332820282019728792003956564819968 : si256",
        ),
        (
            "340282366920938463463374607431768211456 : ui129",
            "340282366920938463463374607431768211456 : ui129",
        ),
    ]);
    for bad in [
        "115792089237316195423570985008687907853269984665640564039457584007913129639936 : i256",
        "57896044618658097711785492504343953926634992332820282019728792003956564819968 : si256",
        "-57896044618658097711785492504343953926634992332820282019728792003956564819969 : i256",
        "-0 : i256",
    ] {
        assert_eq!(attr_error(false, bad).message, "integer constant out of range for attribute", "{bad}");
    }
}

#[test]
fn distinct_attributes_are_unique_by_id() {
    with_parser(true, |p| {
        let a = p.parse_attr("distinct[7]<\"x\">", 0).unwrap().0;
        let same = p.parse_attr("distinct[7]<\"x\">", 0).unwrap().0;
        let other = p.parse_attr("distinct[8]<\"x\">", 0).unwrap().0;
        let unit = p.parse_attr("distinct[9]<>", 0).unwrap().0;
        assert_eq!(a, same);
        assert_ne!(a, other);
        assert!(
            matches!(unit.kind(), AttrKind::Distinct { inner, .. } if matches!(inner.kind(), AttrKind::Unit))
        );
        let e = p.parse_attr("distinct[7]<\"y\">", 0).expect_err("id 7 is taken");
        assert_eq!(
            (e.offset, e.message.as_str()),
            (0, "referenced attribute does not match previous definition: \"x\"")
        );
    });
}

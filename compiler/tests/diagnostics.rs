//! Rendering diagnostics against their source buffers: the line of each location, and many
//! diagnostics over one long buffer.

use kiln_compiler::{Context, Diagnostic, DialectRegistry, SourceMgr};

fn at_b<'c>(ctx: &Context<'c>, line: u32, col: u32) -> Diagnostic<'c> {
    Diagnostic::error(ctx.file_loc("b.mlir", line, col), "bad")
}

#[test]
fn renders_the_line_of_each_location() {
    let arena = bumpalo::Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let mut sm = SourceMgr::new();
    sm.add("a.mlir", "first\r\nsecond\n\nlast");
    let at = |line, col| Diagnostic::error(ctx.file_loc("a.mlir", line, col), "bad");
    assert_eq!(sm.render(&at(1, 2)), "a.mlir:1:2: error: bad\nfirst\n ^\n");
    assert_eq!(sm.render(&at(2, 1)), "a.mlir:2:1: error: bad\nsecond\n^\n");
    assert_eq!(sm.render(&at(3, 1)), "a.mlir:3:1: error: bad\n\n^\n");
    assert_eq!(sm.render(&at(4, 4)), "a.mlir:4:4: error: bad\nlast\n   ^\n");
    // Past the end, and line 0: the header only.
    assert_eq!(sm.render(&at(5, 1)), "a.mlir:5:1: error: bad\n");
    assert_eq!(sm.render(&at(0, 1)), "a.mlir:0:1: error: bad\n");
    // A lone `\r` ends the text shown; a column past it shows none.
    let mut sm = SourceMgr::new();
    sm.add("b.mlir", "ab\rcd\nef");
    assert_eq!(sm.render(&at_b(&ctx, 1, 3)), "b.mlir:1:3: error: bad\nab\n  ^\n");
    assert_eq!(sm.render(&at_b(&ctx, 1, 4)), "b.mlir:1:4: error: bad\n");
    assert_eq!(sm.render(&at_b(&ctx, 2, 3)), "b.mlir:2:3: error: bad\nef\n  ^\n");
    assert_eq!(sm.render(&at_b(&ctx, 2, 4)), "b.mlir:2:4: error: bad\n");
}

#[test]
fn many_diagnostics_in_a_long_buffer_each_find_their_line() {
    let arena = bumpalo::Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let n = 50_000;
    let text: String = (1..=n).map(|i| format!("line{i}\n")).collect();
    let mut sm = SourceMgr::new();
    sm.add("big.mlir", text);
    // Rendering looks the line up in the index built once by `add`: all 50k render in
    // linear total time (re-splitting the buffer per diagnostic took ~n^2/2 line scans).
    for i in (1..=n).rev() {
        let d = Diagnostic::error(ctx.file_loc("big.mlir", i, 1), "x");
        assert_eq!(sm.render(&d), format!("big.mlir:{i}:1: error: x\nline{i}\n^\n"));
    }
}

#[test]
fn summary_puts_notes_on_one_line_without_the_printed_op() {
    let arena = bumpalo::Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    let loc = ctx.unknown_loc();
    let bare = Diagnostic::error(loc, "failed to legalize operation 'func.func'");
    assert_eq!(bare.summary(), "failed to legalize operation 'func.func'");
    let noted = bare
        .with_note(loc, "patterns tried: A, B")
        .with_note(loc, "see current operation: \"func.func\"() ({ ... })")
        .with_note(loc, "'B' declined: a reason");
    assert_eq!(
        noted.summary(),
        "failed to legalize operation 'func.func' (patterns tried: A, B; 'B' declined: a reason)"
    );
}

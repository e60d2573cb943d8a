//! The formats of the `npuvec` ops without operand lists (sync, core identity, buffers) and
//! of the host's `reshape` and `constant`. Each falls back to the attribute dictionary for what
//! it cannot show as keywords (invalid IR), so everything it prints parses back.

use kiln_compiler::syntax::custom::{CustomSyntax, OpAsmParser, OpAsmPrinter, PResult};
use kiln_compiler::{AttrKind, OpId, OperationState, Type};

use super::{i64_list, parse_i64_list_tail};
use crate::npuvec::attrs::Pipe;

/// `npuvec.set_flag mte2 -> v event 0 {attrs}?` (also `npuvec.wait_flag`).
pub(crate) static FLAG_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_flag, print: print_flag, default_dialect: None };

/// `npuvec.barrier v {attrs}?`.
pub(crate) static BARRIER_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_barrier, print: print_barrier, default_dialect: None };

/// `{attrs}? : type` for an op with one result and no operands (`npuvec.alloc`,
/// `npuvec.block_idx`).
pub(crate) static RESULT_TYPE_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_result_type, print: print_result_type, default_dialect: None };

/// `npuvec.buffer [0, 2048] {attrs}? : type` (one type for every result).
pub(crate) static BUFFER_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_buffer, print: print_buffer, default_dialect: None };

/// `npuvec.reshape %x {attrs}? : type -> type`.
pub(crate) static RESHAPE_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_reshape, print: print_reshape, default_dialect: None };

/// `npuvec.constant dense<...> : tensor<...> {attrs}? -> type`.
pub(crate) static CONSTANT_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_constant, print: print_constant, default_dialect: None };

/// Parses a pipe keyword into attribute `name`.
fn parse_pipe<'c>(
    p: &mut dyn OpAsmParser<'_, 'c>,
    state: &mut OperationState<'c>,
    name: &str,
) -> PResult<()> {
    let at = p.offset();
    let Some(pipe) = p.parse_optional_bare_keyword().and_then(Pipe::from_keyword) else {
        let cases: Vec<&str> = Pipe::ALL.iter().map(|c| c.keyword()).collect();
        return Err(p.error(at, &format!("expected a pipe ({})", cases.join(", "))));
    };
    let ctx = p.context();
    state.attrs.push((ctx.intern_str(name), pipe.attr(ctx)));
    Ok(())
}

fn parse_flag<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    if !p.at_lbrace() {
        parse_pipe(p, state, "src")?;
        p.parse_punct("->")?;
        parse_pipe(p, state, "dst")?;
        if !p.parse_optional_keyword("event") {
            return Err(p.error(p.offset(), "expected 'event'"));
        }
        let event = p.parse_attribute()?;
        state.attrs.push((p.context().intern_str("event"), event));
    }
    p.parse_optional_attr_dict(state)?;
    p.move_inherent(state);
    Ok(())
}

fn print_flag(pr: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    pr.print_op_name(op);
    let ir = pr.ir();
    let attrs = pr.op_attrs(op);
    let pipe = |name| ir.attr(op, name).and_then(Pipe::of);
    let event = ir.attr(op, "event").filter(|e| e.as_int().is_some());
    let mut elided: &[&str] = &[];
    if let (Some(src), Some(dst), Some(event)) = (pipe("src"), pipe("dst"), event) {
        pr.write(&format!(" {} -> {} event ", src.keyword(), dst.keyword()));
        // `0` reads back as `0 : i64`; another type is spelled out.
        match *event.kind() {
            AttrKind::Integer { value, ty } if ty == pr.context().int_type(64) => {
                pr.write(&value.to_string())
            }
            _ => pr.print_attribute(event),
        }
        elided = &["src", "dst", "event"];
    }
    pr.print_optional_attr_dict(&attrs, elided);
}

fn parse_barrier<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    if !p.at_lbrace() {
        parse_pipe(p, state, "pipe")?;
    }
    p.parse_optional_attr_dict(state)?;
    p.move_inherent(state);
    Ok(())
}

fn print_barrier(pr: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    pr.print_op_name(op);
    let attrs = pr.op_attrs(op);
    let mut elided: &[&str] = &[];
    if let Some(pipe) = pr.ir().attr(op, "pipe").and_then(Pipe::of) {
        pr.write(" ");
        pr.write(pipe.keyword());
        elided = &["pipe"];
    }
    pr.print_optional_attr_dict(&attrs, elided);
}

fn parse_result_type<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    state.result_types.push(p.parse_type()?);
    Ok(())
}

/// Prints ` : t1, t2` with the op's result types.
fn print_result_types(pr: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = pr.ir();
    pr.write(" : ");
    pr.print_types(ir.results(op).iter().map(|&r| ir.value_type(r)));
}

fn print_result_type(pr: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    pr.print_op_name(op);
    let attrs = pr.op_attrs(op);
    pr.print_optional_attr_dict(&attrs, &[]);
    print_result_types(pr, op);
}

fn parse_buffer<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let mut count = 1;
    if p.parse_optional_punct("[") {
        let offsets = parse_i64_list_tail(p)?;
        count = crate::npuvec::attrs::i64_array(offsets).map_or(1, |o| o.len().max(1));
        state.attrs.push((p.context().intern_str("offsets"), offsets));
    }
    p.parse_optional_attr_dict(state)?;
    p.move_inherent(state);
    p.parse_punct(":")?;
    let types = p.parse_type_list()?;
    state.result_types = match types.as_slice() {
        [one] => vec![*one; count],
        _ => types,
    };
    Ok(())
}

fn print_buffer(pr: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    pr.print_op_name(op);
    let ir = pr.ir();
    let attrs = pr.op_attrs(op);
    let results: Vec<Type<'_>> = ir.results(op).iter().map(|&r| ir.value_type(r)).collect();
    let offsets = ir.attr(op, "offsets").and_then(crate::npuvec::attrs::i64_array);
    // The offsets give the result count when there is one offset per result, all of one type.
    let uniform = results.windows(2).all(|w| w[0] == w[1]);
    match offsets.filter(|o| o.len() == results.len() && uniform && !results.is_empty()) {
        Some(_) => {
            let list = ir.attr(op, "offsets").and_then(i64_list).unwrap_or_default();
            pr.write(" ");
            pr.write(&list);
            pr.print_optional_attr_dict(&attrs, &["offsets"]);
            pr.write(" : ");
            pr.print_type(results[0]);
        }
        None => {
            pr.print_optional_attr_dict(&attrs, &[]);
            print_result_types(pr, op);
        }
    }
}

fn parse_reshape<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let source = p.parse_operand()?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let from = p.parse_type()?;
    p.parse_punct("->")?;
    state.result_types.push(p.parse_type()?);
    state.operands = p.resolve_operands(&[source], &[from], at)?;
    Ok(())
}

fn print_reshape(pr: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    pr.print_op_name(op);
    let ir = pr.ir();
    let attrs = pr.op_attrs(op);
    // A reshape without its one operand and result (invalid IR) has no custom form to keep.
    let (Some(&source), Some(&result)) = (ir.operands(op).first(), ir.results(op).first()) else {
        pr.print_optional_attr_dict(&attrs, &[]);
        return;
    };
    pr.write(" ");
    pr.print_operand(source);
    pr.print_optional_attr_dict(&attrs, &[]);
    pr.write(" : ");
    pr.print_type(ir.value_type(source));
    pr.write(" -> ");
    pr.print_type(ir.value_type(result));
}

fn parse_constant<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    if !p.parse_optional_punct("->") {
        if !p.at_lbrace() {
            let value = p.parse_attribute()?;
            state.attrs.push((p.context().intern_str("value"), value));
        }
        p.parse_optional_attr_dict(state)?;
        p.move_inherent(state);
        p.parse_punct("->")?;
    }
    state.result_types.push(p.parse_type()?);
    Ok(())
}

fn print_constant(pr: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    pr.print_op_name(op);
    let ir = pr.ir();
    let attrs = pr.op_attrs(op);
    if let Some(value) = ir.attr(op, "value") {
        pr.write(" ");
        pr.print_attribute(value);
    }
    pr.print_optional_attr_dict(&attrs, &["value"]);
    pr.write(" -> ");
    pr.print_types(ir.results(op).iter().map(|&r| ir.value_type(r)));
}

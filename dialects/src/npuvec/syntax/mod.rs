//! The custom assembly formats of the `npuvec` ops. Every op also reads and prints in the
//! generic form; a custom form that cannot show an attribute (an enum attribute of the wrong
//! kind, a view that is not an `array<i64>`: invalid IR) leaves it in the attribute dictionary,
//! so whatever prints parses back.
//!
//! - Destination-style ops ([`DPS_SYNTAX`]): `npuvec.<op> <keyword>? ins(...) outs(...)
//!   (sizes [...] strides [...])? {attrs}?`, see `dps.rs`.
//! - `npuvec.set_flag mte2 -> v event 0`, `npuvec.wait_flag ...` ([`FLAG_SYNTAX`]),
//!   `npuvec.barrier v` ([`BARRIER_SYNTAX`]).
//! - `%i = npuvec.block_idx : index`, `%b = npuvec.alloc : memref<...>`
//!   ([`RESULT_TYPE_SYNTAX`]); `%b:2 = npuvec.buffer [0, 2048] : memref<...>`
//!   ([`BUFFER_SYNTAX`]).
//! - Host: `npuvec.launch @k(%a, %b) : (...) -> ()` (`func.call`'s format),
//!   `%r = npuvec.reshape %x : memref<...> -> memref<...>` ([`RESHAPE_SYNTAX`]),
//!   `%c = npuvec.constant dense<...> : tensor<...> -> memref<...>` ([`CONSTANT_SYNTAX`]).

mod dps;
mod simple;

pub(crate) use dps::DPS_SYNTAX;
pub(crate) use simple::{
    BARRIER_SYNTAX, BUFFER_SYNTAX, CONSTANT_SYNTAX, FLAG_SYNTAX, RESHAPE_SYNTAX, RESULT_TYPE_SYNTAX,
};

/// `npuvec.launch`: `func.call`'s format.
pub(crate) use crate::func::syntax::CALL_SYNTAX as LAUNCH_SYNTAX;

use kiln_compiler::syntax::custom::{OpAsmParser, PResult};
use kiln_compiler::Attribute;

use super::attrs::{i64_array, i64_array_attr};

/// Parses `[1, 2, 3]` into an `array<i64: 1, 2, 3>`.
fn parse_i64_list<'c>(p: &mut dyn OpAsmParser<'_, 'c>) -> PResult<Attribute<'c>> {
    p.parse_punct("[")?;
    parse_i64_list_tail(p)
}

/// Parses `1, 2, 3]` (after the `[`) into an `array<i64: 1, 2, 3>`.
fn parse_i64_list_tail<'c>(p: &mut dyn OpAsmParser<'_, 'c>) -> PResult<Attribute<'c>> {
    let mut values = Vec::new();
    if !p.parse_optional_punct("]") {
        loop {
            let at = p.offset();
            let value = p.parse_attribute()?;
            let Some(v) = value.as_int().and_then(|i| i64::try_from(i).ok()) else {
                return Err(p.error(at, "expected an integer"));
            };
            values.push(v);
            if !p.parse_optional_punct(",") {
                break;
            }
        }
        p.parse_punct("]")?;
    }
    Ok(i64_array_attr(p.context(), &values))
}

/// `[1, 2, 3]` for an `array<i64: 1, 2, 3>`, or `None` for another attribute.
fn i64_list(attr: Attribute<'_>) -> Option<String> {
    let values = i64_array(attr)?;
    let parts: Vec<String> = values.iter().map(i64::to_string).collect();
    Some(format!("[{}]", parts.join(", ")))
}

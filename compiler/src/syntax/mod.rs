//! MLIR's textual format: lexing, parsing (ops, regions, blocks, types, attributes,
//! locations, aliases, resources) and printing (generic and custom forms).

pub mod custom;
pub mod print_attr;

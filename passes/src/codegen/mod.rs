//! What the `kiln-codegen-*` passes share: building the lowered IR, the vector kernel model
//! and the tile choice.

pub mod build;
pub mod model;
pub mod options;
pub mod tiling;
pub mod lower_vector;
pub mod vector_ops;
pub mod lower_matmul;

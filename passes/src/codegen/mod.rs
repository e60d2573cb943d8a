//! What the `kiln-codegen-*` passes share: building the lowered IR, the vector kernel model
//! and the tile choice.

pub mod access;
pub mod build;
pub mod conv_plan;
pub mod double_buffer;
pub mod epilogue;
pub mod lower_conv;
pub mod lower_gather;
pub mod lower_layout;
pub mod lower_matmul;
pub mod lower_vector;
pub mod model;
pub mod options;
pub mod placement;
pub mod staged;
pub mod store_view;
pub mod tiling;
pub mod vector_ops;

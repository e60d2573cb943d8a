//! What the `kiln-codegen-*` passes share: building the lowered IR, the vector kernel model,
//! the tile choice, the buffer placement and the sync rules. The last four have cores without
//! IR (`model::assign_buffers`, `tiling::Tiling::choose_in`, `placement`, `sync::plan`) that
//! the eager direct path (`kiln-eager`'s `direct.rs`) makes its decisions with.

pub mod access;
pub mod attention_form;
pub mod attention_tiling;
pub mod build;
pub mod class_host;
pub mod conv_plan;
pub mod double_buffer;
pub mod epilogue;
pub mod lower_attention;
pub mod lower_conv;
pub mod lower_gather;
pub mod lower_layout;
pub mod lower_matmul;
pub mod lower_vector;
pub mod model;
pub mod options;
pub mod placement;
pub mod row_class;
pub mod staged;
pub mod store_view;
pub mod sync;
pub mod tiling;
pub mod vector_ops;

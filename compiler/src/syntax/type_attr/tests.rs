//! Unit tests: spellings checked against mlir-opt 22's output.

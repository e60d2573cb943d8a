//! Reading a shape class back from `npuvec` IR in the form
//! [`disassemble_class`](crate::disassemble_class) writes: a kernel's launch parameters and
//! extents ([`kernel`]), the host program's symbols and size expressions ([`host`]). The
//! `npuvec` verifier checks the class attributes' shapes (`kiln_dialects::npuvec`, whose
//! functions read them here too); how they agree with the program is checked here.

pub mod host;
pub mod kernel;

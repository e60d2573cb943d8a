//! Shape classes: one compiled program for every shape of a class, its tiling data computed
//! at launch (issue 41).
//!
//! A [`ClassModule`] is a static [`Module`] (the *skeleton*: kernels, constants, the host
//! program's buffers and launches) and a [`ShapeClass`] laid over it:
//!
//! - **symbols**: the class's symbolic dims (`?` number `k`, named for messages). Each is
//!   bound at run time by the input dims that name it ([`ShapeClass::inputs`]); every symbol
//!   is named by at least one input dim, and a bound value is at least 1.
//! - **host sizes**: a temporary's byte size and an output's dim may be an [`Expr`] over the
//!   symbols; the skeleton holds 0 in each such place.
//! - **launch parameters** (tiling data): each launch gives its kernel as many values as the
//!   kernel declares ([`KernelClass::params`]), each an [`Expr`] over the symbols. The VM
//!   writes them to registers `r0..` before the kernel's first instruction, on every core;
//!   each must lie in the range its kernel declares, or the run stops before any launch.
//! - **extents**: dim `d` of the GM view of a `Load` or `Store` may take its size from a
//!   register at run time ([`Extent`]); the view's static size is the maximum. The moved
//!   elements land where they do in the full view (a short tail tile fills the first rows of
//!   its buffer), so the loader's proof that every on-chip access is in range, made with the
//!   static sizes, holds for every admissible shape. The VM refuses a size outside `1..=max`
//!   and a view that leaves its GM buffer, naming the kernel, the instruction and the
//!   register.
//!
//! Vector instructions keep static shapes: they run over the whole tile buffer, so the rows
//! past a tail hold bytes of an earlier tile. That is harmless for row-independent work
//! (elementwise ops, reductions along a static last dim) whose junk rows are never stored; a
//! reduction along a dynamic dim is not expressible in a shape class.
//!
//! A static module is the class with no symbols, parameters or extents ([`ClassModule::from`]),
//! and encodes to the same bytes as the module alone.

mod bind;
pub(crate) mod codec;
mod expr;

pub use bind::{BindError, Binding};
pub use expr::{Expr, ExprParseError, Term, MAX_EXPR_TERMS};

use crate::isa::Reg;
use crate::module::Module;

/// The admissible values of one launch parameter, `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParamRange {
    /// The smallest value.
    pub min: i64,
    /// The largest value.
    pub max: i64,
}

/// A GM view dim whose size comes from a register: dim `dim` of the view of instruction
/// `inst` (a `Load` or `Store`) moves `reg` elements, `1..=` the dim's static size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Extent {
    /// The instruction's index in its kernel's code.
    pub inst: u32,
    /// The view dim (outermost 0).
    pub dim: u8,
    /// The register holding the size.
    pub reg: Reg,
}

/// What a kernel of a shape class takes at launch.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct KernelClass {
    /// Its launch parameters, in registers `r0 .. params.len()` when it starts.
    pub params: Vec<ParamRange>,
    /// Its dynamic view dims, sorted by instruction then dim, at most one per dim.
    pub extents: Vec<Extent>,
}

impl KernelClass {
    /// Whether the kernel takes nothing at launch (a static kernel).
    pub fn is_static(&self) -> bool {
        self.params.is_empty() && self.extents.is_empty()
    }

    /// The extents of instruction `inst`.
    pub fn extents_of(&self, inst: u32) -> &[Extent] {
        let start = self.extents.partition_point(|e| e.inst < inst);
        let end = start + self.extents[start..].partition_point(|e| e.inst == inst);
        &self.extents[start..end]
    }
}

/// The dynamic part of a program compiled for a shape class (see the module documentation).
/// Its vectors run parallel to the skeleton's: one entry per input, temporary, output,
/// launch and kernel.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ShapeClass {
    /// The symbols' names (`n`, `batch`), for messages; distinct and not empty.
    pub symbols: Vec<String>,
    /// Per input, per dim: the symbol it binds, or `None` for the skeleton's static dim.
    pub inputs: Vec<Vec<Option<u32>>>,
    /// Per temporary: its byte size, or `None` for the skeleton's.
    pub temps: Vec<Option<Expr>>,
    /// Per output, per dim: its size, or `None` for the skeleton's.
    pub outputs: Vec<Vec<Option<Expr>>>,
    /// Per launch: its parameters (as many as its kernel declares).
    pub launches: Vec<Vec<Expr>>,
    /// Per kernel: what it takes at launch.
    pub kernels: Vec<KernelClass>,
}

impl ShapeClass {
    /// The trivial class of `module`: nothing symbolic.
    pub fn of_static(module: &Module) -> ShapeClass {
        let host = &module.host;
        ShapeClass {
            symbols: Vec::new(),
            inputs: host.inputs.iter().map(|s| vec![None; s.shape.len()]).collect(),
            temps: vec![None; host.temps.len()],
            outputs: host.outputs.iter().map(|(s, _)| vec![None; s.shape.len()]).collect(),
            launches: vec![Vec::new(); host.launches.len()],
            kernels: vec![KernelClass::default(); module.kernels.len()],
        }
    }

    /// Whether the class has nothing symbolic: no symbols, parameters or extents, every size
    /// the skeleton's.
    pub fn is_static(&self) -> bool {
        self.symbols.is_empty()
            && self.inputs.iter().flatten().all(Option::is_none)
            && self.temps.iter().all(Option::is_none)
            && self.outputs.iter().flatten().all(Option::is_none)
            && self.launches.iter().all(Vec::is_empty)
            && self.kernels.iter().all(KernelClass::is_static)
    }

    /// The name of symbol `k` for messages (`n`, or `s3` when it has none).
    pub fn symbol_name(&self, k: u32) -> String {
        self.symbols.get(k as usize).cloned().unwrap_or_else(|| format!("s{k}"))
    }
}

/// A program compiled for a shape class: the skeleton and the class laid over it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ClassModule {
    /// The skeleton (0 in every place the class computes).
    pub module: Module,
    /// The class.
    pub class: ShapeClass,
}

impl From<Module> for ClassModule {
    /// A static module as the trivial class.
    fn from(module: Module) -> ClassModule {
        let class = ShapeClass::of_static(&module);
        ClassModule { module, class }
    }
}

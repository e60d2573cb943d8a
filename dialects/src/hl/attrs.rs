//! The enum attributes of `hl`: the predicate of `hl.cmp` (`#hl.cmp<lt>`) and the
//! approximation of `hl.gelu` (`#hl.approx<tanh>`).

kiln_compiler::enum_attr! {
    /// The predicate of `hl.cmp`. Comparisons with NaN are false except `ne`.
    pub enum CmpPredicate, CMP_PREDICATE = ("hl", "cmp", "comparison predicate") {
        /// `a == b`.
        Eq = "eq",
        /// `a != b`.
        Ne = "ne",
        /// `a < b`.
        Lt = "lt",
        /// `a <= b`.
        Le = "le",
        /// `a > b`.
        Gt = "gt",
        /// `a >= b`.
        Ge = "ge",
    }
}

kiln_compiler::enum_attr! {
    /// How `hl.gelu` computes the Gaussian CDF.
    pub enum GeluApproximation, GELU_APPROXIMATION = ("hl", "approx", "GELU approximation") {
        /// Exact: `0.5*x*(1+erf(x/sqrt(2)))`.
        None = "none",
        /// `0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3)))`.
        Tanh = "tanh",
    }
}

//! [`declare_pass!`](crate::declare_pass): one declaration per pass, as MLIR's `Passes.td`
//! entry, from which the registration record, the pass struct and its [`Pass`](super::Pass)
//! impl are generated.

/// Declares a pass: its registration record (a `pub static INFO:`
/// [`PassInfo`](crate::pass::PassInfo)), its struct, and its [`Pass`](crate::pass::Pass) impl,
/// as MLIR's `Passes.td` generates a pass's base class from one record.
///
/// ```
/// kiln_compiler::declare_pass! {
///     /// Counts the ops under the anchor.
///     struct CountOps;
///     name: "count-ops",
///     summary: "Count operations",
///     description: "Adds the number of ops under the anchor to statistic `num-ops`.",
///     fn run(&mut self, cx, root) {
///         let n = cx.ir.walk(root, kiln_compiler::ir::WalkOrder::PreOrder).count();
///         cx.add_statistic("num-ops", "Number of operations", n as u64);
///         Ok(())
///     }
/// }
/// assert_eq!(INFO.name, "count-ops");
/// assert!(INFO.anchor.is_none() && INFO.options.is_empty());
/// ```
///
/// The parts, in this order:
/// - the struct, with its doc comment: `struct Name;`, or `struct Name { fields }` for a pass
///   with state built from its options;
/// - `name:` (kebab-case, as written in pipelines), `summary:` (one line) and `description:`;
/// - optionally `anchor: "op.name",` (the op the pass must run on; any op when absent) and
///   `options: SPECS,` (a `&'static [PassOptionSpec]`; none when absent);
/// - optionally `create(opts) { ... }`, a block that builds the pass from its parsed
///   [`PassOptions`](crate::pass::PassOptions) `opts` and returns `Result<Name, String>`;
///   without it the pass is the unit struct `Name`;
/// - `fn run(&mut self, cx, root) { ... }`: the body of [`Pass::run`](crate::pass::Pass::run),
///   with `cx: &mut PassContext<'_, 'c>` and `root: OpId` (the anchor op); it returns
///   `Result<(), PassFailed>`;
/// - optionally `fn begin_run(&mut self) { ... }`: the body of
///   [`Pass::begin_run`](crate::pass::Pass::begin_run).
#[macro_export]
macro_rules! declare_pass {
    (
        $(#[$attr:meta])*
        struct $pass:ident $body:tt
        name: $name:literal,
        summary: $summary:literal,
        description: $description:expr,
        $(anchor: $anchor:literal,)?
        $(options: $options:expr,)?
        $(create($opts:ident) $create:block)?
        fn run(&mut $self:ident, $cx:ident, $root:ident) $run:block
        $(fn begin_run(&mut $begin_self:ident) $begin:block)?
    ) => {
        #[doc = concat!("Registration record of `", $name, "`.")]
        pub static INFO: $crate::pass::PassInfo = $crate::pass::PassInfo {
            name: $name,
            summary: $summary,
            description: $description,
            anchor: $crate::declare_pass!(@anchor $($anchor)?),
            options: $crate::declare_pass!(@options $($options)?),
            create: $crate::declare_pass!(@create $pass $($opts $create)?),
        };

        $(#[$attr])*
        struct $pass $body

        impl $crate::pass::Pass for $pass {
            fn info(&self) -> &'static $crate::pass::PassInfo {
                &INFO
            }

            fn run<'c>(
                &mut $self,
                $cx: &mut $crate::pass::PassContext<'_, 'c>,
                $root: $crate::OpId,
            ) -> ::std::result::Result<(), $crate::pass::PassFailed> $run

            $(fn begin_run(&mut $begin_self) $begin)?
        }
    };
    (@anchor) => { ::std::option::Option::None };
    (@anchor $anchor:literal) => { ::std::option::Option::Some($anchor) };
    (@options) => { &[] };
    (@options $options:expr) => { $options };
    (@create $pass:ident) => {
        |_: &$crate::pass::PassOptions| ::std::result::Result::Ok(::std::boxed::Box::new($pass))
    };
    (@create $pass:ident $opts:ident $create:block) => {
        |$opts: &$crate::pass::PassOptions| {
            let pass: ::std::result::Result<$pass, ::std::string::String> = $create;
            pass.map(|p| ::std::boxed::Box::new(p) as ::std::boxed::Box<dyn $crate::pass::Pass>)
        }
    };
}

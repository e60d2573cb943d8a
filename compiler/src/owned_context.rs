//! [`OwnedContext`]: a [`Context`] together with the arena it interns into, for a long-lived
//! owner (the eager JIT session) that cannot lend an arena from a stack frame above it, and
//! whose interned data must not grow without bound as new shapes keep arriving.
//!
//! The context is reached only through [`OwnedContext::with`], whose closure is generic over
//! the context's lifetime (`for<'c> FnOnce(&Context<'c>) -> R`). Everything interned in one
//! call (types, attributes, strings, and any `Ir<'c>` built from them) carries that lifetime,
//! which the closure cannot name outside itself, so nothing interned leaves the call. Between
//! two calls nothing borrows the arena, and when the arena has grown past the budget the owner
//! drops the context and resets the arena: a new *generation* starts empty and reuses the
//! arena's largest chunk. What a session keeps across calls (compiled kernels, cache keys) is
//! therefore plain data, not IR handles.
//!
//! # Soundness
//!
//! The owner is self-referential (the context borrows the arena beside it), which safe Rust
//! cannot express, so five small `unsafe` blocks carry it, each with its argument:
//! - *no dangling reference*: the arena lives from `new` to `drop` at a fixed heap address;
//!   the context, the only holder of references into it, is dropped before the arena is reset
//!   (`reset`) or freed (`drop`);
//! - *no escaping handle*: the context is handed out only to a closure generic over its
//!   lifetime, so no interned value leaves a call and no borrowed value enters the context
//!   (the doc tests of [`OwnedContext`] check that such programs do not compile);
//! - *no aliasing violation* (Stacked Borrows, as Miri checks it): every reference to the
//!   `Bump` is derived from one raw pointer, never from a `Box` that moves with the owner, and
//!   the one `&mut Bump` (in `reset`) is created when no shared one is alive.

use std::ptr::NonNull;

use bumpalo::Bump;

use crate::context::Context;
use crate::dialect::DialectRegistry;

/// A [`Context`] and its arena, owned together; see the module documentation.
///
/// ```
/// use kiln_compiler::{DialectRegistry, OwnedContext};
/// let mut owner = OwnedContext::new(DialectRegistry::new());
/// owner.set_budget(Some(1 << 20));
/// let text = owner.with(|ctx| ctx.tensor_type(&[2, 3], ctx.index_type()).to_string());
/// assert_eq!(text, "tensor<2x3xindex>");
/// ```
///
/// A handle cannot leave the call that interned it, neither returned nor stashed outside:
///
/// ```compile_fail
/// # use kiln_compiler::{DialectRegistry, OwnedContext};
/// let mut owner = OwnedContext::new(DialectRegistry::new());
/// let ty = owner.with(|ctx| ctx.index_type());
/// ```
///
/// ```compile_fail,E0521
/// # use kiln_compiler::{DialectRegistry, OwnedContext, Type};
/// let mut owner = OwnedContext::new(DialectRegistry::new());
/// let mut kept: Vec<Type<'_>> = Vec::new();
/// owner.with(|ctx| kept.push(ctx.index_type()));
/// ```
///
/// and the context cannot be given a value borrowed from elsewhere, which it would keep past
/// that value's lifetime:
///
/// ```compile_fail,E0597
/// # use kiln_compiler::{Context, DialectRegistry, OwnedContext};
/// let arena = bumpalo::Bump::new();
/// let other = Context::new(&arena, DialectRegistry::new());
/// let index = other.index_type();
/// let mut owner = OwnedContext::new(DialectRegistry::new());
/// owner.with(|ctx| ctx.note_type_alias(index, "idx"));
/// ```
pub struct OwnedContext {
    /// The context, created on first use in each generation. It borrows `*arena`.
    ///
    /// Invariant: when `Some`, it was built from a shared reference to `*arena` created after
    /// the arena's last reset, and every reference it holds into the arena was handed to it
    /// through that reference. `'static` stands for "as long as this generation", a lifetime
    /// the type system cannot name; it is never exposed (see [`OwnedContext::with`]).
    ctx: Option<Context<'static>>,
    /// The arena, from `Box::leak`, freed in `Drop`. A raw pointer rather than a `Box`
    /// because moving a `Box` asserts unique access to its contents, which would invalidate the
    /// context's shared references to it (Stacked Borrows); a raw pointer asserts nothing.
    arena: NonNull<Bump>,
    /// The dialects every generation's context knows.
    registry: DialectRegistry,
    /// Whether the next generation's context accepts unregistered dialects.
    allow_unregistered: bool,
    /// Interned bytes past which a `with` call ends the generation.
    budget: Option<usize>,
    /// Resets so far.
    generation: u64,
}

impl OwnedContext {
    /// An owner whose contexts know the dialects in `registry`, with no budget: the arena
    /// grows until [`reset`](Self::reset) is called.
    pub fn new(registry: DialectRegistry) -> Self {
        let arena = NonNull::from(Box::leak(Box::new(Bump::new())));
        OwnedContext { ctx: None, arena, registry, allow_unregistered: false, budget: None, generation: 0 }
    }

    /// Starts a new generation after any [`with`](Self::with) call that leaves more than
    /// `bytes` of interned data in the arena (`None`: never).
    pub fn set_budget(&mut self, bytes: Option<usize>) {
        self.budget = bytes;
    }

    /// Runs `f` with the context of the current generation, then starts a new generation if
    /// the arena has grown past the budget. Interned values persist from one call to the next
    /// within a generation (interning the same type again finds it), but no handle can be
    /// carried from one call to another: `R` cannot mention the context's lifetime.
    pub fn with<R>(&mut self, f: impl for<'c> FnOnce(&Context<'c>) -> R) -> R {
        let arena = self.arena;
        let (registry, allow) = (&self.registry, self.allow_unregistered);
        let ctx: &Context<'static> = self.ctx.get_or_insert_with(|| {
            // SAFETY: `arena` points to a live `Bump` (allocated in `new`, freed only in
            // `drop`), and no `&mut Bump` exists while a context is alive: `reset` drops the
            // context before it takes one. The reference's lifetime is a stand-in (see the
            // `ctx` field); it outlives every use because the context is dropped first.
            let arena: &'static Bump = unsafe { arena.as_ref() };
            let ctx = Context::new(arena, registry.clone());
            ctx.set_allow_unregistered(allow);
            ctx
        });
        // SAFETY: `Context<'static>` and `Context<'a>` differ only in a lifetime, so they have
        // the same layout. Shortening the lifetime is sound here although `Context` is
        // invariant in it, because `f` is generic over that lifetime: it can store into the
        // context only values valid for *every* lifetime (that is, `'static` ones, or values
        // the context itself interned), and it can return or stash outside only values that
        // do not mention the lifetime. So nothing the context holds outlives this generation
        // except `'static` data, and nothing borrowed from the arena outlives this call.
        let ctx: &Context<'_> = unsafe { &*(ctx as *const Context<'static>).cast::<Context<'_>>() };
        let result = f(ctx);
        if self.budget.is_some_and(|budget| self.interned_bytes() > budget) {
            self.reset();
        }
        result
    }

    /// Drops the context and frees the arena's data now, starting a new generation. The next
    /// context accepts unregistered dialects if the last one did.
    pub fn reset(&mut self) {
        if let Some(ctx) = self.ctx.take() {
            self.allow_unregistered = ctx.allows_unregistered();
        }
        // SAFETY: the context, the only holder of references into the arena, is gone, and no
        // `with` call is running (`&mut self`), so this is the only reference to the `Bump`.
        unsafe { self.arena.as_mut() }.reset();
        self.generation += 1;
    }

    /// How many times the arena was reset (by the budget or by [`reset`](Self::reset)).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Bytes of interned data in the arena (its chunks less the free end of the current one;
    /// a reset keeps the largest chunk, empty, for the next generation).
    pub fn interned_bytes(&self) -> usize {
        // SAFETY: a shared reference to a live `Bump`; no `&mut Bump` exists outside `reset`.
        let arena = unsafe { self.arena.as_ref() };
        arena.allocated_bytes().saturating_sub(arena.chunk_capacity())
    }
}

impl Drop for OwnedContext {
    fn drop(&mut self) {
        // The context borrows the arena: drop it first.
        self.ctx = None;
        // SAFETY: `arena` came from `Box::leak` in `new` and is freed only here; nothing
        // refers to it any more (the context is gone, `with` is not running).
        drop(unsafe { Box::from_raw(self.arena.as_ptr()) });
    }
}

impl std::fmt::Debug for OwnedContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnedContext")
            .field("generation", &self.generation)
            .field("interned_bytes", &self.interned_bytes())
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Ir, OperationState};

    /// Interns a `tensor<{n}x{n}xf32>` and builds an op of that type; returns the type's
    /// address (plain data, so it may leave the call).
    fn intern(owner: &mut OwnedContext, n: i64) -> usize {
        owner.with(|ctx| {
            let ty = ctx.tensor_type(&[n, n], ctx.float_type(crate::FloatKind::F32));
            let mut ir = Ir::new();
            let mut state = OperationState::new(ctx.intern_str("test.op"), None, ctx.unknown_loc());
            state.result_types = vec![ty];
            let op = ir.create_op(state);
            assert_eq!(ir.value_type(ir.results(op)[0]), ty);
            ty.0 as *const _ as usize
        })
    }

    #[test]
    fn interned_values_persist_within_a_generation() {
        let mut owner = OwnedContext::new(DialectRegistry::new());
        let first = intern(&mut owner, 3);
        assert_eq!(intern(&mut owner, 3), first, "the second call finds the first call's type");
        // A session holds its owner by value and moves with it: the arena does not move.
        struct Session {
            owner: OwnedContext,
        }
        let mut session = Box::new(Session { owner });
        assert_eq!(intern(&mut session.owner, 3), first);
        let mut owner = session.owner;
        assert_ne!(intern(&mut owner, 4), first);
        assert_eq!(owner.generation(), 0, "without a budget the arena is never reset");
    }

    #[test]
    fn the_budget_starts_new_generations_and_bounds_the_arena() {
        let mut owner = OwnedContext::new(DialectRegistry::new());
        owner.set_budget(Some(4096));
        owner.with(|ctx| ctx.set_allow_unregistered(true));
        let mut peak = 0;
        for n in 0..2000 {
            intern(&mut owner, n);
            peak = peak.max(owner.interned_bytes());
        }
        assert!(owner.generation() > 0, "2000 shapes exceed 4 KiB");
        assert!(peak <= 4096, "after each call the arena is within budget: {peak}");
        assert!(owner.with(|ctx| ctx.allows_unregistered()), "settings survive a reset");
        let gen = owner.generation();
        owner.reset();
        assert_eq!((owner.generation(), owner.interned_bytes()), (gen + 1, 0));
        intern(&mut owner, 1);
        assert!(owner.interned_bytes() > 0, "the arena is usable after a reset");
    }

    #[test]
    fn a_panicking_call_leaves_the_owner_usable() {
        let mut owner = OwnedContext::new(DialectRegistry::new());
        let first = intern(&mut owner, 5);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            owner.with(|ctx| {
                ctx.intern_str("before the panic");
                panic!("a pass failed");
            })
        }));
        assert!(caught.is_err());
        assert_eq!(intern(&mut owner, 5), first);
    }
}

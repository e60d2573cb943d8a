//! Typed `u32` index handles and the arenas they index.
//!
//! Every IR entity (operation, value, block, region) lives in an [`Arena`] and is named by a
//! copyable newtype handle. Erased slots go on a free list and are reused, so long-running
//! rewrites do not grow memory without bound. A handle to an erased slot is a bug in the caller;
//! accessors report it with a panic message that names the handle, like slice indexing would.
//!
//! **Stale handles.** In debug builds (`debug_assertions`, so every `cargo test`) each slot
//! carries a generation that is bumped when the slot is freed, and each handle records the
//! generation it was made with: a handle kept past the erasure of what it named is caught at
//! its next use ("use of stale op3"), even after the slot was reused, and [`Arena::contains`]
//! answers `false` for it. Release builds keep plain `u32` handles (no cost on the parse and
//! print paths); there the use-list check of `Ir::erase_op` is what keeps operands from going
//! stale.

use std::fmt;

/// Declares a `u32` newtype handle with a short display prefix (`op3`, `v7`, `bb2`, `r1`).
macro_rules! entity {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name {
            index: u32,
            #[cfg(debug_assertions)]
            generation: u32,
        }

        impl $name {
            /// The raw index of this handle.
            pub fn index(self) -> usize {
                self.index as usize
            }
        }

        impl EntityRef for $name {
            fn new(index: usize, _generation: u32) -> Self {
                Self {
                    index: u32::try_from(index).expect("more than u32::MAX IR entities"),
                    #[cfg(debug_assertions)]
                    generation: _generation,
                }
            }
            fn index(self) -> usize {
                self.index as usize
            }
            fn generation(self) -> Option<u32> {
                #[cfg(debug_assertions)]
                return Some(self.generation);
                #[cfg(not(debug_assertions))]
                None
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.index)
            }
        }
    };
}

entity!(
    /// An operation.
    OpId,
    "op"
);
entity!(
    /// An SSA value: an operation result or a block argument.
    ValueId,
    "v"
);
entity!(
    /// A basic block.
    BlockId,
    "bb"
);
entity!(
    /// A region: a list of blocks owned by an operation.
    RegionId,
    "r"
);

/// A handle that can be made from and turned into an arena index.
pub trait EntityRef: Copy {
    /// Wraps an index made with slot generation `generation` (ignored in release builds).
    fn new(index: usize, generation: u32) -> Self;
    /// Unwraps the index.
    fn index(self) -> usize;
    /// The slot generation the handle was made with (`None` in release builds).
    fn generation(self) -> Option<u32>;
}

/// Storage for entities of one kind, indexed by their handle; erased slots are reused.
#[derive(Debug, Clone)]
pub struct Arena<K, V> {
    slots: Vec<Option<V>>,
    /// Per slot, how many times it was freed (debug builds: checked against handles).
    #[cfg(debug_assertions)]
    generations: Vec<u32>,
    free: Vec<u32>,
    live: usize,
    _key: std::marker::PhantomData<K>,
}

impl<K: EntityRef, V> Default for Arena<K, V> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            #[cfg(debug_assertions)]
            generations: Vec::new(),
            free: Vec::new(),
            live: 0,
            _key: std::marker::PhantomData,
        }
    }
}

impl<K: EntityRef + fmt::Debug, V> Arena<K, V> {
    /// Stores `value` and returns its handle (reusing an erased slot when there is one).
    pub fn alloc(&mut self, value: V) -> K {
        self.live += 1;
        let i = if let Some(i) = self.free.pop() {
            self.slots[i as usize] = Some(value);
            i as usize
        } else {
            self.slots.push(Some(value));
            #[cfg(debug_assertions)]
            self.generations.push(0);
            self.slots.len() - 1
        };
        K::new(i, self.generation_of(i))
    }

    #[cfg(debug_assertions)]
    fn generation_of(&self, i: usize) -> u32 {
        self.generations[i]
    }

    #[cfg(not(debug_assertions))]
    fn generation_of(&self, _: usize) -> u32 {
        0
    }

    /// Whether `key` was made for the entity now in its slot (always true in release builds).
    fn current(&self, key: K) -> bool {
        key.generation()
            .is_none_or(|g| self.slots.len() > key.index() && g == self.generation_of(key.index()))
    }

    /// Removes the entity; its slot may be reused by a later `alloc`.
    pub fn free(&mut self, key: K) -> V {
        let i = key.index();
        if !self.current(key) {
            panic!("use of stale {key:?} (what it named was erased)");
        }
        let value = self.slots[i].take().unwrap_or_else(|| panic!("{key:?} erased twice"));
        #[cfg(debug_assertions)]
        {
            self.generations[i] = self.generations[i].wrapping_add(1);
        }
        self.free.push(i as u32);
        self.live -= 1;
        value
    }

    /// Reserves room for `additional` more entities.
    pub fn reserve(&mut self, additional: usize) {
        self.slots.reserve(additional);
    }

    /// Whether `key` names a live entity.
    pub fn contains(&self, key: K) -> bool {
        matches!(self.slots.get(key.index()), Some(Some(_))) && self.current(key)
    }

    /// The panic of an access through `key` that names nothing live.
    #[cold]
    #[inline(never)]
    fn dangling(&self, key: K) -> ! {
        if self.current(key) {
            panic!("use of erased or unknown {key:?}")
        }
        panic!("use of stale {key:?} (what it named was erased)")
    }

    /// Number of live entities.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether there are no live entities.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// One past the largest index ever handed out (the size a dense side table needs).
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }
}

impl<K: EntityRef + fmt::Debug, V> std::ops::Index<K> for Arena<K, V> {
    type Output = V;
    fn index(&self, key: K) -> &V {
        match self.slots.get(key.index()) {
            Some(Some(v)) if self.current(key) => v,
            _ => self.dangling(key),
        }
    }
}

impl<K: EntityRef + fmt::Debug, V> std::ops::IndexMut<K> for Arena<K, V> {
    fn index_mut(&mut self, key: K) -> &mut V {
        if !self.current(key) || !matches!(self.slots.get(key.index()), Some(Some(_))) {
            self.dangling(key)
        }
        self.slots[key.index()].as_mut().expect("checked above")
    }
}

/// A dense side table keyed by handle, with a default for entries never set (Cranelift's
/// `SecondaryMap`). Analyses keep their per-entity data here instead of in the IR.
#[derive(Debug, Clone)]
pub struct SecondaryMap<K, V: Clone> {
    values: Vec<V>,
    default: V,
    _key: std::marker::PhantomData<K>,
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::with_default(V::default())
    }
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// An empty map whose unset entries read as `default`.
    pub fn with_default(default: V) -> Self {
        Self { values: Vec::new(), default, _key: std::marker::PhantomData }
    }

    /// Reserves room for entries up to index `capacity`.
    pub fn reserve(&mut self, capacity: usize) {
        self.values.reserve(capacity.saturating_sub(self.values.len()));
    }

    /// The entry for `key` (the default when unset).
    pub fn get(&self, key: K) -> &V {
        self.values.get(key.index()).unwrap_or(&self.default)
    }

    /// A mutable entry for `key`, growing the table as needed.
    pub fn get_mut(&mut self, key: K) -> &mut V {
        let i = key.index();
        if i >= self.values.len() {
            self.values.resize(i + 1, self.default.clone());
        }
        &mut self.values[i]
    }

    /// Sets the entry for `key`.
    pub fn set(&mut self, key: K, value: V) {
        *self.get_mut(key) = value;
    }
}

//! The program of a segment that missed the cache, by the first way that gives one:
//!
//! 1. the direct path ([`direct`]): a plain elementwise segment is emitted per exact shape. It
//!    stays per shape under `--dynamic_shape`: its emission is a tiling computation already
//!    (about 20 us for a GELU chain over (n, 768), a few percent of a call), and the same chain
//!    compiled as a class measured no faster on new shapes and about 20% slower on hits;
//! 2. the segment's shape class (`--dynamic_shape`, [`crate::class`]): compiled once per class
//!    key, bound to each new shape ([`ClassModule::bind`]); a class the pipeline refuses is
//!    remembered and its shapes go on to
//! 3. the pipeline for the exact shapes.
//!
//! A class program whose run fails (a launch the VM refuses for a shape the binding took) is
//! given up the same way ([`Inner::unclass`]): its class is refused and the shape compiles
//! exactly.
//!
//! Every compile's time counts in `Stats::compile_time`; `Stats::cache_misses` counts the
//! compiles that gave a program, a class hit is not one.

use std::rc::Rc;
use std::time::Instant;

use kiln_bytecode::shape::ClassModule;

use super::flush::contain;
use super::Inner;
use crate::cache::{Entry, SegmentKey};
use crate::class::{bind, class_key, ClassSlot};
use crate::compile::{Compiler, Emit};
use crate::direct;
use crate::error::{ErrorKind, Result};

/// A program and the byte sizes of its GM temporaries for the shapes it runs on.
type Program = (Rc<ClassModule>, Box<[u64]>);

impl Inner {
    /// The program of exact key `key`, which the cache missed.
    pub(super) fn program(&mut self, key: &SegmentKey) -> Result<Program> {
        let started = Instant::now();
        let target = &self.target;
        if let Some(module) = contain(ErrorKind::Compile, || Ok(direct::compile(key, target)))? {
            self.stats.direct_compiles += 1;
            return Ok(self.compiled(ClassModule::from(module), started));
        }
        if self.flags.dynamic_shape {
            if let Some(program) = class_key(key).and_then(|class| self.class_program(key, class)) {
                return Ok(program);
            }
        }
        let started = Instant::now();
        let module = self.pipeline(key, kiln_emit::emit)?;
        Ok(self.compiled(ClassModule::from(module), started))
    }

    /// `module`, compiled since `started`, counted as a compile.
    fn compiled(&mut self, module: ClassModule, started: Instant) -> Program {
        self.stats.cache_misses += 1;
        self.stats.compile_time += started.elapsed();
        let temps = module.module.host.temps.clone().into_boxed_slice();
        (Rc::new(module), temps)
    }

    /// The program of shape class `class` bound to exact key `key`'s shapes (the class
    /// compiled on its first shape); `None` when the pipeline refuses the class (now or
    /// before) or the class does not take `key`'s shapes.
    fn class_program(&mut self, key: &SegmentKey, class: SegmentKey) -> Option<Program> {
        let (program, hit) = match self.classes.get(&class) {
            Some(ClassSlot::Refused) => return None,
            Some(ClassSlot::Compiled(program)) => (program, true),
            None => {
                let started = Instant::now();
                let compiled = self.pipeline(&class, kiln_emit::emit_class);
                self.stats.compile_time += started.elapsed();
                let capacity = self.flags.cache_size;
                let Ok(program) = compiled else {
                    self.stats.class_refusals += 1;
                    self.classes.insert(class, ClassSlot::Refused, capacity);
                    return None;
                };
                let program = Rc::new(program);
                self.stats.class_compiles += 1;
                self.stats.cache_misses += 1;
                self.classes.insert(class, ClassSlot::Compiled(Rc::clone(&program)), capacity);
                (program, false)
            }
        };
        let temps = bind(&program, key)?;
        self.stats.class_hits += u64::from(hit);
        Some((program, temps))
    }

    /// Gives up the shape class of `entry` (bound to its class, its run failed): the class
    /// is refused from now on, and `entry` replaced in the cache by its exact shapes' program,
    /// which is returned.
    pub(super) fn unclass(&mut self, entry: &Rc<Entry>) -> Result<Rc<Entry>> {
        if let Some(class) = class_key(&entry.key) {
            if !matches!(self.classes.get(&class), Some(ClassSlot::Refused)) {
                self.stats.class_refusals += 1;
                self.classes.insert(class, ClassSlot::Refused, self.flags.cache_size);
            }
        }
        self.cache.remove(entry);
        let started = Instant::now();
        let module = self.pipeline(&entry.key, kiln_emit::emit)?;
        let program = self.compiled(ClassModule::from(module), started);
        let (exact, evicted) = self.cache.insert(entry.key.clone(), program, self.flags.cache_size);
        self.stats.cache_evictions += evicted;
        Ok(exact)
    }

    /// Compiles `key` with the pipelines of its flags and emits it with `emit`, writing the
    /// dumps with `--dump_as_text`; a panic in the compiler is an error.
    fn pipeline<T>(&mut self, key: &SegmentKey, emit: Emit<T>) -> Result<T> {
        let compiler = match &mut self.compiler {
            Some(c) if *c.fusion() == *key.fusion => c,
            slot => slot.insert(Compiler::new(&key.fusion, &self.target.name)?),
        };
        let stem = format!("segment_{:04}", self.compiled);
        self.compiled += 1;
        let dump = self.flags.dump_as_text.then_some((self.flags.dump_dir.as_path(), stem.as_str()));
        let (owner, target) = (&mut self.owner, &self.target);
        contain(ErrorKind::Compile, || compiler.compile(owner, key, target, dump, emit))
    }
}

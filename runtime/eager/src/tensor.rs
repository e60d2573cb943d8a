//! [`Tensor`]: a handle (slot index and generation) to a value of a session. Cloning it adds
//! a reference to the value, dropping it removes one; a value that no tensor names is not
//! written out of the segment that computes it. A tensor of a dropped session, or of another
//! session, is an error wherever it is used.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use kiln_bytecode::isa::DType;
use kiln_vm::HostTensor;

use crate::error::{EagerError, ErrorKind, Result};
use crate::host::{from_bytes, Element};
use crate::node::TensorType;
use crate::session::{Inner, Session};

/// A value of a session, on the host or pending in the open segment.
pub struct Tensor {
    pub(crate) session: Weak<RefCell<Inner>>,
    pub(crate) slot: u32,
    pub(crate) generation: u32,
    pub(crate) ty: TensorType,
}

/// An operand of a recorded op: a tensor or a scalar (a rank-0 constant).
#[derive(Clone, Copy)]
pub enum Arg<'a> {
    /// A tensor.
    Tensor(&'a Tensor),
    /// A scalar, converted to the element type of the op's tensor operands.
    Scalar(f64),
}

impl<'a> From<&'a Tensor> for Arg<'a> {
    fn from(t: &'a Tensor) -> Arg<'a> {
        Arg::Tensor(t)
    }
}

impl From<f64> for Arg<'_> {
    fn from(v: f64) -> Arg<'static> {
        Arg::Scalar(v)
    }
}

impl From<f32> for Arg<'_> {
    fn from(v: f32) -> Arg<'static> {
        Arg::Scalar(f64::from(v))
    }
}

impl From<i32> for Arg<'_> {
    fn from(v: i32) -> Arg<'static> {
        Arg::Scalar(f64::from(v))
    }
}

pub(crate) fn dropped() -> EagerError {
    EagerError::new(ErrorKind::SessionDropped, "the tensor's session was dropped")
}

impl Tensor {
    pub(crate) fn new(session: Weak<RefCell<Inner>>, slot: u32, generation: u32, ty: TensorType) -> Tensor {
        Tensor { session, slot, generation, ty }
    }

    /// The session, if it is alive.
    pub fn session(&self) -> Result<Session> {
        self.session.upgrade().map(|inner| Session { inner }).ok_or_else(dropped)
    }

    /// The type.
    pub fn ty(&self) -> &TensorType {
        &self.ty
    }

    /// The dims.
    pub fn shape(&self) -> Vec<usize> {
        self.ty.shape.iter().map(|&d| d as usize).collect()
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.ty.dtype
    }

    /// The value on the host, flushing its segment first if it is pending
    /// ([`FlushReason::HostRead`](crate::FlushReason::HostRead)).
    pub fn host(&self) -> Result<HostValue> {
        let session = self.session.upgrade().ok_or_else(dropped)?;
        let host = session.borrow_mut().read(self.slot, self.generation)?;
        Ok(HostValue { host: Some(host), session: self.session.clone() })
    }

    /// The elements, row-major (`T` must be the element type).
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        if T::DTYPE != self.ty.dtype {
            return Err(EagerError::new(
                ErrorKind::DType,
                format!("cannot read a '{}' as {} elements", self.ty, T::DTYPE.name()),
            ));
        }
        Ok(from_bytes(&self.host()?.bytes))
    }
}

/// A value read to the host ([`Tensor::host`]), shared with the session (never copied). When
/// the last holder of a large value lets go, its bytes become a spare buffer of the session
/// for a later segment's output of the same size.
pub struct HostValue {
    host: Option<Rc<HostTensor>>,
    session: Weak<RefCell<Inner>>,
}

impl std::ops::Deref for HostValue {
    type Target = HostTensor;
    fn deref(&self) -> &HostTensor {
        self.host.as_deref().expect("a host value holds its tensor until it is dropped")
    }
}

impl HostValue {
    /// References to the value (this one included).
    pub(crate) fn holders(&self) -> usize {
        self.host.as_ref().map_or(0, Rc::strong_count)
    }

    /// The shared value, without giving it to the pool.
    pub(crate) fn into_rc(mut self) -> Rc<HostTensor> {
        self.host.take().expect("a host value holds its tensor until it is dropped")
    }
}

impl Drop for HostValue {
    fn drop(&mut self) {
        let (Some(host), Some(session)) = (self.host.take(), self.session.upgrade()) else { return };
        // A value dropped while the session is busy (from inside one of its own calls) is
        // simply freed.
        let Ok(mut inner) = session.try_borrow_mut() else { return };
        inner.pool.give(host);
    }
}

impl Clone for Tensor {
    fn clone(&self) -> Tensor {
        if let Some(inner) = self.session.upgrade() {
            if let Ok(mut inner) = inner.try_borrow_mut() {
                if inner.owns(self.slot, self.generation) {
                    inner.retain(self.slot);
                }
            }
        }
        Tensor {
            session: self.session.clone(),
            slot: self.slot,
            generation: self.generation,
            ty: self.ty.clone(),
        }
    }
}

impl Drop for Tensor {
    fn drop(&mut self) {
        if let Some(inner) = self.session.upgrade() {
            if let Ok(mut inner) = inner.try_borrow_mut() {
                if inner.owns(self.slot, self.generation) {
                    inner.release(self.slot);
                }
            }
        }
    }
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tensor({}, slot {}, generation {})", self.ty, self.slot, self.generation)
    }
}

//! `kiln._kiln`: the eager session for Python. Arrays cross as bytes (the `kiln` package turns
//! them into numpy arrays); errors become Python exceptions: shape errors `ValueError`, element
//! type errors `TypeError`, values past the memory limit `MemoryError`, malformed flags
//! `ValueError`, the rest `RuntimeError`. Nothing panics across the boundary: every fallible
//! call returns a `PyResult`.
//!
//! Every Python thread may use every object: one session serves the process, and the GIL
//! orders all calls into it ([`Shared`]).
#![deny(missing_docs)]

use kiln_compiler::OpDef;
use kiln_dialects::hl;
use kiln_eager::{
    Arg, AttrValue, CmpPredicate, DType, EagerError, ErrorKind, Flags, FlushReason, GeluApproximation,
    Session, Tensor, TensorType,
};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

fn py_err(e: EagerError) -> PyErr {
    match e.kind {
        ErrorKind::Shape | ErrorKind::Flags => PyValueError::new_err(e.message),
        ErrorKind::DType => PyTypeError::new_err(e.message),
        ErrorKind::Memory => PyMemoryError::new_err(e.message),
        _ => PyRuntimeError::new_err(e.message),
    }
}

/// A session object (a `Session`, `Tensor` or `HostValue`: `Rc`s and `RefCell`s, neither
/// `Send` nor `Sync`) that any Python thread may use.
///
/// Sound because every access holds the GIL, which orders them: pyo3 takes it for every
/// method call and for deallocation, and nothing in this module gives it up while it touches
/// a session (no `allow_threads`; the session never calls back into Python). The module is
/// declared `gil_used`, so a free-threaded interpreter turns the GIL on when importing it.
/// Within one thread, a session borrowed when a drop comes in (a Python finalizer run during
/// a call) is handled by the session itself (a `Tensor` or `HostValue` drop that finds it busy
/// skips the bookkeeping), as without threads.
struct Shared<T>(T);

// SAFETY: see `Shared`: the GIL serializes every use, so no two threads touch the value (or
// the `Rc` counts and `RefCell` flags behind it) at once, and its lock hand-off orders their
// accesses.
unsafe impl<T> Send for Shared<T> {}
// SAFETY: as for `Send`.
unsafe impl<T> Sync for Shared<T> {}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

fn dtype_of(name: &str) -> PyResult<DType> {
    Ok(match name {
        "f32" => DType::F32,
        "f16" => DType::F16,
        "bf16" => DType::BF16,
        "i32" => DType::I32,
        "i8" => DType::I8,
        "i1" => DType::I1,
        other => return Err(PyTypeError::new_err(format!("kiln has no '{other}' arrays"))),
    })
}

/// An eager session.
#[pyclass(frozen, name = "Session")]
struct PySession {
    session: Shared<Session>,
    warnings: Vec<String>,
}

/// A value of a session.
#[pyclass(frozen, name = "Tensor")]
struct PyTensor {
    tensor: Shared<Tensor>,
}

fn wrap(r: kiln_eager::Result<Tensor>) -> PyResult<PyTensor> {
    r.map(|tensor| PyTensor { tensor: Shared(tensor) }).map_err(py_err)
}

/// A tensor or a float, as an op operand.
#[derive(FromPyObject)]
enum Operand<'py> {
    Tensor(PyRef<'py, PyTensor>),
    Float(f64),
}

impl Operand<'_> {
    fn arg(&self) -> Arg<'_> {
        match self {
            Operand::Tensor(t) => Arg::Tensor(&t.tensor),
            Operand::Float(v) => Arg::Scalar(*v),
        }
    }
}

#[pymethods]
impl PySession {
    /// A session with the flags of `KILN_FUSION_FLAGS` and then `flags`.
    #[new]
    fn new(flags: &str) -> PyResult<PySession> {
        let mut parsed = Flags::from_env().map_err(py_err)?;
        let mut warnings = std::mem::take(&mut parsed.warnings);
        warnings.extend(parsed.flags.apply(flags).map_err(py_err)?);
        let session = Session::new(parsed.flags).map_err(py_err)?;
        Ok(PySession { session: Shared(session), warnings })
    }

    /// The warnings of the flags the session was created with.
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    /// A tensor from little-endian `data` of `shape` and `dtype` (`f32`, `f16`, `i32`, ...).
    fn tensor(&self, data: &[u8], shape: Vec<usize>, dtype: &str) -> PyResult<PyTensor> {
        wrap(self.session.tensor_from_bytes(data.to_vec(), &shape, dtype_of(dtype)?))
    }

    /// A tensor holding a copy of the `nbytes` bytes at `address` (little-endian elements of
    /// `dtype`, row-major `shape`): one copy, into a spare buffer of the session when one has
    /// the size.
    ///
    /// The caller (the `kiln` package) passes the data pointer of a live, C-contiguous numpy
    /// array or torch tensor of exactly `nbytes` bytes, which it keeps referenced for the
    /// call; the GIL is held throughout, so nothing frees or resizes it meanwhile.
    fn tensor_at(&self, address: usize, nbytes: usize, shape: Vec<usize>, dtype: &str) -> PyResult<PyTensor> {
        let dtype = dtype_of(dtype)?;
        if nbytes == 0 || address == 0 {
            return Err(PyValueError::new_err("kiln arrays of size 0 are not supported"));
        }
        // SAFETY: by this method's contract, `address` points to `nbytes` initialized bytes
        // that stay alive and unchanged for the call.
        let bytes = unsafe { std::slice::from_raw_parts(address as *const u8, nbytes) };
        wrap(self.session.tensor_from_slice(bytes, &shape, dtype))
    }

    /// Records `hl` op `op` (its name without `hl.`, say `gather`) on `operands` (tensors or
    /// floats) with attributes `attrs` (ints, floats, bools, lists of ints; a comparison's
    /// `predicate` and a GELU's `approximate` as their keywords); `declared` (shape, dtype)
    /// gives the result type of ops whose result is given, not derived.
    #[pyo3(signature = (op, operands, attrs, declared=None))]
    fn record(
        &self,
        op: &str,
        operands: Vec<Operand<'_>>,
        attrs: &Bound<'_, PyDict>,
        declared: Option<(Vec<i64>, String)>,
    ) -> PyResult<PyTensor> {
        let def = hl::HL
            .op_named(op)
            .ok_or_else(|| PyValueError::new_err(format!("'hl.{op}' is not an hl op")))?;
        let mut values: Vec<(&'static str, AttrValue)> = Vec::new();
        for (k, v) in attrs.iter() {
            let key: String = k.extract()?;
            let name =
                def.attrs.iter().map(|a| a.name).find(|n| *n == key).ok_or_else(|| {
                    PyValueError::new_err(format!("'{}' has no attribute '{key}'", def.name))
                })?;
            values.push((name, attr_value(name, &v)?));
        }
        let declared = match declared {
            Some((shape, dtype)) => Some(TensorType::new(dtype_of(&dtype)?, &shape)),
            None => None,
        };
        let args: Vec<Arg<'_>> = operands.iter().map(Operand::arg).collect();
        wrap(self.session.record(def, &args, &values, declared))
    }

    /// Flushes what is pending.
    fn sync(&self) -> PyResult<()> {
        self.session.sync().map_err(py_err)
    }

    /// Applies a flags string; returns its warnings.
    fn set_flags(&self, flags: &str) -> PyResult<Vec<String>> {
        self.session.set_flags(flags).map_err(py_err)
    }

    /// The counters, as a dict.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.session.stats();
        let d = PyDict::new(py);
        d.set_item("ops_recorded", s.ops_recorded)?;
        d.set_item("cache_hits", s.cache_hits)?;
        d.set_item("segments_predicted", s.segments_predicted)?;
        d.set_item("buffers_reused", s.buffers_reused)?;
        d.set_item("cache_misses", s.cache_misses)?;
        d.set_item("direct_compiles", s.direct_compiles)?;
        d.set_item("class_compiles", s.class_compiles)?;
        d.set_item("class_hits", s.class_hits)?;
        d.set_item("class_refusals", s.class_refusals)?;
        d.set_item("cache_evictions", s.cache_evictions)?;
        d.set_item("compile_seconds", s.compile_time.as_secs_f64())?;
        d.set_item("prepare_seconds", s.prepare_time.as_secs_f64())?;
        d.set_item("segments_run", s.segments_run)?;
        d.set_item("segments_skipped", s.segments_skipped)?;
        d.set_item("segment_outputs", s.segment_outputs)?;
        d.set_item("kernels_launched", s.kernels_launched)?;
        d.set_item("device_time_ns", s.device_time_ns)?;
        let flushes = PyDict::new(py);
        for r in FlushReason::ALL {
            flushes.set_item(r.name(), s.flushes_for(r))?;
        }
        d.set_item("flushes", flushes)?;
        Ok(d)
    }
}

/// The attribute value of Python object `v` for attribute `name`.
fn attr_value(name: &str, v: &Bound<'_, PyAny>) -> PyResult<AttrValue> {
    if name == "predicate" {
        return Ok(AttrValue::Cmp(cmp_of(&v.extract::<String>()?)?));
    }
    if name == "approximate" {
        let k: String = v.extract()?;
        return GeluApproximation::from_keyword(&k)
            .map(AttrValue::Gelu)
            .ok_or_else(|| PyValueError::new_err(format!("unknown GELU approximation '{k}'")));
    }
    if v.is_instance_of::<pyo3::types::PyBool>() {
        return Ok(AttrValue::Bool(v.extract()?));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<pyo3::types::PyTuple>() {
        let items: Vec<i64> = v.extract()?;
        return Ok(AttrValue::Ints(items.into_iter().collect()));
    }
    if v.is_instance_of::<pyo3::types::PyInt>() {
        return Ok(AttrValue::Int(v.extract()?));
    }
    let f: f32 = v.extract()?;
    Ok(AttrValue::F32(f.to_bits()))
}

fn cmp_of(name: &str) -> PyResult<CmpPredicate> {
    CmpPredicate::from_keyword(name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown comparison '{name}'")))
}

/// A computed value's bytes, shared with the session. numpy views them in place through the
/// array interface (read-only: the session's value is immutable, and other tensors may share
/// it); the view keeps this object, and so the bytes, alive. When the last view goes, a large
/// value's bytes go back to the session for a later output ([`kiln_eager::HostValue`]).
#[pyclass(frozen)]
struct HostBytes {
    host: Shared<kiln_eager::HostValue>,
}

#[pymethods]
impl HostBytes {
    /// numpy's array interface (version 3): a read-only one-dimensional `uint8` array over the
    /// bytes.
    #[getter]
    fn __array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let bytes = &self.host.bytes;
        let d = PyDict::new(py);
        d.set_item("version", 3)?;
        d.set_item("shape", (bytes.len(),))?;
        d.set_item("typestr", "|u1")?;
        d.set_item("data", (bytes.as_ptr() as usize, true))?;
        Ok(d)
    }
}

/// Bytes moved out of the session ([`Session::take_bytes`]): the caller's own, so numpy
/// views them writable through the array interface. When the last view goes, a large buffer
/// goes back to the session's pool of spare buffers.
#[pyclass(frozen)]
struct OwnedBytes {
    /// The buffer, leaked from its `Vec` (rebuilt when dropped): numpy writes through this
    /// pointer, so no Rust reference to the bytes exists while this object lives.
    ptr: Shared<*mut u8>,
    len: usize,
    capacity: usize,
    session: Shared<Session>,
}

impl OwnedBytes {
    fn new(bytes: Vec<u8>, session: Session) -> OwnedBytes {
        let mut bytes = std::mem::ManuallyDrop::new(bytes);
        OwnedBytes {
            ptr: Shared(bytes.as_mut_ptr()),
            len: bytes.len(),
            capacity: bytes.capacity(),
            session: Shared(session),
        }
    }
}

impl Drop for OwnedBytes {
    fn drop(&mut self) {
        // SAFETY: `ptr`, `len` and `capacity` are those of the `Vec` leaked in `new`, rebuilt
        // once, here.
        let bytes = unsafe { Vec::from_raw_parts(*self.ptr, self.len, self.capacity) };
        self.session.give_bytes(bytes);
    }
}

#[pymethods]
impl OwnedBytes {
    /// numpy's array interface (version 3): a writable one-dimensional `uint8` array over the
    /// bytes.
    #[getter]
    fn __array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("version", 3)?;
        d.set_item("shape", (self.len,))?;
        d.set_item("typestr", "|u1")?;
        d.set_item("data", (*self.ptr as usize, false))?;
        Ok(d)
    }
}

#[pymethods]
impl PyTensor {
    /// The value's bytes for the host: moved out of the session (an [`OwnedBytes`], writable;
    /// the tensor can no longer be used) when this tensor is the value's only holder, else
    /// shared (a read-only [`HostBytes`]). Returns the object and whether it is writable.
    fn take(&self, py: Python<'_>) -> PyResult<(PyObject, bool)> {
        let session = self.tensor.session().map_err(py_err)?;
        match session.take_bytes(&self.tensor).map_err(py_err)? {
            Ok(bytes) => Ok((Py::new(py, OwnedBytes::new(bytes, session))?.into_any(), true)),
            Err(host) => Ok((Py::new(py, HostBytes { host: Shared(host) })?.into_any(), false)),
        }
    }

    /// The dims.
    #[getter]
    fn shape(&self) -> Vec<usize> {
        self.tensor.shape()
    }

    /// The element type (`f32`, `i1`, ...).
    #[getter]
    fn dtype(&self) -> &'static str {
        self.tensor.dtype().name()
    }

    /// The elements as little-endian bytes (flushes if pending), shared with the session, not
    /// copied: a [`HostBytes`] that numpy reads in place.
    fn host_bytes(&self) -> PyResult<HostBytes> {
        Ok(HostBytes { host: Shared(self.tensor.host().map_err(py_err)?) })
    }

    /// A unary op by name (`exp`, `neg`, `abs`, ...).
    fn unary(&self, name: &str) -> PyResult<PyTensor> {
        let t = &self.tensor;
        wrap(match name {
            "neg" => t.neg(),
            "abs" => t.abs(),
            "exp" => t.exp(),
            "log" => t.log(),
            "sqrt" => t.sqrt(),
            "rsqrt" => t.rsqrt(),
            "reciprocal" => t.reciprocal(),
            "tanh" => t.tanh(),
            "sigmoid" => t.sigmoid(),
            "relu" => t.relu(),
            "silu" => t.silu(),
            "erf" => t.erf(),
            "floor" => t.floor(),
            "ceil" => t.ceil(),
            "round" => t.round(),
            "sign" => t.sign(),
            "logical_not" => t.logical_not(),
            other => return Err(PyValueError::new_err(format!("unknown unary op '{other}'"))),
        })
    }

    /// A reduction by name (`sum`, `max`, `min`, `prod`, `mean`) over `axes`.
    fn reduce(&self, name: &str, axes: Vec<i64>, keep_dims: bool) -> PyResult<PyTensor> {
        let t = &self.tensor;
        wrap(match name {
            "sum" => t.sum(&axes, keep_dims),
            "max" => t.max(&axes, keep_dims),
            "min" => t.min(&axes, keep_dims),
            "prod" => t.prod(&axes, keep_dims),
            "mean" => t.mean(&axes, keep_dims),
            other => return Err(PyValueError::new_err(format!("unknown reduction '{other}'"))),
        })
    }

    /// Conversion to `dtype`.
    fn cast(&self, dtype: &str) -> PyResult<PyTensor> {
        wrap(self.tensor.cast(dtype_of(dtype)?))
    }

    /// Matrix product (`hl.batch_matmul` past rank 2).
    fn matmul(&self, other: PyRef<'_, PyTensor>) -> PyResult<PyTensor> {
        if self.tensor.shape().len().max(other.tensor.shape().len()) > 2 {
            wrap(self.tensor.batch_matmul(&other.tensor, false, false))
        } else {
            wrap(self.tensor.matmul(&other.tensor, false, false))
        }
    }

    /// The same elements in `shape`.
    fn reshape(&self, shape: Vec<i64>) -> PyResult<PyTensor> {
        wrap(self.tensor.reshape(&shape))
    }

    /// Broadcast to `shape`.
    fn broadcast_to(&self, shape: Vec<i64>) -> PyResult<PyTensor> {
        wrap(self.tensor.broadcast_to(&shape))
    }

    /// Dims permuted by `perm`.
    fn transpose(&self, perm: Vec<i64>) -> PyResult<PyTensor> {
        wrap(self.tensor.transpose(&perm))
    }

    /// Softmax along `axis`.
    fn softmax(&self, axis: i64) -> PyResult<PyTensor> {
        wrap(self.tensor.softmax(axis))
    }

    /// Layer normalization over the last dim.
    fn layer_norm(
        &self,
        gamma: PyRef<'_, PyTensor>,
        beta: PyRef<'_, PyTensor>,
        epsilon: f32,
    ) -> PyResult<PyTensor> {
        wrap(self.tensor.layer_norm(&gamma.tensor, &beta.tensor, epsilon))
    }
}

/// A binary op by name (`add`, `sub`, `mul`, `div`, `pow`, `maximum`, `minimum`, `and`,
/// `or`) or a comparison (`eq`, `ne`, `lt`, `le`, `gt`, `ge`); either operand may be a float.
#[pyfunction]
fn binary(name: &str, a: Operand<'_>, b: Operand<'_>) -> PyResult<PyTensor> {
    let session = match (&a, &b) {
        (Operand::Tensor(t), _) | (_, Operand::Tensor(t)) => t.tensor.session().map_err(py_err)?,
        _ => return Err(PyTypeError::new_err("at least one operand must be a kiln array")),
    };
    let def = |n: &str| -> Option<&'static OpDef> {
        Some(match n {
            "add" => &hl::ADD,
            "sub" => &hl::SUB,
            "mul" => &hl::MUL,
            "div" => &hl::DIV,
            "pow" => &hl::POW,
            "maximum" => &hl::MAXIMUM,
            "minimum" => &hl::MINIMUM,
            "and" => &hl::AND,
            "or" => &hl::OR,
            _ => return None,
        })
    };
    let args = [a.arg(), b.arg()];
    wrap(match def(name) {
        Some(def) => session.record(def, &args, &[], None),
        None => session.record(&hl::CMP, &args, &[("predicate", AttrValue::Cmp(cmp_of(name)?))], None),
    })
}

/// `where(cond, a, b)`; `a` and `b` may be floats.
#[pyfunction]
fn select(cond: PyRef<'_, PyTensor>, a: Operand<'_>, b: Operand<'_>) -> PyResult<PyTensor> {
    let session = cond.tensor.session().map_err(py_err)?;
    wrap(session.record(&hl::SELECT, &[Arg::Tensor(&cond.tensor), a.arg(), b.arg()], &[], None))
}

/// The native module (it relies on the GIL: [`Shared`]).
#[pymodule(gil_used = true)]
fn _kiln(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySession>()?;
    m.add_class::<PyTensor>()?;
    m.add_class::<HostBytes>()?;
    m.add_class::<OwnedBytes>()?;
    m.add_function(wrap_pyfunction!(binary, m)?)?;
    m.add_function(wrap_pyfunction!(select, m)?)?;
    Ok(())
}

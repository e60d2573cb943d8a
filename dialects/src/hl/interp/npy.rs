//! Reading and writing NumPy `.npy` files (format versions 1, 2 and 3, little-endian, C order).
//!
//! Supported `descr`s: `<f2` (f16), `<f4` (f32), `|b1` (i1), `|i1` (i8), `<i4` (i32), `<i8`
//! (i64). numpy has no bfloat16, so bf16 tensors are written as `<u2` holding the raw bits,
//! and a `<u2` file is read as bf16 bits when the caller expects [`DType::BF16`].
//!
//! Files of the element types `hl` lacks are read converted to the `hl` type that holds them
//! (as the ONNX importer maps these types at a function's boundary): `<f8` (float64) to f32,
//! rounded to nearest even; `|u1`, `<i2`, `<u2` (uint8, int16, uint16) to i32 and `<u4` (uint32)
//! to i64, exactly; `<u8` (uint64) to i64, the same bits (values from 2^63 read negative). Only
//! reading converts: results are written in their own type.
//! Anything else is an error, never a panic: a bad magic string or version, a truncated or
//! non-dict header, missing or extra keys, `fortran_order: True`, a big-endian or unknown
//! `descr`, or data whose length does not match the shape. `i1` bytes read as `byte != 0`.

use std::path::Path;

use half::{bf16, f16};

use super::error::{bail, InterpError, Result};
use super::tensor::{Tensor, TensorData};
use super::DType;

const MAGIC: &[u8] = b"\x93NUMPY";

/// The `.npy` spelling of `dtype` (bf16 as its raw bits, `<u2`).
fn descr(dtype: DType) -> &'static str {
    match dtype {
        DType::F16 => "<f2",
        DType::BF16 => "<u2",
        DType::F32 => "<f4",
        DType::I1 => "|b1",
        DType::I8 => "|i1",
        DType::I32 => "<i4",
        DType::I64 => "<i8",
    }
}

/// The element type a `.npy` `descr` denotes, given what the caller expects.
fn dtype_of(descr_text: &str, expected: Option<DType>) -> Result<DType> {
    if descr_text.starts_with('>') {
        bail!("big-endian npy dtype `{descr_text}` is not supported");
    }
    if descr_text == "<u2" && expected == Some(DType::BF16) {
        return Ok(DType::BF16);
    }
    match DType::ALL.into_iter().find(|&d| d != DType::BF16 && descr(d) == descr_text) {
        Some(d) => Ok(d),
        None => bail!("unsupported npy dtype `{descr_text}`"),
    }
}

/// A value of the Python literal subset used in `.npy` headers.
#[derive(Debug, PartialEq)]
enum Literal {
    Str(String),
    Bool(bool),
    Int(usize),
    Tuple(Vec<Literal>),
    Dict(Vec<(String, Literal)>),
}

/// A recursive-descent parser for [`Literal`]s.
struct LiteralParser<'a> {
    text: &'a [u8],
    pos: usize,
}

impl LiteralParser<'_> {
    fn skip_spaces(&mut self) {
        while self.text.get(self.pos).is_some_and(|c| c.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_spaces();
        self.text.get(self.pos).copied()
    }

    fn expect(&mut self, c: u8) -> Result<()> {
        if self.peek() != Some(c) {
            bail!("malformed npy header: expected `{}` at byte {}", c as char, self.pos);
        }
        self.pos += 1;
        Ok(())
    }

    /// The items of a `{...}` or `(...)` body up to `close`, allowing a trailing comma.
    fn items<T>(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Result<T>) -> Result<Vec<T>> {
        let mut out = vec![];
        while self.peek() != Some(close) {
            out.push(item(self)?);
            if self.peek() == Some(b',') {
                self.pos += 1;
            } else if self.peek() != Some(close) {
                bail!("malformed npy header: expected `,` or `{}` at byte {}", close as char, self.pos);
            }
        }
        self.pos += 1;
        Ok(out)
    }

    fn value(&mut self) -> Result<Literal> {
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                let entries = self.items(b'}', |p| {
                    let Literal::Str(key) = p.value()? else {
                        bail!("malformed npy header: dict key is not a string")
                    };
                    p.expect(b':')?;
                    Ok((key, p.value()?))
                })?;
                Ok(Literal::Dict(entries))
            }
            Some(b'(') => {
                self.pos += 1;
                Ok(Literal::Tuple(self.items(b')', Self::value)?))
            }
            Some(quote @ (b'\'' | b'"')) => {
                let start = self.pos + 1;
                let Some(len) = self.text[start..].iter().position(|&c| c == quote) else {
                    bail!("malformed npy header: unterminated string")
                };
                self.pos = start + len + 1;
                Ok(Literal::Str(String::from_utf8_lossy(&self.text[start..start + len]).into_owned()))
            }
            Some(c) if c.is_ascii_alphanumeric() => {
                let start = self.pos;
                while self.text.get(self.pos).is_some_and(|c| c.is_ascii_alphanumeric()) {
                    self.pos += 1;
                }
                let word = std::str::from_utf8(&self.text[start..self.pos]).unwrap_or("");
                match word {
                    "True" => Ok(Literal::Bool(true)),
                    "False" => Ok(Literal::Bool(false)),
                    _ => match word.trim_end_matches('L').parse() {
                        Ok(n) => Ok(Literal::Int(n)),
                        Err(_) => bail!("malformed npy header: unexpected `{word}`"),
                    },
                }
            }
            _ => bail!("malformed npy header: unexpected input at byte {}", self.pos),
        }
    }
}

/// The `(descr, fortran_order, shape)` of a header text.
fn parse_header(text: &[u8]) -> Result<(String, bool, Vec<usize>)> {
    let mut parser = LiteralParser { text, pos: 0 };
    let Literal::Dict(entries) = parser.value()? else { bail!("malformed npy header: not a dict") };
    if parser.peek().is_some() {
        bail!("malformed npy header: trailing input after the dict");
    }
    let mut keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    if keys != ["descr", "fortran_order", "shape"] {
        bail!("malformed npy header: keys must be `descr`, `fortran_order` and `shape`, got {keys:?}");
    }
    let (mut descr_text, mut fortran, mut shape) = (None, None, None);
    for (key, value) in entries {
        match (key.as_str(), value) {
            ("descr", Literal::Str(s)) => descr_text = Some(s),
            ("fortran_order", Literal::Bool(b)) => fortran = Some(b),
            ("shape", Literal::Tuple(dims)) => {
                let dims: Option<Vec<usize>> =
                    dims.into_iter().map(|d| if let Literal::Int(n) = d { Some(n) } else { None }).collect();
                shape = dims;
            }
            (key, _) => bail!("malformed npy header: `{key}` has the wrong kind of value"),
        }
    }
    match (descr_text, fortran, shape) {
        (Some(d), Some(f), Some(s)) => Ok((d, f, s)),
        _ => bail!("malformed npy header: `shape` must be a tuple of integers"),
    }
}

/// Decodes a `.npy` file. With `expected`, the file must hold that type (`Some(BF16)` also
/// enables reading `<u2` as bf16 bits).
pub fn decode_npy(bytes: &[u8], expected: Option<DType>) -> Result<Tensor> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        bail!("not an npy file: bad magic string");
    }
    let (header_start, header_len) = match bytes[6] {
        1 => (10usize, u16::from_le_bytes([bytes[8], bytes[9]]) as usize),
        2 | 3 if bytes.len() >= 12 => {
            (12, u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize)
        }
        major => bail!("unsupported npy format version {major}.{}", bytes[7]),
    };
    let Some(header) = bytes.get(header_start..header_start.saturating_add(header_len)) else {
        bail!(
            "truncated npy header: {header_len} bytes announced, {} present",
            bytes.len() - header_start.min(bytes.len())
        );
    };
    let (descr_text, fortran, shape) = parse_header(header)?;
    if fortran {
        bail!("npy files in Fortran order are not supported");
    }
    let data = &bytes[header_start + header_len..];
    let wide = Wide::of(&descr_text).filter(|_| !(descr_text == "<u2" && expected == Some(DType::BF16)));
    let (dtype, size) = match wide {
        Some(w) => (w.holder(), w.byte_size()),
        None => {
            let d = dtype_of(&descr_text, expected)?;
            (d, d.byte_size())
        }
    };
    if let Some(want) = expected.filter(|&w| w != dtype) {
        bail!("npy file holds {dtype}, expected {want}");
    }
    let count = shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
    if count.and_then(|c| c.checked_mul(size)) != Some(data.len()) {
        bail!(
            "npy data has {} bytes, shape {shape:?} of `{descr_text}` needs {}",
            data.len(),
            count.map_or("too many".into(), |c| (c * size).to_string())
        );
    }
    let decoded = match wide {
        Some(w) => w.decode(data),
        None => decode_data(dtype, data),
    };
    Tensor::new(shape, decoded)
}

/// An `.npy` element type `hl` lacks, read into the `hl` type that holds it.
#[derive(Clone, Copy)]
enum Wide {
    F64,
    U8,
    I16,
    U16,
    U32,
    U64,
}

impl Wide {
    fn of(descr_text: &str) -> Option<Wide> {
        Some(match descr_text {
            "<f8" => Wide::F64,
            "|u1" => Wide::U8,
            "<i2" => Wide::I16,
            "<u2" => Wide::U16,
            "<u4" => Wide::U32,
            "<u8" => Wide::U64,
            _ => return None,
        })
    }

    fn byte_size(self) -> usize {
        match self {
            Wide::U8 => 1,
            Wide::I16 | Wide::U16 => 2,
            Wide::U32 => 4,
            Wide::F64 | Wide::U64 => 8,
        }
    }

    /// The `hl` element type the values are read into.
    fn holder(self) -> DType {
        match self {
            Wide::F64 => DType::F32,
            Wide::U8 | Wide::I16 | Wide::U16 => DType::I32,
            Wide::U32 | Wide::U64 => DType::I64,
        }
    }

    fn decode(self, data: &[u8]) -> TensorData {
        macro_rules! words {
            ($n:literal, $conv:expr) => {
                data.chunks_exact($n).map(|c| $conv(<[u8; $n]>::try_from(c).unwrap_or([0; $n])))
            };
        }
        match self {
            Wide::F64 => TensorData::F32(words!(8, f64::from_le_bytes).map(|x| x as f32).collect()),
            Wide::U8 => TensorData::I32(data.iter().map(|&b| i32::from(b)).collect()),
            Wide::I16 => TensorData::I32(words!(2, i16::from_le_bytes).map(i32::from).collect()),
            Wide::U16 => TensorData::I32(words!(2, u16::from_le_bytes).map(i32::from).collect()),
            Wide::U32 => TensorData::I64(words!(4, u32::from_le_bytes).map(i64::from).collect()),
            Wide::U64 => TensorData::I64(words!(8, u64::from_le_bytes).map(|x| x as i64).collect()),
        }
    }
}

/// Little-endian elements of `dtype` from `data` (whose length is a multiple of the size).
fn decode_data(dtype: DType, data: &[u8]) -> TensorData {
    macro_rules! words {
        ($n:literal, $conv:expr) => {
            data.chunks_exact($n).map(|c| $conv(<[u8; $n]>::try_from(c).unwrap_or([0; $n]))).collect()
        };
    }
    match dtype {
        DType::F16 => TensorData::F16(words!(2, f16::from_le_bytes)),
        DType::BF16 => TensorData::BF16(words!(2, bf16::from_le_bytes)),
        DType::F32 => TensorData::F32(words!(4, f32::from_le_bytes)),
        DType::I1 => TensorData::I1(data.iter().map(|&b| b != 0).collect()),
        DType::I8 => TensorData::I8(data.iter().map(|&b| b as i8).collect()),
        DType::I32 => TensorData::I32(words!(4, i32::from_le_bytes)),
        DType::I64 => TensorData::I64(words!(8, i64::from_le_bytes)),
    }
}

/// Encodes `tensor` as a `.npy` file (version 1, or 2 for huge headers), bf16 as `<u2` bits.
pub fn encode_npy(tensor: &Tensor) -> Vec<u8> {
    let dims: Vec<String> = tensor.shape().iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header =
        format!("{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}", descr(tensor.dtype()));
    let small = header.len() + 11 <= usize::from(u16::MAX);
    let prefix = if small { 10 } else { 12 };
    header.push_str(&" ".repeat((64 - (prefix + header.len() + 1) % 64) % 64));
    header.push('\n');
    let mut out = MAGIC.to_vec();
    if small {
        out.extend([1, 0]);
        out.extend((header.len() as u16).to_le_bytes());
    } else {
        out.extend([2, 0]);
        out.extend((header.len() as u32).to_le_bytes());
    }
    out.extend(header.bytes());
    match tensor.data() {
        TensorData::F16(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
        TensorData::BF16(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
        TensorData::F32(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
        TensorData::I1(v) => out.extend(v.iter().map(|&b| u8::from(b))),
        TensorData::I8(v) => out.extend(v.iter().map(|&b| b as u8)),
        TensorData::I32(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
        TensorData::I64(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
    }
    out
}

/// Reads and decodes the `.npy` file at `path` (see [`decode_npy`]).
pub fn read_npy(path: &Path, expected: Option<DType>) -> Result<Tensor> {
    let bytes = std::fs::read(path)
        .map_err(|e| InterpError::new(format!("cannot read `{}`: {e}", path.display())))?;
    decode_npy(&bytes, expected)
        .map_err(|e| InterpError::new(format!("`{}`: {}", path.display(), e.message())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(header: &str, data: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend([1, 0]);
        out.extend((header.len() as u16).to_le_bytes());
        out.extend(header.bytes());
        out.extend(data);
        out
    }

    #[test]
    fn round_trips_every_type() {
        for dtype in DType::ALL {
            let t = Tensor::from_i64s(dtype, vec![2, 3], &[0, 1, -1, 5, -7, 2]).unwrap();
            let bytes = encode_npy(&t);
            assert_eq!((bytes.len() - t.numel() * dtype.byte_size()) % 64, 0);
            assert_eq!(decode_npy(&bytes, Some(dtype)).unwrap(), t, "{dtype}");
        }
        let scalar = Tensor::scalar(DType::F32, 1.5);
        assert_eq!(decode_npy(&encode_npy(&scalar), None).unwrap(), scalar);
        let header = "{\"shape\": (2L,), \"fortran_order\": False, \"descr\": \"<i4\"}";
        let t = decode_npy(&file(header, &[1, 0, 0, 0, 2, 0, 0, 0]), None).unwrap();
        assert_eq!(t.to_f64s(), vec![1., 2.]);
    }

    #[test]
    fn rejects_malformed_files() {
        let ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"\x93NUMPX\x01\x00\x00\x00".to_vec(), "bad magic"),
            (vec![], "bad magic"),
            (file(ok, &[0; 4])[..20].to_vec(), "truncated npy header"),
            (file("('descr',)", &[]), "not a dict"),
            (file("['descr']", &[]), "unexpected input"),
            (file("{'descr': '<f4', 'fortran_order': False", &[]), "expected `,` or `}`"),
            (file("{'descr': '<f4', 'shape': (1,)}", &[0; 4]), "keys must be"),
            (file("{'descr': '<f4', 'fortran_order': True, 'shape': (1,)}", &[0; 4]), "Fortran"),
            (file("{'descr': '>f4', 'fortran_order': False, 'shape': (1,)}", &[0; 4]), "big-endian"),
            (
                file("{'descr': '<c8', 'fortran_order': False, 'shape': (1,)}", &[0; 8]),
                "unsupported npy dtype",
            ),
            (file("{'descr': '<u2', 'fortran_order': False, 'shape': (2,)}", &[0; 2]), "needs 4"),
            (file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", &[0; 4]), "needs 8"),
            (
                file("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 'a')}", &[0; 4]),
                "tuple of integers",
            ),
            (
                file("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999, 99999999999)}", &[]),
                "too many",
            ),
            (file("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", &[0; 4]), "wrong kind"),
            (file("{'descr: '<f4'}", &[]), "expected `:`"),
            (file("{'descr': -1}", &[]), "unexpected input"),
            (
                file(ok, &[0; 4]).into_iter().enumerate().map(|(i, b)| if i == 6 { 9 } else { b }).collect(),
                "version 9",
            ),
        ];
        for (bytes, needle) in cases {
            let err = decode_npy(&bytes, None).unwrap_err();
            assert!(err.message().contains(needle), "`{}` does not mention `{needle}`", err.message());
        }
        let bytes = file(ok, &[0; 4]);
        assert!(decode_npy(&bytes, Some(DType::F16)).unwrap_err().message().contains("expected f16"));
        let bf = file("{'descr': '<u2', 'fortran_order': False, 'shape': ()}", &[0x80, 0x3f]);
        assert_eq!(decode_npy(&bf, Some(DType::BF16)).unwrap().to_f64s(), vec![1.0]);
    }

    #[test]
    fn reads_the_types_hl_lacks_into_their_holders() {
        let read = |descr: &str, data: &[u8], n: usize| {
            let header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({n},)}}");
            decode_npy(&file(&header, data), None).unwrap()
        };
        let f = read("<f8", &[0.1f64.to_le_bytes(), (-2.5f64).to_le_bytes()].concat(), 2);
        assert_eq!((f.dtype(), f.to_f64s()), (DType::F32, vec![f64::from(0.1f32), -2.5]));
        let u8s = read("|u1", &[255, 1], 2);
        assert_eq!((u8s.dtype(), u8s.to_f64s()), (DType::I32, vec![255., 1.]));
        assert_eq!(read("<i2", &(-300i16).to_le_bytes(), 1).to_f64s(), vec![-300.]);
        assert_eq!(read("<u2", &60000u16.to_le_bytes(), 1).to_f64s(), vec![60000.]);
        let u32s = read("<u4", &u32::MAX.to_le_bytes(), 1);
        assert_eq!((u32s.dtype(), u32s.to_f64s()), (DType::I64, vec![4294967295.]));
        assert_eq!(read("<u8", &u64::MAX.to_le_bytes(), 1).to_f64s(), vec![-1.]);
        let header = "{'descr': '|u1', 'fortran_order': False, 'shape': (1,)}";
        assert!(decode_npy(&file(header, &[1]), Some(DType::I8))
            .unwrap_err()
            .message()
            .contains("expected i8"));
    }
}

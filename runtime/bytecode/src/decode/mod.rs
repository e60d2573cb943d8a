//! The decoder: bytes to a [`Module`], rejecting every byte sequence that is not the canonical
//! encoding of some module (the layout is in [`crate::format`]). It never panics, never reads
//! out of bounds and allocates at most in proportion to the input: every count is checked
//! against the bytes left before anything is allocated for it.
//!
//! Decoding checks the form only; what a module means on a target (ranges, spaces, shapes,
//! structure, relocations) is [`validate`](fn@crate::validate)'s job.

mod inst;

use crate::error::LoadError;
use crate::format::{table_end, MAGIC, SECTIONS, SECTION_ALIGN, STATIC_SECTIONS, VERSION};
use crate::module::{BufferRef, Host, Launch, Module, TensorSpec};
use crate::reader::Reader;
use crate::shape::{ClassModule, ShapeClass};

/// Decodes bytecode into a module. A program compiled for a shape class (with a `shape
/// class` section) is an error: [`decode_class`] reads it.
pub fn decode(bytes: &[u8]) -> Result<Module, LoadError> {
    match decode_parts(bytes)? {
        (module, None) => Ok(module),
        (_, Some(_)) => Err(LoadError::at(
            12,
            "this program was compiled for a shape class (it has a `shape class` section); load it \
             with `load_class`",
        )),
    }
}

/// Decodes bytecode into a program for a shape class; a static program is the trivial class.
pub fn decode_class(bytes: &[u8]) -> Result<ClassModule, LoadError> {
    match decode_parts(bytes)? {
        (module, None) => Ok(ClassModule::from(module)),
        (_, Some((at, class))) if class.is_static() => Err(LoadError::at(
            at,
            "the `shape class` section holds a static class; a static program has no such section",
        )),
        (module, Some((_, class))) => Ok(ClassModule { module, class }),
    }
}

/// The module and, when the file has its section, the shape class (with its offset).
fn decode_parts(bytes: &[u8]) -> Result<(Module, Option<(usize, ShapeClass)>), LoadError> {
    let sections = section_table(bytes)?;
    let reader = |kind: usize| {
        let (start, end) = sections[kind];
        Reader::new(bytes, start, end, SECTION_CONTEXT[kind])
    };
    let mut r = reader(0);
    let target = r.string("the target name")?;
    r.finish()?;
    let mut r = reader(1);
    let names = names(&mut r)?;
    r.finish()?;
    let mut r = reader(2);
    let kernels = inst::kernels(&mut r, &names, sections[1].0)?;
    r.finish()?;
    let mut r = reader(3);
    let mut host = host(&mut r)?;
    r.finish()?;
    host.name = names.last().cloned().unwrap_or_default();
    let mut r = reader(4);
    let constants = constants(&mut r)?;
    r.finish()?;
    let class = match sections.get(STATIC_SECTIONS) {
        Some(&(at, _)) => {
            let mut r = reader(STATIC_SECTIONS);
            let class = crate::shape::codec::class(&mut r)?;
            r.finish()?;
            Some((at, class))
        }
        None => None,
    };
    Ok((Module { target, kernels, host, constants }, class))
}

/// How truncation messages name each section.
const SECTION_CONTEXT: [&str; SECTIONS.len()] = [
    "section `target name`",
    "section `names`",
    "section `kernels`",
    "section `host program`",
    "section `constants`",
    "section `shape class`",
];

/// Checks the header and the section table; returns each section's byte range (five, or six
/// with a shape class).
fn section_table(bytes: &[u8]) -> Result<Vec<(usize, usize)>, LoadError> {
    let mut r = Reader::new(bytes, 0, bytes.len(), "header");
    if !bytes.starts_with(&MAGIC) && !MAGIC.starts_with(bytes) {
        return Err(LoadError::at(
            0,
            format!(
                "not Kiln bytecode: the file starts with `{}`, expected the magic `{}`",
                bytes[..MAGIC.len().min(bytes.len())].escape_ascii(),
                MAGIC.escape_ascii()
            ),
        ));
    }
    r.take(MAGIC.len(), "the magic")?;
    let version = r.u32("the format version")?;
    if version != VERSION {
        return Err(LoadError::at(
            8,
            format!("unsupported bytecode format version {version}; this loader reads version {VERSION}"),
        ));
    }
    let count = r.u32("the section count")?;
    if count as usize != STATIC_SECTIONS && count as usize != SECTIONS.len() {
        return Err(LoadError::at(
            12,
            format!(
                "the section table lists {count} sections, expected {STATIC_SECTIONS} (or {} with a shape class)",
                SECTIONS.len()
            ),
        ));
    }
    let mut ranges = vec![(0, 0); count as usize];
    let mut prev_end = table_end(count as usize);
    for (i, name) in SECTIONS.iter().take(count as usize).enumerate() {
        let at = r.pos();
        let kind = r.u32("a section table entry")?;
        let reserved = r.u32("a section table entry")?;
        let offset = r.u64("a section table entry")?;
        let length = r.u64("a section table entry")?;
        if kind as usize != i + 1 {
            let reason = match SECTIONS.get((kind as usize).wrapping_sub(1)) {
                Some(found) => format!("section table entry {i} is section `{found}`, expected `{name}`"),
                None => format!("unknown section kind {kind}"),
            };
            return Err(LoadError::at(at, reason));
        }
        if reserved != 0 {
            return Err(LoadError::at(
                at + 4,
                format!("nonzero reserved field in the entry of section `{name}`"),
            ));
        }
        let end = offset.checked_add(length).filter(|&e| e <= bytes.len() as u64).ok_or_else(|| {
            LoadError::at(
                at + 8,
                format!(
                    "section `{name}` (offset {offset:#x}, {length} bytes) runs past the end of the file \
                     ({} bytes)",
                    bytes.len()
                ),
            )
        })?;
        let (offset, end) = (offset as usize, end as usize);
        if offset < prev_end {
            let other = match i {
                0 => "the section table".to_string(),
                _ => format!("section `{}`", SECTIONS[i - 1]),
            };
            return Err(LoadError::at(at + 8, format!("section `{name}` at {offset:#x} overlaps {other}")));
        }
        let expected = prev_end.next_multiple_of(SECTION_ALIGN);
        if offset != expected {
            return Err(LoadError::at(
                at + 8,
                format!(
                    "section `{name}` starts at {offset:#x}, expected {expected:#x} (the next \
                     {SECTION_ALIGN}-byte boundary)"
                ),
            ));
        }
        if let Some(p) = bytes[prev_end..offset].iter().position(|&b| b != 0) {
            return Err(LoadError::at(prev_end + p, format!("nonzero padding before section `{name}`")));
        }
        ranges[i] = (offset, end);
        prev_end = end;
    }
    if prev_end != bytes.len() {
        return Err(LoadError::at(
            prev_end,
            format!("{} trailing bytes after the last section", bytes.len() - prev_end),
        ));
    }
    Ok(ranges)
}

fn names(r: &mut Reader) -> Result<Vec<String>, LoadError> {
    let n = r.u32("the name count")?;
    let n = r.count(n as u64, 4, "name")?;
    (0..n).map(|_| r.string("a name")).collect()
}

fn spec(r: &mut Reader) -> Result<TensorSpec, LoadError> {
    let dtype = r.enum_u32()?;
    let rank = r.u32("a tensor rank")?;
    let rank = r.count(rank as u64, 8, "dim")?;
    let shape = (0..rank).map(|_| r.u64("a dim")).collect::<Result<_, _>>()?;
    Ok(TensorSpec { dtype, shape })
}

fn buffer_ref(r: &mut Reader) -> Result<BufferRef, LoadError> {
    let at = r.pos();
    let kind = r.u32("a buffer reference")?;
    let index = r.u32("a buffer reference")?;
    match kind {
        0 => Ok(BufferRef::Input(index)),
        1 => Ok(BufferRef::Const(index)),
        2 => Ok(BufferRef::Temp(index)),
        _ => Err(LoadError::at(at, format!("unknown buffer reference kind {kind}"))),
    }
}

/// The host program, without its name (which is in the names section).
fn host(r: &mut Reader) -> Result<Host, LoadError> {
    let n = r.u32("the input count")?;
    let inputs = (0..r.count(n as u64, 8, "input")?).map(|_| spec(r)).collect::<Result<_, _>>()?;
    let n = r.u32("the temporary count")?;
    let temps = (0..r.count(n as u64, 8, "temporary")?)
        .map(|_| r.u64("a temporary size"))
        .collect::<Result<_, _>>()?;
    let n = r.u32("the launch count")?;
    let mut launches = Vec::with_capacity(r.count(n as u64, 8, "launch")?);
    for _ in 0..n {
        let kernel = r.u32("a launch's kernel")?;
        let argc = r.u32("a launch's argument count")?;
        let argc = r.count(argc as u64, 8, "launch argument")?;
        let args = (0..argc).map(|_| buffer_ref(r)).collect::<Result<_, _>>()?;
        launches.push(Launch { kernel, args });
    }
    let n = r.u32("the output count")?;
    let outputs = (0..r.count(n as u64, 16, "output")?)
        .map(|_| Ok((spec(r)?, buffer_ref(r)?)))
        .collect::<Result<_, LoadError>>()?;
    Ok(Host { name: String::new(), inputs, temps, launches, outputs })
}

fn constants(r: &mut Reader) -> Result<Vec<(TensorSpec, Vec<u8>)>, LoadError> {
    let n = r.u32("the constant count")?;
    let n = r.count(n as u64, 16, "constant")?;
    let mut constants = Vec::with_capacity(n);
    for _ in 0..n {
        let spec = spec(r)?;
        let len = r.u64("a constant's byte length")?;
        let len = r.count(len, 1, "constant byte")?;
        constants.push((spec, r.take(len, "a constant's data")?.to_vec()));
    }
    Ok(constants)
}

//! `Einsum(equation)`: every operand is transposed to a common order of all the equation's
//! letters (the output's first, then the summed ones) and reshaped with unit dims for the
//! letters it lacks; the product of all of them (numpy broadcasting) is summed over the summed
//! letters with `hl.reduce_sum`. `...` stands for the same leading dims in every operand. A
//! letter repeated within one operand (a diagonal) is not supported.

use kiln_dialects::hl;

use super::arith::{bin, reduce};
use crate::graph::{Importer, Val};

/// The labels of one term: letters, with `...` expanded to placeholder labels `'0'`, `'1'`, ...
/// for the dims it stands for (the operand's rank minus its letters; for the output, the most
/// any operand has, kept in `ellipsis`).
fn labels(term: &str, rank: Option<usize>, ellipsis: &mut usize) -> Result<Vec<char>, String> {
    let letters = term.replace("...", "");
    if letters.chars().any(|c| !c.is_ascii_alphabetic()) {
        return Err(format!("invalid einsum term '{term}'"));
    }
    if !term.contains("...") {
        return Ok(letters.chars().collect());
    }
    let dims = match rank {
        Some(r) => {
            r.checked_sub(letters.len()).ok_or_else(|| format!("term '{term}' has more letters than dims"))?
        }
        None => *ellipsis,
    };
    *ellipsis = (*ellipsis).max(dims);
    let (head, tail) = term.split_once("...").unwrap_or((term, ""));
    let mut out: Vec<char> = head.chars().collect();
    out.extend((0..dims.min(10)).map(|i| char::from(b'0' + i as u8)));
    out.extend(tail.chars());
    Ok(out)
}

/// Imports `Einsum`.
pub(super) fn einsum(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let eq: String = super::attr_str(node, "equation", "")?.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l.to_string(), Some(r.to_string())),
        None => (eq.clone(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != node.input.len() {
        return Err(format!("equation '{eq}' has {} terms for {} inputs", terms.len(), node.input.len()));
    }
    let inputs: Vec<Val> = (0..terms.len()).map(|i| imp.input(node, i)).collect::<Result<_, _>>()?;
    let mut ellipsis = 0;
    let mut ops: Vec<Vec<char>> = Vec::new();
    for (t, x) in terms.iter().zip(&inputs) {
        let l = labels(t, Some(imp.rank(x)), &mut ellipsis)?;
        if l.len() != imp.rank(x) {
            return Err(format!("term '{t}' does not match an input of rank {}", imp.rank(x)));
        }
        if (1..l.len()).any(|i| l[..i].contains(&l[i])) {
            return Err(format!("term '{t}' repeats a letter (diagonals are not supported)"));
        }
        ops.push(l);
    }
    // Placeholders of the leading `...` dims, aligned to the right as numpy broadcasts them.
    for l in &mut ops {
        let n = l.iter().filter(|c| c.is_ascii_digit()).count();
        for c in l.iter_mut().filter(|c| c.is_ascii_digit()) {
            *c = char::from(*c as u8 + (ellipsis - n) as u8);
        }
    }
    let out: Vec<char> = match rhs {
        Some(r) => labels(&r, None, &mut ellipsis)?,
        None => {
            let mut all: Vec<char> = ops.iter().flatten().copied().collect();
            all.sort_unstable();
            let mut once: Vec<char> = all
                .iter()
                .copied()
                .filter(|c| all.iter().filter(|d| *d == c).count() == 1 || c.is_ascii_digit())
                .collect();
            once.dedup();
            once
        }
    };
    let mut order = out.clone();
    for c in ops.iter().flatten() {
        if !order.contains(c) {
            order.push(*c);
        }
    }
    let mut product: Option<Val> = None;
    for (x, l) in inputs.iter().zip(&ops) {
        let mut mine: Vec<char> = order.iter().copied().filter(|c| l.contains(c)).collect();
        mine.dedup();
        let perm: Vec<i64> = mine.iter().map(|c| l.iter().position(|d| d == c).unwrap_or(0) as i64).collect();
        let mut v = x.clone();
        if perm.iter().copied().ne(0..perm.len() as i64) {
            let attr = imp.ints_attr(&perm);
            v = imp.op(&hl::TRANSPOSE, &[&v], &[("perm", attr)], None)?;
        }
        let dims = imp.shape(&v)?;
        let full: Vec<i64> =
            order.iter().map(|c| mine.iter().position(|d| d == c).map_or(1, |i| dims[i])).collect();
        v = imp.reshape(&v, &full)?;
        product = Some(match product {
            Some(p) => bin(imp, &hl::MUL, &p, &v)?,
            None => v,
        });
    }
    let y = product.ok_or("`Einsum` needs an input")?;
    let summed: Vec<i64> = (out.len()..order.len()).map(|i| i as i64).collect();
    if summed.is_empty() {
        return Ok(vec![y]);
    }
    Ok(vec![reduce(imp, &hl::REDUCE_SUM, &y, &summed, false)?])
}

//! ONNX op types of the default domain that Kiln decides not to import, with the reason each
//! is refused (the error names it; `docs/frontends/onnx.md` lists them).

/// Why `op` is not supported, when Kiln refuses it on purpose.
pub(crate) fn reason(op: &str) -> Option<&'static str> {
    REFUSED.binary_search_by(|(name, _)| (*name).cmp(op)).ok().map(|i| REFUSED[i].1)
}

const SEQUENCES: &str = "sequences are not tensors; `hl` values are tensors";
const OPTIONAL: &str = "optional values are not tensors";
const STRINGS: &str = "string tensors have no `hl` element type";
const CONTROL: &str = "control flow (subgraphs) is not imported: `hl` functions are one block";
const RANDOM: &str = "random generation has no deterministic reference result";
const DYNAMIC: &str = "its result shape depends on the data (supported only when it folds to a constant)";

/// Sorted by op type.
const REFUSED: &[(&str, &str)] = &[
    ("Bernoulli", RANDOM),
    ("ConcatFromSequence", SEQUENCES),
    ("If", CONTROL),
    ("ImageDecoder", "image decoding of encoded bytes is not a tensor computation"),
    ("Loop", CONTROL),
    ("Multinomial", RANDOM),
    ("Optional", OPTIONAL),
    ("OptionalGetElement", OPTIONAL),
    ("OptionalHasElement", OPTIONAL),
    ("RandomNormal", RANDOM),
    ("RandomNormalLike", RANDOM),
    ("RandomUniform", RANDOM),
    ("RandomUniformLike", RANDOM),
    ("RegexFullMatch", STRINGS),
    ("Scan", CONTROL),
    ("SequenceAt", SEQUENCES),
    ("SequenceConstruct", SEQUENCES),
    ("SequenceEmpty", SEQUENCES),
    ("SequenceErase", SEQUENCES),
    ("SequenceInsert", SEQUENCES),
    ("SequenceLength", SEQUENCES),
    ("SequenceMap", SEQUENCES),
    ("SplitToSequence", SEQUENCES),
    ("StringConcat", STRINGS),
    ("StringNormalizer", STRINGS),
    ("StringSplit", STRINGS),
    ("TfIdfVectorizer", STRINGS),
    ("Unique", DYNAMIC),
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_list_is_sorted() {
        assert!(super::REFUSED.windows(2).all(|w| w[0].0 < w[1].0));
    }
}

//! Variable tables: string variables (`[[VAR:re]]`), numeric variables
//! (`[[#VAR:]]`) and their scoping under `--enable-var-scope`.
//!
//! Numeric variables live in an arena indexed by [`NumVarId`]; expressions
//! refer to a variable by id, so a redefinition updates every use, as in
//! LLVM. Parsing fills the name tables; matching fills the values.

use std::collections::{HashMap, HashSet};

use crate::numeric::Format;

/// Handle of a numeric variable in [`Variables`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NumVarId(u32);

/// A numeric variable.
#[derive(Clone, Debug)]
pub struct NumVar {
    /// Its name.
    pub name: String,
    /// The format it was defined with (its implicit format in expressions).
    pub format: Format,
    /// Check-file line of its first definition, if defined in the check file.
    pub def_line: Option<usize>,
    /// Current value, if defined.
    pub value: Option<num_bigint::BigInt>,
    /// Input byte range its value was captured from, if captured.
    pub captured: Option<(usize, usize)>,
}

/// A string variable's current value.
#[derive(Clone, Debug)]
pub struct StringValue {
    /// The text.
    pub text: Vec<u8>,
    /// Input byte range it was captured from (none for `-D` definitions).
    pub captured: Option<(usize, usize)>,
}

/// All variables of one FileCheck run.
#[derive(Default, Debug)]
pub struct Variables {
    strings: HashMap<String, StringValue>,
    /// String variable names defined anywhere so far (parse time).
    string_names: HashSet<String>,
    numeric: Vec<NumVar>,
    numeric_names: HashMap<String, NumVarId>,
}

impl Variables {
    /// Records that a string variable name is defined (parse time).
    pub fn declare_string(&mut self, name: &str) {
        self.string_names.insert(name.to_string());
    }

    /// Whether a string variable of this name has been declared.
    pub fn is_string_declared(&self, name: &str) -> bool {
        self.string_names.contains(name)
    }

    /// The value of a string variable.
    pub fn string(&self, name: &str) -> Option<&StringValue> {
        self.strings.get(name)
    }

    /// Sets a string variable.
    pub fn set_string(&mut self, name: &str, value: StringValue) {
        self.strings.insert(name.to_string(), value);
    }

    /// Looks a numeric variable up by name.
    pub fn numeric_id(&self, name: &str) -> Option<NumVarId> {
        self.numeric_names.get(name).copied()
    }

    /// Creates a numeric variable and registers its name.
    pub fn create_numeric(&mut self, name: &str, format: Format, def_line: Option<usize>) -> NumVarId {
        let id = NumVarId(u32::try_from(self.numeric.len()).expect("too many numeric variables"));
        self.numeric.push(NumVar { name: name.to_string(), format, def_line, value: None, captured: None });
        self.numeric_names.insert(name.to_string(), id);
        id
    }

    /// A numeric variable.
    pub fn numeric(&self, id: NumVarId) -> &NumVar {
        &self.numeric[id.0 as usize]
    }

    /// A numeric variable, mutably.
    pub fn numeric_mut(&mut self, id: NumVarId) -> &mut NumVar {
        &mut self.numeric[id.0 as usize]
    }

    /// Forgets every variable whose name does not start with `$`
    /// (`--enable-var-scope` at each CHECK-LABEL).
    pub fn clear_local(&mut self) {
        self.strings.retain(|name, _| name.starts_with('$'));
        for var in self.numeric.iter_mut().filter(|v| !v.name.starts_with('$')) {
            var.value = None;
            var.captured = None;
        }
    }
}

//! Finding programs: the bin dir (`--bin-dir`, env `KILN_BIN_DIR`, else the
//! directory of the running kiln-lit) first, then `PATH`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Where tools are looked up, and the user parameters (`--param`) the
/// configuration may read.
#[derive(Debug, Clone, Default)]
pub struct ToolPaths {
    bin_dir: Option<PathBuf>,
    path: Vec<PathBuf>,
    params: BTreeMap<String, String>,
}

impl ToolPaths {
    /// Tools come from `bin_dir`, then the directories of `path` (a
    /// `PATH`-style list); `params` are lit's `lit_config.params`.
    pub fn new(bin_dir: Option<PathBuf>, path: Option<OsString>, params: BTreeMap<String, String>) -> Self {
        let path = path.map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
        ToolPaths { bin_dir, path, params }
    }

    /// The bin dir, if any.
    pub fn bin_dir(&self) -> Option<&Path> {
        self.bin_dir.as_deref()
    }

    /// The directories searched, in order: the bin dir, then `PATH`.
    pub fn search_dirs(&self) -> impl Iterator<Item = &Path> {
        self.bin_dir.iter().chain(&self.path).map(PathBuf::as_path)
    }

    /// The value of user parameter `name` (`--param name=value`), if given.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }

    /// The command text for `program`: an absolute path as is, else the
    /// path found in the search dirs, else the bare name.
    pub fn command(&self, program: &str) -> String {
        which(program, self.search_dirs())
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|| program.to_string())
    }
}

/// The first executable file named `program` in `dirs`, or `program`
/// itself when it contains a `/` and is executable.
pub fn which<'a>(program: &str, dirs: impl IntoIterator<Item = &'a Path>) -> Option<PathBuf> {
    if program.contains('/') {
        let path = PathBuf::from(program);
        return is_executable(&path).then_some(path);
    }
    dirs.into_iter().map(|dir| dir.join(program)).find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

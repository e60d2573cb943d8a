//! Finding tests: each path given belongs to the suite of the nearest
//! `kiln-lit.toml` above it; directories are searched for files with the
//! configured suffixes, skipping excluded and hidden names, applying
//! `kiln-lit.local.toml` files on the way down. A directory with its own
//! `kiln-lit.toml` is a suite of its own. A file named explicitly is a
//! test whatever its suffix.

use crate::config::{find_suite_root, load_suite, ConfigError, DirConfig, Suite, SUITE_FILE};
use crate::tools::ToolPaths;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One test file.
#[derive(Debug, Clone)]
pub struct Test {
    /// The suite it belongs to.
    pub suite: Arc<Suite>,
    /// The settings of its directory.
    pub config: Arc<DirConfig>,
    /// Its absolute path.
    pub path: PathBuf,
    /// Its path relative to the suite root, with `/` separators.
    pub name: String,
}

impl Test {
    /// `<suite> :: <relative path>`, as lit names tests.
    pub fn full_name(&self) -> String {
        format!("{} :: {}", self.suite.name, self.name)
    }
}

/// Finds the tests under `paths`, sorted by suite and path, each once.
pub fn discover(paths: &[PathBuf], tools: &ToolPaths) -> Result<Vec<Test>, ConfigError> {
    let mut finder = Finder { tools, suites: HashMap::new(), tests: Vec::new() };
    for path in paths {
        finder.add_path(path)?;
    }
    let mut seen = BTreeSet::new();
    let mut tests = finder.tests;
    tests.retain(|t| seen.insert(t.path.clone()));
    tests.sort_by(|a, b| (&a.suite.name, &a.name).cmp(&(&b.suite.name, &b.name)));
    Ok(tests)
}

struct Finder<'t> {
    tools: &'t ToolPaths,
    suites: HashMap<PathBuf, (Arc<Suite>, DirConfig)>,
    tests: Vec<Test>,
}

impl Finder<'_> {
    fn add_path(&mut self, path: &Path) -> Result<(), ConfigError> {
        let error = |message: &str| ConfigError { file: path.to_path_buf(), message: message.to_string() };
        let path = path.canonicalize().map_err(|_| error("no such file or directory"))?;
        let root = find_suite_root(&path)
            .ok_or_else(|| error(&format!("no {SUITE_FILE} in this directory or above")))?;
        let (suite, mut config) = self.suite(&root)?;
        let dir = if path.is_dir() { &path } else { path.parent().unwrap_or(&root) };
        let mut current = root.clone();
        for component in dir.strip_prefix(&root).unwrap_or(Path::new("")).components() {
            current.push(component);
            config = config.for_subdir(&current, self.tools)?;
        }
        if path.is_dir() {
            self.walk(&suite, &path, &config)
        } else {
            self.add_test(&suite, &Arc::new(config), path);
            Ok(())
        }
    }

    fn suite(&mut self, root: &Path) -> Result<(Arc<Suite>, DirConfig), ConfigError> {
        if let Some((suite, config)) = self.suites.get(root) {
            return Ok((suite.clone(), config.clone()));
        }
        let (suite, config) = load_suite(root, self.tools)?;
        let suite = Arc::new(suite);
        self.suites.insert(root.to_path_buf(), (suite.clone(), config.clone()));
        Ok((suite, config))
    }

    fn walk(&mut self, suite: &Arc<Suite>, dir: &Path, config: &DirConfig) -> Result<(), ConfigError> {
        if config.standalone {
            return Ok(());
        }
        let unreadable = |e: std::io::Error| ConfigError { file: dir.to_path_buf(), message: e.to_string() };
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(unreadable)?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(unreadable)?;
        entries.sort();
        let shared = Arc::new(config.clone());
        for entry in entries {
            let name = entry.file_name().unwrap_or_default().to_string_lossy();
            if name.starts_with('.') || config.excludes.iter().any(|e| *e == name) {
                continue;
            }
            if entry.is_dir() {
                if entry.join(SUITE_FILE).is_file() {
                    let (nested, nested_config) = self.suite(&entry)?;
                    self.walk(&nested, &entry, &nested_config)?;
                } else {
                    let sub_config = config.for_subdir(&entry, self.tools)?;
                    self.walk(suite, &entry, &sub_config)?;
                }
            } else if config.suffixes.iter().any(|s| has_suffix(&name, s)) {
                self.add_test(suite, &shared, entry);
            }
        }
        Ok(())
    }

    fn add_test(&mut self, suite: &Arc<Suite>, config: &Arc<DirConfig>, path: PathBuf) {
        let name = path
            .strip_prefix(&suite.root)
            .unwrap_or(&path)
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        self.tests.push(Test { suite: suite.clone(), config: config.clone(), path, name });
    }
}

/// Whether `name`'s extension is `suffix` (lit compares the last
/// extension, so `.test` matches `a.test` but not `a.test.txt`).
fn has_suffix(name: &str, suffix: &str) -> bool {
    match name.rfind('.') {
        Some(dot) if dot > 0 => &name[dot..] == suffix,
        _ => false,
    }
}

//! Output files that are never left half-written and never replace what they name.
//!
//! Contract. [`write_file`] writes a regular file (or a new one) through a temporary file in
//! the same directory that is renamed over it, so a reader sees the old bytes or all of the
//! new ones, never a part, and a failed write leaves the old file as it was. A path that names
//! something else that exists (`/dev/null`, `/dev/stdout`, a FIFO) is opened and written in
//! place: renaming over it would put a regular file where the device or pipe was (with root's
//! rights, `-o /dev/null` would replace the machine's `/dev/null`). A symbolic link is written
//! through: the file it names is replaced and the link stays. A replaced file keeps its mode.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Writes `bytes` to `path` (see the module documentation).
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (target, permissions) = match fs::metadata(path) {
        Ok(meta) if !meta.is_file() && !meta.is_dir() => {
            // A device, FIFO or socket: written where it is.
            return OpenOptions::new().write(true).open(path)?.write_all(bytes);
        }
        // An existing file, or a link to one: the file itself is replaced, keeping its mode.
        Ok(meta) => (fs::canonicalize(path)?, Some(meta.permissions())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => (path.to_path_buf(), None),
        Err(e) => return Err(e),
    };
    let tmp = temporary_beside(&target);
    let written = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.write_all(bytes)?;
        file.sync_data()?;
        fs::rename(&tmp, &target)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// A name for a temporary file in `target`'s directory that no other writer uses: hidden,
/// with this process's id and a per-process count.
fn temporary_beside(target: &Path) -> PathBuf {
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    target.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kiln-cli-output-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("readable")
            .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn creates_and_replaces_regular_files_leaving_no_temporary() {
        let dir = scratch("regular");
        let path = dir.join("out.kbc");
        write_file(&path, b"first").expect("written");
        write_file(&path, b"second, longer").expect("written again");
        assert_eq!(fs::read(&path).expect("readable"), b"second, longer");
        assert_eq!(entries(&dir), ["out.kbc"]);
        // A file of the temporary's old naming scheme (`<stem>.tmp`) is left alone.
        fs::write(dir.join("out.tmp"), b"keep").expect("written");
        write_file(&path, b"third").expect("written");
        assert_eq!(fs::read(dir.join("out.tmp")).expect("readable"), b"keep");
        fs::remove_dir_all(&dir).expect("removed");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = scratch("failed");
        let missing = dir.join("no-such-dir").join("out.json");
        assert!(write_file(&missing, b"x").is_err());
        // A directory cannot be replaced by a file.
        let sub = dir.join("sub");
        fs::create_dir(&sub).expect("created");
        assert!(write_file(&sub, b"x").is_err());
        assert!(sub.is_dir());
        assert_eq!(entries(&dir), ["sub"]);
        fs::remove_dir_all(&dir).expect("removed");
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("mode");
        let path = dir.join("run.sh");
        fs::write(&path, b"old").expect("written");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o750)).expect("chmod");
        write_file(&path, b"new").expect("written");
        assert_eq!(fs::metadata(&path).expect("exists").permissions().mode() & 0o777, 0o750);
        assert_eq!(fs::read(&path).expect("readable"), b"new");
        fs::remove_dir_all(&dir).expect("removed");
    }

    #[cfg(unix)]
    #[test]
    fn writes_through_a_symlink_and_keeps_it() {
        let dir = scratch("link");
        let (file, link) = (dir.join("real.json"), dir.join("link.json"));
        fs::write(&file, b"old").expect("written");
        std::os::unix::fs::symlink(&file, &link).expect("a symlink");
        write_file(&link, b"new").expect("written");
        assert!(fs::symlink_metadata(&link).expect("exists").file_type().is_symlink());
        assert_eq!(fs::read(&file).expect("readable"), b"new");
        fs::remove_dir_all(&dir).expect("removed");
    }

    /// A FIFO stands for `/dev/null` and the other special files: written in place, it stays
    /// a FIFO (renaming over it would make it a regular file).
    #[cfg(unix)]
    #[test]
    fn writes_a_fifo_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        match std::process::Command::new("mkfifo").arg(&fifo).status() {
            Ok(s) if s.success() => {}
            _ => {
                eprintln!("skipped: no mkfifo");
                return;
            }
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(&fifo).expect("the FIFO reads"))
        };
        write_file(&fifo, b"through the pipe").expect("written");
        // Checked before joining: had the FIFO been renamed over, a reader that opened it
        // first would wait for a writer forever.
        assert!(fs::metadata(&fifo).expect("exists").file_type().is_fifo());
        assert_eq!(reader.join().expect("the reader finishes"), b"through the pipe");
        assert_eq!(entries(&dir), ["pipe"]);
        fs::remove_dir_all(&dir).expect("removed");
    }
}

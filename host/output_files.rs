//! How every command creates its files (`run`'s report and pictures,
//! `render`, `compare --markdown`, `merge`): never through a symbolic link,
//! never over one of the command's own inputs, and never half-written.
//!
//! Each file is checked first (a link, something other than a plain file, or
//! one of the inputs is refused with a one-line error), then written to a
//! temporary name in the same folder (created exclusively, links not
//! followed) and renamed over its final name. A rename replaces the folder
//! entry itself: even a link made between the check and the rename is
//! replaced, never written through.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// A file the command reads: where its path leads (device and inode, through any links).
#[derive(Clone, Debug)]
struct Input {
    path: PathBuf,
    device: u64,
    inode: u64,
}

/// The rules for one command's outputs: the inputs they must never replace.
#[derive(Clone, Debug, Default)]
pub struct OutputFiles {
    inputs: Vec<Input>,
}

/// Tells the temporary files of one process apart.
static TEMPORARY: AtomicU64 = AtomicU64::new(0);

impl OutputFiles {
    /// Outputs of a command that reads no file (`run`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Outputs of a command that reads `inputs`: none of them may be written.
    /// An input that cannot be found is not recorded (reading it fails anyway).
    pub fn protecting<P: AsRef<Path>>(inputs: &[P]) -> Self {
        let inputs = inputs
            .iter()
            .filter_map(|path| {
                let path = path.as_ref();
                let meta = std::fs::metadata(path).ok()?;
                Some(Input {
                    path: path.to_path_buf(),
                    device: meta.dev(),
                    inode: meta.ino(),
                })
            })
            .collect();
        Self { inputs }
    }

    /// Creates `dir` and its parents where missing (a link to a folder is a folder).
    pub fn create_dir(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create the folder {}", dir.display()), e))?;
        if !dir.is_dir() {
            return Err(Error::InvalidInput(format!("{} is not a folder", dir.display())));
        }
        Ok(())
    }

    /// Whether `path` may be written: missing, or a plain file (not a link) that is none of the inputs.
    pub fn check(&self, path: &Path) -> Result<()> {
        let meta = match std::fs::symlink_metadata(path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(Error::io(format!("cannot inspect {}", path.display()), e)),
        };
        if meta.file_type().is_symlink() {
            return Err(Error::InvalidInput(format!(
                "refusing to write {}: it is a symbolic link, and ptxsuite never writes through one (remove it or \
                 choose another output)",
                path.display()
            )));
        }
        if !meta.file_type().is_file() {
            return Err(Error::InvalidInput(format!(
                "refusing to write {}: it exists and is not a plain file",
                path.display()
            )));
        }
        if let Some(input) = self
            .inputs
            .iter()
            .find(|i| i.device == meta.dev() && i.inode == meta.ino())
        {
            return Err(Error::Usage(format!(
                "refusing to write {}: it is {}, one of this command's inputs (choose another output)",
                path.display(),
                input.path.display()
            )));
        }
        Ok(())
    }

    /// Checks every path before any is written: a refusal leaves nothing half-done.
    pub fn check_all<'a>(&self, paths: impl IntoIterator<Item = &'a Path>) -> Result<()> {
        paths.into_iter().try_for_each(|path| self.check(path))
    }

    /// Writes `bytes` as `path`: checked, written to a temporary name beside it, then renamed.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<PathBuf> {
        self.check(path)?;
        let failed = |e| Error::io(format!("cannot write {}", path.display()), e);
        let (temporary, mut file) = temporary_beside(path).map_err(failed)?;
        let written = file.write_all(bytes).and_then(|()| file.flush());
        drop(file);
        if let Err(e) = written.and_then(|()| std::fs::rename(&temporary, path)) {
            let _ = std::fs::remove_file(&temporary);
            return Err(failed(e));
        }
        Ok(path.to_path_buf())
    }

    /// Proves `dir` writable by creating and removing a temporary file in it.
    pub fn probe(&self, dir: &Path) -> Result<()> {
        let (temporary, file) = temporary_beside(&dir.join("probe"))
            .map_err(|e| Error::io(format!("the output folder {} is not writable", dir.display()), e))?;
        drop(file);
        let _ = std::fs::remove_file(temporary);
        Ok(())
    }
}

/// A new file `.<name>.<pid>-<n>.tmp` in `path`'s folder, created exclusively (an existing
/// file or link of that name is an error, never opened).
fn temporary_beside(path: &Path) -> std::io::Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    loop {
        let n = TEMPORARY.fetch_add(1, Ordering::Relaxed);
        let temporary = folder.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&temporary)
        {
            Ok(file) => return Ok((temporary, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1_000_000 => continue,
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::OutputFiles;
    use crate::Error;

    fn folder(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ptxsuite-output-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn files_are_replaced_whole_and_no_temporary_is_left() {
        let dir = folder("replace");
        let path = dir.join("report.md");
        std::fs::write(&path, "old").unwrap();
        OutputFiles::new().write(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["report.md"], "no temporary file is left");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn links_inputs_and_folders_are_refused_and_left_alone() {
        let dir = folder("refuse");
        let target = dir.join("precious.txt");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.join("report.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = OutputFiles::new().write(&link, b"x").unwrap_err().to_string();
        assert!(err.contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        let input = dir.join("input.json");
        std::fs::write(&input, "{}").unwrap();
        let outputs = OutputFiles::protecting(&[&input]);
        let err = outputs.write(&input, b"x").unwrap_err();
        assert!(matches!(err, Error::Usage(_)), "{err}");
        assert!(err.to_string().contains("one of this command's inputs"), "{err}");
        // A hard link to an input is the input.
        let hard = dir.join("merged.md");
        std::fs::hard_link(&input, &hard).unwrap();
        assert!(outputs.write(&hard, b"x").is_err());
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "{}");
        let sub = dir.join("sub.svg");
        std::fs::create_dir(&sub).unwrap();
        assert!(
            OutputFiles::new()
                .write(&sub, b"x")
                .unwrap_err()
                .to_string()
                .contains("not a plain file")
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}

//! The repository's files, read by the tests that check its structure
//! (`tests/layers.rs`, `tests/experiment_bodies.rs`) and its published reports.

use std::path::{Path, PathBuf};

/// `host/`, the host crate's sources.
#[allow(dead_code)] // not every test that reads files reads the sources
pub fn host_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("host")
}

/// `host/experiments/`.
#[allow(dead_code)]
pub fn experiments_dir() -> PathBuf {
    host_dir().join("experiments")
}

/// Every file under `dir`, at any depth, that `keep` accepts, in sorted order.
pub fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{} is readable: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, keep, found);
        } else if keep(&path) {
            found.push(path);
        }
    }
}

/// Every `.rs` file under `dir`, at any depth, in sorted order.
#[allow(dead_code)] // tests/published_reports.rs reads reports, not sources
pub fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    files_under(dir, &|path| path.extension().is_some_and(|e| e == "rs"), found);
}

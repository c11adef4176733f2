//! The host crate's source tree, read as text by the structure tests
//! (`tests/layers.rs`, `tests/experiment_bodies.rs`).

use std::path::{Path, PathBuf};

/// `host/`, the host crate's sources.
pub fn host_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("host")
}

/// `host/experiments/`.
pub fn experiments_dir() -> PathBuf {
    host_dir().join("experiments")
}

/// Every `.rs` file under `dir`, at any depth, in sorted order.
pub fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{} is readable: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

//! What the child `cargo rustc --message-format=json` reported: the PTX file
//! and the local crates it was built from.

use std::path::{Component, Path, PathBuf};

use serde_json::Value;

/// The facts the builder needs from cargo's JSON messages.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct KernelArtifacts {
    /// The `.ptx` file of the kernel crate, if cargo reported one.
    pub ptx: Option<PathBuf>,
    /// Directories of the local (path) packages that went into it, the kernel
    /// crate included, but not the standard library's: their changes must
    /// rebuild the PTX.
    pub local_packages: Vec<PathBuf>,
}

/// Same file, whatever the spelling (`a/../b`, symbolic links).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Whether a manifest belongs to the standard library's sources (`-Zbuild-std`).
fn in_rust_sources(manifest: &Path) -> bool {
    let parts: Vec<Component> = manifest.components().collect();
    parts
        .windows(2)
        .any(|pair| pair[0].as_os_str() == "rustlib" && pair[1].as_os_str() == "src")
}

/// Reads cargo's JSON messages (one per line; other lines are skipped).
pub fn read(stdout: &str, kernel_manifest: &Path) -> KernelArtifacts {
    let mut found = KernelArtifacts::default();
    let artifacts = stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact");
    for message in artifacts {
        let Some(manifest) = message["manifest_path"].as_str().map(PathBuf::from) else {
            continue;
        };
        let local = message["package_id"]
            .as_str()
            .is_some_and(|id| id.starts_with("path+file://"));
        if local
            && !in_rust_sources(&manifest)
            && let Some(dir) = manifest.parent()
            && !found.local_packages.iter().any(|known| known == dir)
        {
            found.local_packages.push(dir.to_path_buf());
        }
        if same_file(&manifest, kernel_manifest) {
            let files = message["filenames"].as_array().into_iter().flatten();
            if let Some(ptx) = files
                .filter_map(Value::as_str)
                .map(PathBuf::from)
                .find(|file| file.extension().is_some_and(|e| e == "ptx"))
            {
                found.ptx = Some(ptx);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three messages as cargo prints them (shortened): core from the
    /// toolchain's sources, a path dependency, and the kernel crate.
    const MESSAGES: &str = r#"{"reason":"compiler-artifact","package_id":"path+file:///home/u/.rustup/toolchains/nightly/lib/rustlib/src/rust/library/core#0.0.0","manifest_path":"/home/u/.rustup/toolchains/nightly/lib/rustlib/src/rust/library/core/Cargo.toml","filenames":["/t/nvptx64-nvidia-cuda/release/deps/libcore-1.rlib"],"fresh":true}
   Compiling the-kernels v0.1.0 (a line that is not JSON)
{"reason":"compiler-artifact","package_id":"path+file:///src/ptx-device#0.1.0","manifest_path":"/src/ptx-device/Cargo.toml","filenames":["/t/nvptx64-nvidia-cuda/release/deps/libptx_device-2.rlib"],"fresh":false}
{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#libm@0.2.15","manifest_path":"/home/u/.cargo/registry/src/libm-0.2.15/Cargo.toml","filenames":["/t/libm.rlib"],"fresh":true}
{"reason":"compiler-artifact","package_id":"path+file:///src/kernels#0.1.0","manifest_path":"/src/kernels/Cargo.toml","filenames":["/t/nvptx64-nvidia-cuda/release/kernels.ptx"],"fresh":false}
{"reason":"build-finished","success":true}"#;

    #[test]
    fn the_kernel_crate_gives_the_ptx_and_local_packages_their_directories() {
        let found = read(MESSAGES, Path::new("/src/kernels/Cargo.toml"));
        assert_eq!(
            found.ptx.as_deref(),
            Some(Path::new("/t/nvptx64-nvidia-cuda/release/kernels.ptx"))
        );
        assert_eq!(
            found.local_packages,
            [PathBuf::from("/src/ptx-device"), PathBuf::from("/src/kernels")]
        );
    }

    #[test]
    fn no_ptx_is_reported_for_another_crate() {
        let found = read(MESSAGES, Path::new("/src/elsewhere/Cargo.toml"));
        assert_eq!(found.ptx, None);
    }
}

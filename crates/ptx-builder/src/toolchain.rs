//! What the nvptx build needs from the Rust toolchain, checked before running it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::BuildError;

/// The components `-Zbuild-std=core` for nvptx needs, and where each leaves a
/// file in the sysroot (`host` is the host triple).
fn component_files(rustlib: &Path, host: &str) -> [(&'static str, PathBuf); 3] {
    [
        ("rust-src", rustlib.join("src/rust/library/core/Cargo.toml")),
        (
            "llvm-bitcode-linker",
            rustlib.join(host).join("bin/self-contained/llvm-bitcode-linker"),
        ),
        ("llvm-tools", rustlib.join(host).join("bin/llvm-link")),
    ]
}

/// The rustup command that installs `missing` on `toolchain` (the one in use
/// when it is known).
pub fn fix_command(missing: &[String], toolchain: Option<&str>) -> String {
    let on = toolchain.map(|t| format!(" --toolchain {t}")).unwrap_or_default();
    format!("rustup component add{on} {}", missing.join(" "))
}

/// The toolchain's name: `rustup_toolchain` (the `RUSTUP_TOOLCHAIN` that
/// rustup sets) or else the sysroot's directory under rustup's `toolchains/`.
fn toolchain_name(rustup_toolchain: Option<String>, sysroot: &Path) -> Option<String> {
    if let Some(name) = rustup_toolchain.filter(|name| !name.is_empty()) {
        return Some(name);
    }
    let parent = sysroot.parent()?;
    (parent.file_name()? == "toolchains").then(|| sysroot.file_name()?.to_str().map(str::to_string))?
}

fn rustc_output(rustc: &str, args: &[&str]) -> Result<String, BuildError> {
    let output = Command::new(rustc).args(args).output().map_err(|e| BuildError::Io {
        action: format!("run {rustc} {}", args.join(" ")),
        message: e.to_string(),
    })?;
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Refuses a stable or beta rustc: `-Zbuild-std` is nightly-only.
pub fn check_nightly(rustc: &str) -> Result<(), BuildError> {
    let version = rustc_output(rustc, &["-vV"])?;
    let release = version
        .lines()
        .find_map(|line| line.strip_prefix("release: "))
        .unwrap_or("")
        .trim()
        .to_string();
    if release.contains("nightly") || release.contains("-dev") {
        Ok(())
    } else {
        Err(BuildError::NotNightly { release })
    }
}

/// The components of the toolchain at `sysroot` that the build needs and
/// that are not installed.
fn missing_components(sysroot: &Path, host: &str) -> Vec<String> {
    component_files(&sysroot.join("lib").join("rustlib"), host)
        .into_iter()
        .filter(|(_, file)| !file.exists())
        .map(|(name, _)| name.to_string())
        .collect()
}

/// Refuses a toolchain that lacks a component the build needs, with the
/// `rustup` command that adds them.
pub fn check_components(rustc: &str, host: &str) -> Result<(), BuildError> {
    let sysroot = PathBuf::from(rustc_output(rustc, &["--print", "sysroot"])?.trim());
    let missing = missing_components(&sysroot, host);
    if missing.is_empty() {
        return Ok(());
    }
    let fix = fix_command(
        &missing,
        toolchain_name(std::env::var("RUSTUP_TOOLCHAIN").ok(), &sysroot).as_deref(),
    );
    Err(BuildError::MissingComponents {
        components: missing,
        fix,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fix_names_the_toolchain_when_known() {
        let missing = vec!["rust-src".to_string(), "llvm-tools".to_string()];
        assert_eq!(
            fix_command(&missing, Some("nightly-2026-10-30")),
            "rustup component add --toolchain nightly-2026-10-30 rust-src llvm-tools"
        );
        assert_eq!(fix_command(&missing, None), "rustup component add rust-src llvm-tools");
    }

    #[test]
    fn components_are_found_by_their_files_in_the_sysroot() {
        let sysroot = std::env::temp_dir().join(format!("ptx-builder-sysroot-{}", std::process::id()));
        let host = "x86_64-unknown-linux-gnu";
        let _ = std::fs::remove_dir_all(&sysroot);
        assert_eq!(
            missing_components(&sysroot, host),
            ["rust-src", "llvm-bitcode-linker", "llvm-tools"]
        );
        let core = sysroot.join("lib/rustlib/src/rust/library/core/Cargo.toml");
        std::fs::create_dir_all(core.parent().unwrap()).unwrap();
        std::fs::write(&core, "").unwrap();
        assert_eq!(
            missing_components(&sysroot, host),
            ["llvm-bitcode-linker", "llvm-tools"]
        );
        std::fs::remove_dir_all(&sysroot).unwrap();
    }

    #[test]
    fn a_rustup_sysroot_names_its_toolchain() {
        let sysroot = Path::new("/home/u/.rustup/toolchains/nightly-2026-10-30-x86_64-unknown-linux-gnu");
        assert_eq!(
            toolchain_name(None, sysroot).as_deref(),
            Some("nightly-2026-10-30-x86_64-unknown-linux-gnu")
        );
        assert_eq!(
            toolchain_name(Some("nightly".into()), sysroot).as_deref(),
            Some("nightly")
        );
        assert_eq!(toolchain_name(None, Path::new("/usr/local")), None);
    }

    #[test]
    fn the_running_toolchain_has_what_the_build_needs() {
        // The suite's rust-toolchain.toml installs all three; this is the check build.rs runs.
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
        let host = String::from_utf8(Command::new(&rustc).arg("-vV").output().unwrap().stdout).unwrap();
        let host = host.lines().find_map(|l| l.strip_prefix("host: ")).unwrap().to_string();
        assert_eq!(check_components(&rustc, &host), Ok(()));
        assert_eq!(check_nightly(&rustc), Ok(()));
    }
}

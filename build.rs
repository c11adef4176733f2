//! Builds the `kernels-gpu` crate to PTX and embeds it in the host crate.
//!
//! In the spirit of Rust-CUDA's `cuda_builder`: a child `cargo rustc` for
//! `nvptx64-nvidia-cuda` with its own target dir (so it never waits on the
//! parent's build lock), a cleaned environment (no parent RUSTFLAGS, no clippy
//! wrapper), `-Ctarget-cpu` given to every crate (core included, through
//! `CARGO_ENCODED_RUSTFLAGS`), and the PTX found from cargo's JSON artifact
//! messages rather than guessed from paths.
//!
//! `PTXSUITE_PTX_ARCH` picks the target (default `sm_75`, the oldest
//! architecture CUDA 13 still supports); it is recorded in the binary.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "build/ptx_arch.rs"]
mod ptx_arch;

const DEFAULT_ARCH: &str = "sm_75";
const NVPTX_TARGET: &str = "nvptx64-nvidia-cuda";
const TOOLCHAIN_FIX: &str =
    "rustup toolchain install nightly-2026-10-30 --profile minimal --component rust-src,llvm-tools,llvm-bitcode-linker";

/// Stops the build with one clear line (and what cargo printed, if anything).
fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

fn valid_arch(arch: &str) -> bool {
    let Some(rest) = arch.strip_prefix("sm_") else {
        return false;
    };
    let digits = rest.trim_end_matches(['a', 'f']);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) && rest.len() - digits.len() <= 1
}

/// The architectures the pinned toolchain's nvptx backend knows, from `rustc --print target-cpus`.
fn toolchain_archs(rustc: &str) -> Vec<String> {
    let output = Command::new(rustc)
        .args(["--print", "target-cpus", "--target", NVPTX_TARGET])
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run {rustc}: {e}")));
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|word| word.starts_with("sm_"))
        .map(str::to_string)
        .collect()
}

/// Refuses an architecture below sm_75 or unknown to the pinned toolchain, listing the good ones.
fn check_arch_supported(rustc: &str, arch: &str) {
    if let Err(message) = ptx_arch::check(arch, &toolchain_archs(rustc)) {
        fail(&message);
    }
}

/// Checks the toolchain components the nvptx build needs, before running it.
fn check_components(rustc: &str) {
    let output = Command::new(rustc)
        .arg("--print")
        .arg("sysroot")
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run {rustc}: {e}")));
    let sysroot = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    let host = env::var("HOST").unwrap_or_default();
    let rustlib = sysroot.join("lib").join("rustlib");
    let missing: Vec<&str> = [
        ("rust-src", rustlib.join("src/rust/library/core/Cargo.toml")),
        (
            "llvm-bitcode-linker",
            rustlib.join(&host).join("bin/self-contained/llvm-bitcode-linker"),
        ),
        ("llvm-tools", rustlib.join(&host).join("bin/llvm-link")),
    ]
    .into_iter()
    .filter(|(_, path)| !path.exists())
    .map(|(name, _)| name)
    .collect();
    if !missing.is_empty() {
        fail(&format!(
            "the nvptx kernel build needs the toolchain component(s) {}; fix: {TOOLCHAIN_FIX}",
            missing.join(", ")
        ));
    }
}

/// The directory the kernel build uses: `<target>/nvptx-kernels`, shared by
/// debug and release host builds so core is compiled once. The target dir is
/// the nearest ancestor of OUT_DIR holding cargo's `CACHEDIR.TAG`.
fn kernel_target_dir(out_dir: &Path) -> PathBuf {
    out_dir
        .ancestors()
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .unwrap_or(out_dir)
        .join("nvptx-kernels")
}

fn main() {
    println!("cargo:rerun-if-changed=kernels-gpu/src");
    println!("cargo:rerun-if-changed=kernels-gpu/Cargo.toml");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/ptx_arch.rs");
    println!("cargo:rerun-if-env-changed=PTXSUITE_PTX_ARCH");

    let arch = env::var("PTXSUITE_PTX_ARCH").unwrap_or_else(|_| DEFAULT_ARCH.to_string());
    if !valid_arch(&arch) {
        fail(&format!(
            "PTXSUITE_PTX_ARCH={arch:?} is not a GPU architecture like sm_75, sm_90 or sm_90a"
        ));
    }
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    check_components(&rustc);
    check_arch_supported(&rustc, &arch);

    let mut command = Command::new(&cargo);
    command
        .current_dir(manifest_dir.join("kernels-gpu"))
        .env_clear()
        .args(["rustc", "--lib", "--release", "--target", NVPTX_TARGET])
        .args(["-Zbuild-std=core", "--crate-type", "cdylib"])
        .arg("--message-format=json-render-diagnostics")
        .arg("--manifest-path")
        .arg(manifest_dir.join("kernels-gpu/Cargo.toml"))
        .arg("--target-dir")
        .arg(kernel_target_dir(&out_dir))
        .env("RUSTC", &rustc)
        .env("CARGO_ENCODED_RUSTFLAGS", format!("-Ctarget-cpu={arch}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for keep in [
        "PATH",
        "HOME",
        "RUSTUP_HOME",
        "CARGO_HOME",
        "RUSTUP_TOOLCHAIN",
        "TMPDIR",
    ] {
        if let Some(value) = env::var_os(keep) {
            command.env(keep, value);
        }
    }
    let output = command
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run {cargo} for the nvptx kernel build: {e}")));
    if !output.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&output.stderr));
        fail(&format!(
            "building kernels-gpu for {NVPTX_TARGET} ({arch}) failed (messages above); if a component is missing: {TOOLCHAIN_FIX}"
        ));
    }

    let ptx_path = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|msg| msg["reason"] == "compiler-artifact" && msg["target"]["name"] == "kernels_gpu")
        .flat_map(|msg| {
            msg["filenames"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter_map(|f| f.as_str().map(PathBuf::from))
        })
        .find(|f| f.extension().is_some_and(|e| e == "ptx"))
        .unwrap_or_else(|| fail("the nvptx kernel build reported no .ptx artifact"));
    let ptx = std::fs::read_to_string(&ptx_path)
        .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", ptx_path.display())));
    if !ptx.contains(&format!(".target {arch}")) {
        fail(&format!("{} is not built for {arch}", ptx_path.display()));
    }
    std::fs::write(out_dir.join("kernels.ptx"), &ptx)
        .unwrap_or_else(|e| fail(&format!("cannot write the PTX to OUT_DIR: {e}")));
    println!("cargo:rustc-env=PTXSUITE_PTX_ARCH={arch}");
}

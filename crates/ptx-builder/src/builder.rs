//! [`PtxBuilder`]: builds a kernel crate to PTX from a build script.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::BuildError;
use crate::{DEFAULT_ARCH, NVPTX_TARGET, arch, cargo_messages, toolchain};

/// Variables the child cargo keeps from the parent's environment: where the
/// toolchain and the registry are, and how to reach the network. Everything
/// else (`RUSTFLAGS`, `RUSTC_WRAPPER`, clippy's driver, the parent build's
/// `CARGO_*` and profile settings) is left out, so the kernel build is the
/// same whatever command built the host.
pub const KEPT_VARIABLES: &[&str] = &[
    "PATH",
    "HOME",
    "TMPDIR",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "CARGO_HOME",
    "CARGO_NET_OFFLINE",
    "CARGO_HTTP_CAINFO",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
];

/// Where the architecture comes from.
#[derive(Clone, Debug)]
enum ArchChoice {
    Fixed(String),
    FromEnv { variable: String, default: String },
}

/// The result of a successful build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltPtx {
    /// The PTX file written (the [`output`](PtxBuilder::output) path, by
    /// default `$OUT_DIR/<crate>.ptx`); embed it with
    /// `include_str!(concat!(env!("OUT_DIR"), "/<crate>.ptx"))`.
    pub path: PathBuf,
    /// The architecture it was built for (`sm_75`, ...), e.g. to record with
    /// `cargo:rustc-env=...`.
    pub arch: String,
}

/// Builds a kernel crate (a library written with `ptx-device`) to PTX for
/// `nvptx64-nvidia-cuda`, from a `build.rs`.
///
/// What [`build`](Self::build) does:
///
/// 1. prints `cargo:rerun-if-changed` for the kernel crate's `src/`,
///    `Cargo.toml`, `Cargo.lock` and `build.rs`, and after the build for
///    every local (path) crate it depends on, so editing any of them rebuilds
///    the PTX and nothing else does;
/// 2. checks the toolchain: a nightly, with the `rust-src`, `llvm-tools` and
///    `llvm-bitcode-linker` components (else the error carries the `rustup`
///    command that installs them), and an architecture that is at least
///    [`OLDEST_ARCH`](crate::OLDEST_ARCH) and known to the toolchain's nvptx
///    back end (else the error lists the ones that are);
/// 3. runs `cargo rustc --lib --release --target nvptx64-nvidia-cuda
///    -Zbuild-std=core --crate-type cdylib` in the kernel crate with a clean
///    environment ([`KEPT_VARIABLES`] only), its own target directory (so it
///    never waits on the parent build's lock) and `-Ctarget-cpu=<arch>` in
///    `CARGO_ENCODED_RUSTFLAGS`, so that `core` is compiled for the
///    architecture too;
/// 4. takes the `.ptx` path from cargo's JSON artifact messages (not from a
///    guess at the target directory's layout), checks its `.target`
///    directive, and copies it to the [`output`](Self::output) path.
///
/// ```no_run
/// // build.rs of a host crate whose kernels are in ./kernels
/// use ptx_builder::PtxBuilder;
///
/// let ptx = PtxBuilder::new("kernels")
///     .arch_from_env("KERNELS_PTX_ARCH", "sm_75")
///     .build()
///     .unwrap_or_else(|error| error.exit());
/// println!("cargo:rustc-env=KERNELS_PTX_ARCH={}", ptx.arch);
/// // host code: const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));
/// ```
#[derive(Clone, Debug)]
pub struct PtxBuilder {
    kernel_crate: PathBuf,
    arch: ArchChoice,
    target_dir: Option<PathBuf>,
    output: Option<PathBuf>,
}

impl PtxBuilder {
    /// A builder for the kernel crate at `kernel_crate` (the directory of its
    /// `Cargo.toml`; relative to the calling package's manifest directory),
    /// for [`DEFAULT_ARCH`].
    pub fn new(kernel_crate: impl Into<PathBuf>) -> Self {
        Self {
            kernel_crate: kernel_crate.into(),
            arch: ArchChoice::Fixed(DEFAULT_ARCH.to_string()),
            target_dir: None,
            output: None,
        }
    }

    /// Builds for `arch` (`sm_75`, `sm_90`, `sm_90a`, ...): the PTX `.target`
    /// and `-Ctarget-cpu`.
    pub fn arch(mut self, arch: impl Into<String>) -> Self {
        self.arch = ArchChoice::Fixed(arch.into());
        self
    }

    /// Builds for the architecture in the environment variable `variable` at
    /// build time, or `default` when it is unset; the build script reruns
    /// when the variable changes, and error messages name it.
    pub fn arch_from_env(mut self, variable: impl Into<String>, default: impl Into<String>) -> Self {
        self.arch = ArchChoice::FromEnv {
            variable: variable.into(),
            default: default.into(),
        };
        self
    }

    /// The kernel build's target directory. By default `nvptx-kernels/` in
    /// the calling build's target directory (found from `OUT_DIR`), shared by
    /// its debug and release builds so that `core` is compiled once.
    pub fn target_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.target_dir = Some(dir.into());
        self
    }

    /// Where the PTX is written. By default `$OUT_DIR/<file>.ptx`, `<file>`
    /// being the kernel crate's library name (`my-kernels` → `my_kernels.ptx`).
    pub fn output(mut self, file: impl Into<PathBuf>) -> Self {
        self.output = Some(file.into());
        self
    }

    /// Builds the PTX; see the type's documentation for the steps.
    ///
    /// # Errors
    /// A [`BuildError`] whose message says what to do: an architecture to
    /// choose, a component to install, or the compiler's messages.
    pub fn build(&self) -> Result<BuiltPtx, BuildError> {
        let out_dir = env::var_os("OUT_DIR").map(PathBuf::from);
        let in_build_script = out_dir.is_some();
        let rerun = |line: String| {
            if in_build_script {
                println!("cargo:{line}");
            }
        };

        let (arch, named) = match &self.arch {
            ArchChoice::Fixed(arch) => (arch.clone(), arch.clone()),
            ArchChoice::FromEnv { variable, default } => {
                rerun(format!("rerun-if-env-changed={variable}"));
                let arch = env::var(variable).unwrap_or_else(|_| default.clone());
                let named = format!("{variable}={arch}");
                (arch, named)
            }
        };
        if !arch::is_well_formed(&arch) {
            return Err(BuildError::MalformedArch { named });
        }

        let base = env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from("."), PathBuf::from);
        let crate_dir = base.join(&self.kernel_crate);
        let manifest = crate_dir.join("Cargo.toml");
        if !manifest.is_file() {
            return Err(BuildError::KernelCrateNotFound { manifest });
        }
        for watched in ["src", "Cargo.toml", "Cargo.lock", "build.rs"] {
            let path = crate_dir.join(watched);
            if path.exists() {
                rerun(format!("rerun-if-changed={}", path.display()));
            }
        }

        let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
        let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        toolchain::check_nightly(&rustc)?;
        toolchain::check_components(&rustc, &host_triple(&rustc)?)?;
        arch::check(&arch, &named, &arch::toolchain_archs(&rustc))?;

        let target_dir = match (&self.target_dir, &out_dir) {
            (Some(dir), _) => dir.clone(),
            (None, Some(out_dir)) => default_target_dir(out_dir),
            (None, None) => return Err(BuildError::NotInBuildScript),
        };
        let stdout = run_cargo(&cargo, &rustc, &crate_dir, &manifest, &target_dir, &arch)?;

        let found = cargo_messages::read(&stdout, &manifest);
        let ptx_file = found.ptx.ok_or_else(|| BuildError::NoPtxArtifact {
            manifest: manifest.clone(),
        })?;
        let ptx =
            std::fs::read_to_string(&ptx_file).map_err(|e| io_error(&format!("read {}", ptx_file.display()), e))?;
        if !ptx.lines().any(|line| line.trim() == format!(".target {arch}")) {
            return Err(BuildError::WrongTarget { ptx: ptx_file, arch });
        }
        let output = match (&self.output, &out_dir) {
            (Some(file), _) => file.clone(),
            (None, Some(out_dir)) => out_dir.join(ptx_file.file_name().unwrap_or("kernels.ptx".as_ref())),
            (None, None) => return Err(BuildError::NotInBuildScript),
        };
        std::fs::write(&output, &ptx).map_err(|e| io_error(&format!("write {}", output.display()), e))?;

        for package in found.local_packages.iter().filter(|dir| !same_dir(dir, &crate_dir)) {
            for watched in ["src", "Cargo.toml", "build.rs"] {
                let path = package.join(watched);
                if path.exists() {
                    rerun(format!("rerun-if-changed={}", path.display()));
                }
            }
        }
        Ok(BuiltPtx { path: output, arch })
    }
}

fn io_error(action: &str, error: std::io::Error) -> BuildError {
    BuildError::Io {
        action: action.to_string(),
        message: error.to_string(),
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The host triple: `HOST` in a build script, else rustc's `host:` line.
fn host_triple(rustc: &str) -> Result<String, BuildError> {
    if let Ok(host) = env::var("HOST") {
        return Ok(host);
    }
    let output = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| io_error(&format!("run {rustc} -vV"), e))?;
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .unwrap_or_default()
        .trim()
        .to_string())
}

/// `<target>/nvptx-kernels`, `<target>` being the nearest ancestor of
/// `OUT_DIR` that holds cargo's `CACHEDIR.TAG`.
fn default_target_dir(out_dir: &Path) -> PathBuf {
    out_dir
        .ancestors()
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .unwrap_or(out_dir)
        .join("nvptx-kernels")
}

/// Runs the child cargo; returns its standard output (the JSON messages).
fn run_cargo(
    cargo: &str,
    rustc: &str,
    crate_dir: &Path,
    manifest: &Path,
    target_dir: &Path,
    arch: &str,
) -> Result<String, BuildError> {
    let mut command = Command::new(cargo);
    command
        .current_dir(crate_dir)
        .env_clear()
        .args(["rustc", "--lib", "--release", "--target", NVPTX_TARGET])
        .args(["-Zbuild-std=core", "--crate-type", "cdylib"])
        .arg("--message-format=json-render-diagnostics")
        .arg("--manifest-path")
        .arg(manifest)
        .arg("--target-dir")
        .arg(target_dir)
        .env("RUSTC", rustc)
        .env("CARGO_ENCODED_RUSTFLAGS", format!("-Ctarget-cpu={arch}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for kept in KEPT_VARIABLES {
        if let Some(value) = env::var_os(kept) {
            command.env(kept, value);
        }
    }
    let output = command
        .output()
        .map_err(|e| io_error(&format!("run {cargo} for the nvptx kernel build"), e))?;
    if !output.status.success() {
        return Err(BuildError::CargoFailed {
            arch: arch.to_string(),
            output: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_target_dir_is_beside_the_callers_profiles() {
        let root = env::temp_dir().join(format!("ptx-builder-target-{}", std::process::id()));
        let out_dir = root.join("debug/build/host-1234/out");
        std::fs::create_dir_all(&out_dir).unwrap();
        std::fs::write(root.join("CACHEDIR.TAG"), "").unwrap();
        assert_eq!(default_target_dir(&out_dir), root.join("nvptx-kernels"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_missing_kernel_crate_is_named() {
        let error = PtxBuilder::new("no/such/crate").build().unwrap_err();
        assert!(
            matches!(&error, BuildError::KernelCrateNotFound { manifest } if manifest.ends_with("no/such/crate/Cargo.toml")),
            "{error}"
        );
    }

    #[test]
    fn a_malformed_architecture_is_refused_before_anything_runs() {
        let error = PtxBuilder::new("no/such/crate").arch("compute_90").build().unwrap_err();
        assert_eq!(
            error.to_string(),
            "compute_90 is not a GPU architecture like sm_75, sm_90 or sm_90a"
        );
    }
}

//! Why a PTX build failed, each case with what to do about it.

use std::fmt;
use std::path::PathBuf;

/// Why [`PtxBuilder::build`](crate::PtxBuilder::build) failed.
///
/// Its `Display` is the message for the person running `cargo build`: one
/// line with the fix where there is one (the `rustup` command for a missing
/// component, the architectures to choose from), and cargo's own messages
/// when the kernel crate does not compile.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// Not run from a build script (no `OUT_DIR`), and no
    /// [`target_dir`](crate::PtxBuilder::target_dir) and
    /// [`output`](crate::PtxBuilder::output) given instead.
    NotInBuildScript,
    /// The architecture is not shaped like `sm_75`, `sm_90a` or `sm_100f`.
    MalformedArch {
        /// The architecture as the user gave it (`VAR=value` when it came from a variable).
        named: String,
    },
    /// The architecture is older than [`OLDEST_ARCH`](crate::OLDEST_ARCH).
    ArchTooOld {
        /// The architecture as the user gave it.
        named: String,
        /// The toolchain's architectures that would do.
        choices: Vec<String>,
    },
    /// The toolchain's nvptx back end does not know the architecture.
    ArchUnknownToToolchain {
        /// The architecture as the user gave it.
        named: String,
        /// The toolchain's architectures that would do.
        choices: Vec<String>,
    },
    /// The toolchain is not a nightly (`-Zbuild-std` needs one).
    NotNightly {
        /// rustc's `release:` line, e.g. `1.90.0`.
        release: String,
    },
    /// Toolchain components the nvptx build needs are not installed.
    MissingComponents {
        /// Their rustup names (`rust-src`, `llvm-tools`, `llvm-bitcode-linker`).
        components: Vec<String>,
        /// The command that installs them.
        fix: String,
    },
    /// There is no `Cargo.toml` at the kernel crate's path.
    KernelCrateNotFound {
        /// Where it was looked for.
        manifest: PathBuf,
    },
    /// A program (cargo, rustc) could not be started or a file could not be
    /// read or written.
    Io {
        /// What was being done.
        action: String,
        /// The operating system's message.
        message: String,
    },
    /// `cargo rustc` for the nvptx target failed: the kernel crate does not compile.
    CargoFailed {
        /// The architecture it was built for.
        arch: String,
        /// What cargo and rustc printed (the compiler's messages).
        output: String,
    },
    /// cargo reported no `.ptx` file for the kernel crate.
    NoPtxArtifact {
        /// The kernel crate's manifest.
        manifest: PathBuf,
    },
    /// The PTX's `.target` directive is not the architecture asked for.
    WrongTarget {
        /// The PTX file.
        ptx: PathBuf,
        /// The architecture asked for.
        arch: String,
    },
}

impl BuildError {
    /// Prints `error: <self>` to stderr and ends the build script with
    /// status 1: the way to fail a `build.rs` with a readable message (a
    /// panic would add a backtrace hint around it).
    pub fn exit(&self) -> ! {
        eprintln!("error: {self}");
        std::process::exit(1)
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NotInBuildScript => write!(
                f,
                "OUT_DIR is not set: run PtxBuilder::build from a build script, or give it target_dir() and output()"
            ),
            BuildError::MalformedArch { named } => {
                write!(f, "{named} is not a GPU architecture like sm_75, sm_90 or sm_90a")
            }
            BuildError::ArchTooOld { named, choices } => write!(
                f,
                "{named} is older than sm_{}, the oldest the kernels can target; choose one of: {}",
                crate::OLDEST_ARCH,
                choices.join(", ")
            ),
            BuildError::ArchUnknownToToolchain { named, choices } => write!(
                f,
                "{named} is not an architecture the toolchain's nvptx back end knows; choose one of: {}",
                choices.join(", ")
            ),
            BuildError::NotNightly { release } => write!(
                f,
                "the nvptx kernel build needs a nightly toolchain (-Zbuild-std), and rustc is {release}; \
                 fix: pin one in rust-toolchain.toml, e.g. channel = \"nightly\""
            ),
            BuildError::MissingComponents { components, fix } => write!(
                f,
                "the nvptx kernel build needs the toolchain component(s) {}; fix: {fix}",
                components.join(", ")
            ),
            BuildError::KernelCrateNotFound { manifest } => {
                write!(f, "no kernel crate at {}", manifest.display())
            }
            BuildError::Io { action, message } => write!(f, "cannot {action}: {message}"),
            BuildError::CargoFailed { arch, output } => write!(
                f,
                "building the kernel crate for {} ({arch}) failed:\n{}",
                crate::NVPTX_TARGET,
                output.trim_end()
            ),
            BuildError::NoPtxArtifact { manifest } => write!(
                f,
                "cargo reported no .ptx file for {}: is it a library crate?",
                manifest.display()
            ),
            BuildError::WrongTarget { ptx, arch } => {
                write!(f, "{} has no `.target {arch}` directive", ptx.display())
            }
        }
    }
}

impl std::error::Error for BuildError {}

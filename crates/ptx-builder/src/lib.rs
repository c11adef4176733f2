//! Build a Rust kernel crate to PTX from `build.rs`, on upstream nightly
//! rustc, with nothing but rustup: no LLVM of your own, no CUDA toolkit.
//!
//! A host crate's `build.rs` hands [`PtxBuilder`] the path of its kernel crate
//! (a `no_std`-on-nvptx library written with the `ptx-device` crate); the
//! builder compiles it for `nvptx64-nvidia-cuda` in a separate cargo
//! invocation and writes the PTX into `OUT_DIR`, where the host embeds it
//! with `include_str!` and loads it through the CUDA driver (which
//! JIT-compiles PTX for the GPU at hand).
//!
//! ```no_run
//! // build.rs (the body of its `main`)
//! let ptx = ptx_builder::PtxBuilder::new("kernels")
//!     .arch_from_env("KERNELS_PTX_ARCH", "sm_75")
//!     .build()
//!     .unwrap_or_else(|error| error.exit());
//! println!("cargo:rustc-env=KERNELS_PTX_ARCH={}", ptx.arch);
//! ```
//!
//! ```ignore
//! // src/main.rs
//! const KERNELS_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));
//! ```
//!
//! The toolchain it needs, in the host crate's `rust-toolchain.toml`:
//!
//! ```toml
//! [toolchain]
//! channel = "nightly-2026-10-30"
//! components = ["rust-src", "llvm-tools", "llvm-bitcode-linker"]
//! ```
//!
//! In the spirit of Rust-CUDA's `cuda_builder`, without its LLVM 7 and
//! libNVVM: rustc's own nvptx back end does the work.

mod arch;
mod builder;
mod cargo_messages;
mod error;
mod toolchain;

pub use arch::OLDEST_ARCH;
pub use builder::{BuiltPtx, KEPT_VARIABLES, PtxBuilder};
pub use error::BuildError;

/// The target triple kernels are compiled for.
pub const NVPTX_TARGET: &str = "nvptx64-nvidia-cuda";

/// The architecture built for unless told otherwise: `sm_75` (Turing), the
/// oldest CUDA 13 supports; its PTX (ISA 7.0) loads on every newer GPU, which
/// the driver JIT-compiles it for.
pub const DEFAULT_ARCH: &str = "sm_75";

/// The README's examples, checked as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

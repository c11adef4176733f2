//! ptxsuite's kernels, written against the `ptx-device` crate.
//!
//! Every kernel in this crate is written once, with the `kernel!` macro, and
//! compiles two ways:
//!
//! * for `nvptx64-nvidia-cuda` (the host crate's `build.rs` does this, through
//!   the `ptx-builder` crate) it is an `extern "ptx-kernel"` entry point in the
//!   PTX that the host program embeds;
//! * for the host it is a plain `unsafe fn` that the CPU [`emulator`] runs over
//!   a grid, with real barriers and checked memory accesses.
//!
//! The device layer ([`device`], the `ptx-device` crate re-exported under its
//! old name) is what makes that possible: thread and block indices,
//! `sync_threads`, dynamic shared memory, global-memory pointers, FMA and
//! texture fetches have a GPU implementation (PTX special registers,
//! intrinsics, inline `asm!`) and an emulator implementation.
//!
//! [`compat_layer`] is the one module also written another way: two
//! algorithms in Rust-CUDA's `cuda_std` style (the `cuda_std` crate,
//! `crates/cuda-std`, on top of the same device layer) beside their
//! `ptx-device` twins, so that the suite measures what that layer costs.
#![cfg_attr(target_arch = "nvptx64", no_std)]
// Inline PTX in a kernel (divergence::path_divergence's path markers).
#![cfg_attr(target_arch = "nvptx64", feature(asm_experimental_arch))]

/// The device layer: the `ptx-device` crate, under the name the kernels and
/// the host use (`#[macro_use]`: `kernel!` in every module).
#[macro_use]
pub extern crate ptx_device as device;

pub mod block_span;
pub mod compat_layer;
pub mod constant_memory;
pub mod diagnostics;
pub mod divergence;
pub mod global_memory;
pub mod guide_multiply;
pub mod instruction_throughput;
pub mod latency;
pub mod launch_bounds;
pub mod local_memory;
pub mod loop_counters;
pub mod math_accuracy;
pub mod matrix_vector;
pub mod occupancy;
pub mod particles;
pub mod reduction;
pub mod sgemm;
pub mod shared_memory_banks;
pub mod streams;
pub mod warp_sum;

/// The CPU emulator (`ptx_device::emulator`), host only.
#[cfg(not(target_arch = "nvptx64"))]
pub use ptx_device::emulator;

/// `cuda_std`'s emulator launch (host only): what runs the
/// [`compat_layer`] kernels written in Rust-CUDA's style (their
/// `shared_array!`s need it).
#[cfg(not(target_arch = "nvptx64"))]
pub use cuda_std::emulator as cuda_std_emulator;

//! Write CUDA kernels in Rust on upstream nightly rustc, and test them on the CPU.
//!
//! This crate is what a kernel calls: thread and block indices, barriers,
//! shared memory, global-memory pointers and float atomics, warp shuffles, texture fetches,
//! fast and accurate math, half floats, clocks, and the [`kernel!`] macro that
//! turns a function into a PTX entry point. It compiles two ways:
//!
//! * for `nvptx64-nvidia-cuda` (`no_std`; build the kernel crate with the
//!   `ptx-builder` crate from your `build.rs`) each function is the PTX
//!   instruction or special register its documentation names;
//! * for the host (any other target) each function reads the emulated
//!   thread's state instead, and the [`emulator`] runs a kernel over a grid
//!   on CPU threads, with real barriers and every memory access checked.
//!
//! A kernel written only against this crate therefore runs unchanged on the
//! GPU and in `cargo test`.
//!
//! # A kernel and its emulator test
//!
//! Each block reverses its slice of the input through shared memory: the
//! barrier is what makes it correct (every thread must have written its
//! element before any thread reads its mirror).
//!
//! ```
//! use ptx_device::emulator::{Emulator, LaunchConfig};
//! use ptx_device::{Dim3, GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, dynamic_shared_memory};
//! use ptx_device::{kernel, sync_threads, thread_idx_x};
//!
//! kernel! {
//!     /// Reverses each block's `blockDim.x` elements, staged in shared memory.
//!     ///
//!     /// # Safety
//!     /// `grid × block` elements in both buffers; `blockDim.x` `f32`s of shared memory.
//!     pub unsafe fn reverse_blocks(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>) {
//!         let (t, n) = (thread_idx_x() as usize, block_dim_x() as usize);
//!         let base = block_idx_x() as usize * n;
//!         let tile = dynamic_shared_memory::<f32>();
//!         // SAFETY: t < n, the tile's length; base + t is inside the buffers (launch contract).
//!         unsafe { tile.store(t, inp.load((base + t) as isize)) };
//!         sync_threads();
//!         // SAFETY: n - 1 - t < n; base + t as above.
//!         unsafe { out.store((base + t) as isize, tile.load(n - 1 - t)) };
//!     }
//! }
//!
//! let input: Vec<f32> = (0..256).map(|i| i as f32).collect();
//! let mut output = vec![0.0f32; 256];
//! let mut emulator = Emulator::new();
//! let inp = emulator.global(&input);
//! let out = emulator.global_mut(&mut output);
//! let config = LaunchConfig::new(Dim3::x(4), Dim3::x(64), 64 * 4);
//! // SAFETY: 4 × 64 threads over 256 elements, 64 f32s of shared memory.
//! emulator.launch(config, || unsafe { reverse_blocks(out, inp) }).unwrap();
//! drop(emulator); // ends the borrows of `input` and `output`
//!
//! let expected: Vec<f32> = (0..256).map(|i| (i / 64 * 64 + 63 - i % 64) as f32).collect();
//! assert_eq!(output, expected);
//! ```
//!
//! The [`emulator`] module shows an out-of-bounds access and a misplaced
//! barrier being reported.
//!
//! # Writing a kernel crate
//!
//! A kernel crate is a library that depends on this crate and starts with
//! `#![cfg_attr(target_arch = "nvptx64", no_std)]`; its kernels are written with
//! [`kernel!`]. On the GPU a panic (an overflow check, an `unreachable!`) traps
//! through this crate's panic handler (the `panic-handler` feature), so the
//! launch fails with `CUDA_ERROR_ILLEGAL_INSTRUCTION` instead of returning a
//! wrong answer; in the emulator it is a [`emulator::FaultKind::KernelPanic`].
//!
//! # Safety, in general
//!
//! The device side checks nothing: a load or store through a [`GlobalPtr`] or a
//! [`SharedPtr`] is one PTX instruction, so every index a kernel uses must be
//! proved in bounds by whoever launches it. That is why memory accesses are
//! `unsafe fn`s and why [`kernel!`] defines `unsafe fn`s: the host checks the
//! launch shape against the buffer lengths before launching, and the emulator
//! checks each access instead and reports a stray one as a fault.
//!
//! Functions that are safe to call still have a *contract* where the GPU
//! needs one (every thread of a block reaches the same [`sync_threads`]; every
//! lane of a warp takes part in [`shfl_down_sync`]): breaking it hangs or is
//! undefined on the GPU, and the emulator reports it.
//!
//! # Features
//!
//! * `panic-handler` (default): defines the `#[panic_handler]` of the nvptx
//!   build (a trap). Turn it off to bring your own.
//! * `constant-memory`: a 4 KiB `__constant__` array in the PTX module,
//!   `CONSTANT_SYMBOL`, read with
//!   `constant_word` and filled by the host through
//!   `cuModuleGetGlobal`; off by default, so a module declares it only when asked.
//!
//! # Toolchain
//!
//! The nvptx build needs a nightly rustc with the `rust-src`, `llvm-tools` and
//! `llvm-bitcode-linker` components (`-Zbuild-std=core`, inline PTX assembly);
//! the host build (the emulator) needs the same nightly for `core::intrinsics`
//! and portable SIMD.
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(asm_experimental_arch, stdarch_nvptx, gpu_intrinsics, gpu_launch_sized_workgroup_mem)
)]
#![feature(core_intrinsics, portable_simd, allow_internal_unstable)]
#![allow(internal_features)]
#![warn(missing_docs)]

mod kernel_macro;
pub mod kernel_signature;
#[cfg(test)]
mod ulp_error;

pub mod accurate_math;
mod angle_reduction;
pub mod clock;
#[cfg(feature = "constant-memory")]
pub mod constant_memory;
pub mod cube_root;
pub mod dim3;
pub mod exp;
pub mod fast_math;
pub mod fast_trig;
pub mod global_atomic;
pub mod global_ptr;
pub mod half_float;
pub mod index;
pub mod integer24;
pub mod math;
pub mod packed_half;
pub mod pi_trig;
pub mod shared_memory;
pub mod sm_id;
pub mod sync;
pub mod texture;
pub mod timer;
pub mod vector;
pub mod warp;

#[cfg(not(target_arch = "nvptx64"))]
pub mod emulator;

#[cfg(all(target_arch = "nvptx64", feature = "panic-handler"))]
mod panic_trap;

pub use accurate_math::{EXP_ACCURATE_MAX_ULP, SIN_MAX_ULP, cos, exp_accurate, sin, sincos};
pub use angle_reduction::CODY_WAITE_LIMIT;
pub use clock::clock64;
#[cfg(feature = "constant-memory")]
pub use constant_memory::{CONSTANT_SYMBOL, CONSTANT_WORDS, constant_word};
pub use cube_root::{CBRT_MAX_ULP, cbrt};
pub use dim3::Dim3;
pub use exp::{EXP_MAX_ULP, EXP_PROVEN_MAX_ULP, exp};
pub use fast_math::{
    div_approx, ex2_approx, ex2_approx_ftz, exp_fast, exp10_fast, lg2_approx, pow_fast, rcp_approx, rsqrt_approx,
};
pub use fast_trig::{FAST_COS_MAX_ABS_ERROR, FAST_SIN_MAX_ABS_ERROR, cos_approx, sin_approx};
pub use global_ptr::{GlobalMutPtr, GlobalPtr};
pub use half_float::f16_bits_to_f32;
pub use index::{
    block_dim_x, block_dim_y, block_dim_z, block_idx_x, block_idx_y, block_idx_z, grid_dim_x, grid_dim_y, grid_dim_z,
    thread_idx_x, thread_idx_y, thread_idx_z,
};
pub use integer24::mul24_lo;
pub use kernel_signature::{KernelArgs, KernelParam, KernelSignature, Param, ParamKind, Signature};
pub use math::{fma, fma_f64, sqrt};
pub use packed_half::{fma_f16x2, pack_f16x2};
/// The token pasting `kernel!` uses to name its marker type (not part of the API).
#[doc(hidden)]
pub use pastey as __pastey;
pub use pi_trig::{SINPI_MAX_ULP, cospi, sinpi};
pub use shared_memory::{SharedPtr, dynamic_shared_memory};
pub use sm_id::sm_id;
pub use sync::sync_threads;
pub use texture::{TextureObject, tex1d_fetch_f32x4, tex2d_f32x4};
pub use timer::global_timer_ns;
pub use vector::F32x4;
pub use warp::{WARP_SIZE, shfl_down_sync};

/// The README's examples, run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

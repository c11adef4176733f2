//! Rust-CUDA's `cuda_std` API on upstream nightly rustc's `nvptx64-nvidia-cuda`
//! target, built on the `ptx-device` crate: kernels written against
//! `cuda_std` build here unchanged (no LLVM 7, no libNVVM), and run on the
//! CPU emulator in `cargo test`.
//!
//! ```
//! use cuda_std::prelude::*;
//!
//! /// `c[i] = a[i] + b[i]`: Rust-CUDA's vector-add example, as written for it.
//! #[kernel]
//! #[allow(improper_ctypes_definitions, clippy::missing_safety_doc)]
//! pub unsafe fn vecadd(a: &[f32], b: &[f32], c: *mut f32) {
//!     let idx = thread::index_1d() as usize;
//!     if idx < a.len() {
//!         let elem = unsafe { &mut *c.add(idx) };
//!         *elem = a[idx] + b[idx];
//!     }
//! }
//!
//! // On the host the kernel is a plain function; the emulator runs it once per thread.
//! use cuda_std::emulator::{Dim3, LaunchConfig, launch};
//! let (a, b) = (vec![1.0f32; 1000], vec![2.0f32; 1000]);
//! let mut c = vec![0.0f32; 1000];
//! let out = cuda_std::emulator::HostPointer::new(c.as_mut_ptr());
//! let config = LaunchConfig::new(Dim3::x(4), Dim3::x(256), 0);
//! // SAFETY: c holds a.len() elements and the kernel writes below a.len() only.
//! launch(config, || unsafe { vecadd(&a, &b, out.get()) }).unwrap();
//! assert!(c.iter().all(|&x| x == 3.0));
//! ```
//!
//! # What a kernel crate needs
//!
//! Its `Cargo.toml` names this crate `cuda_std` (e.g. `cuda_std = { package =
//! "ptx-cuda-std", version = "0.1" }`; the library is called `cuda_std`, so
//! depending on `ptx-cuda-std` works as well) and it is built with the
//! `ptx-builder` crate. Its `lib.rs` starts with
//! `#![cfg_attr(target_os = "cuda", no_std)]`, the one line Rust-CUDA's
//! builder injected for it (rustc's nvptx target has `core` only); kernel
//! code itself is unchanged.
//!
//! # The kernel ABI
//!
//! [`kernel`] makes a PTX `.entry` named like the function. Parameters keep
//! Rust-CUDA's documented layout: scalars, raw pointers and `#[repr(C)]`
//! structs as one parameter each (structs and arrays by value, as byte
//! arrays), and each `&[T]` as **two** parameters, the pointer and the
//! length (`usize`). Host code written for `cust::launch!` therefore passes
//! the same arguments in the same order through any driver binding:
//! `vecadd(a.as_device_ptr(), a.len(), b.as_device_ptr(), b.len(),
//! c.as_device_ptr())` is, with cudarc, `.arg(&a).arg(&a_len).arg(&b)
//! .arg(&b_len).arg(&mut c)` with `usize` lengths.
//!
//! # What is offered, and what is refused at compile time
//!
//! | module | offered | refused (compile error with the reason) |
//! |---|---|---|
//! | [`thread`] | indices, `index`, `index_1d/2d/3d`, `first`, `sync_threads` and its `_count/_and/_or` forms, fences, `nanosleep`, `warp_size` | — |
//! | [`warp`] | `sync_warp`, `lane_id`, `activemask`, shuffles (down, up, idx, xor, any width), votes, `warp_match_any/all`, `warp_reduce` (one `redux.sync` from sm_80, shuffles before) | — |
//! | [`shared`] | [`shared_array!`] as a real `.shared` array, `dynamic_shared_mem` | `#[address_space(shared)] static` (it would be global memory) |
//! | [`atomic`] | `AtomicF32/F64`, `BlockAtomicF32/F64`, `SystemAtomicF32/F64` | the low-level `atomic::mid`/`intrinsics` layers (use these types, or `core::sync::atomic` for integers, which rustc's target supports) |
//! | [`GpuFloat`] | rounding, `abs`, `signum`, `copysign`, `mul_add`, `powi`, `sqrt`; for `f32` also `exp`, `exp2`, `sin` (the device layer's own, no libdevice) | every method that needs libdevice |
//! | [`mem`] | `dynamic_smem_size`, `total_smem_size` (GPU) | `total_smem_size` on the host; the device `malloc` allocator |
//! | [`misc`], [`io`], [`cfg`](mod@cfg) | `clock`, `breakpoint`, `profiler_counter`, `print!`/`println!` (through `vprintf`, 255 bytes a line), `assert_eq!`/`assert_ne!`, `ComputeCapability` | — |
//! | [`prelude`] | as Rust-CUDA's | on the GPU `Vec`, `Box`, `String`, `Rc`, `format!` (no heap: the PTX build links `core` only) |
//!
//! # In the emulator
//!
//! [`emulator::launch`] runs a kernel over a grid with `ptx-device`'s
//! emulator (the threads of a block are OS threads, barriers are real) and
//! gives each block its own shared arrays and dynamic shared memory, filled
//! with `0xFF` bytes first. Slices are bounds-checked by Rust; raw pointers
//! are not (as on the GPU). Warp operations need every lane of the warp in
//! their mask there (the GPU allows subsets).
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        asm_experimental_arch,
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem
    )
)]
#![feature(allow_internal_unstable, trivial_bounds, core_float_math)]
#![allow(internal_features)]
#![warn(missing_docs)]

pub mod atomic;
pub mod cfg;
#[cfg(not(target_arch = "nvptx64"))]
pub mod emulator;
mod float;
mod float_ext;
mod index_vectors;
pub mod io;
mod kernel_entry;
pub mod mem;
pub mod misc;
mod no_heap;
pub mod prelude;
pub mod refusal;
pub mod shared;
pub mod thread;
pub mod warp;

pub use cuda_std_macros_reexport::*;
pub use float::GpuFloat;
pub use float_ext::FloatExt;
pub use index_vectors::{UVec2, UVec3};

/// The attribute macros (`#[kernel]`, `#[gpu_only]`, `#[address_space]`,
/// `#[externally_visible]`), from the `ptx-cuda-std-macros` crate.
mod cuda_std_macros_reexport {
    pub use ptx_cuda_std_macros::{address_space, externally_visible, gpu_only, kernel};
}

/// What the macros' expansions call; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::kernel_entry::{KernelParameter, kernel_parameter, slice_parameter};
    #[cfg(not(target_arch = "nvptx64"))]
    pub use crate::shared::host_shared_array;
    #[cfg(target_arch = "nvptx64")]
    pub use crate::shared::shared_window;
    pub use crate::shared::{shared_align, shared_bytes};
    pub use ptx_cuda_std_macros::unique_shared_symbol;
}

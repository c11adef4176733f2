//! ptxsuite's kernels and the small device layer they are written against.
//!
//! Every kernel in this crate is written once, with the [`kernel!`] macro, and
//! compiles two ways:
//!
//! * for `nvptx64-nvidia-cuda` (the host crate's `build.rs` does this) it is an
//!   `extern "ptx-kernel"` entry point in the PTX that the host program embeds;
//! * for the host it is a plain `unsafe fn` that the CPU [`emulator`] runs over
//!   a grid, with real barriers and checked memory accesses.
//!
//! The device layer ([`device`]) is what makes that possible: thread and block
//! indices, `sync_threads`, dynamic shared memory, global-memory pointers,
//! FMA and texture fetches have a GPU implementation (PTX special registers,
//! intrinsics, inline `asm!`) and an emulator implementation.
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        abi_ptx,
        asm_experimental_arch,
        stdarch_nvptx,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem
    )
)]
#![feature(core_intrinsics, portable_simd)]
#![allow(internal_features)]

#[macro_use]
mod kernel_macro;

pub mod constant_memory;
pub mod device;
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
pub mod sgemm;
pub mod shared_memory_banks;
pub mod streams;

#[cfg(not(target_arch = "nvptx64"))]
pub mod emulator;

/// On the GPU a panic (an arithmetic overflow check, an `unreachable!`) traps:
/// the launch fails with `CUDA_ERROR_ILLEGAL_INSTRUCTION` and the host reports it.
#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn trap_on_panic(_: &core::panic::PanicInfo) -> ! {
    core::intrinsics::abort_immediate()
}

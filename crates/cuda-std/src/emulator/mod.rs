//! Running `cuda_std` kernels on the CPU: `ptx-device`'s emulator plus what
//! Rust-CUDA's API adds to it (host only).
//!
//! [`launch`] runs a `#[kernel]` function over a grid exactly as
//! `ptx_device::emulator` runs a `kernel!` function: blocks one after
//! another, the threads of a block as OS threads, so barriers and warp
//! operations really wait, and a thread that misses a barrier or a warp
//! operation is reported as a fault with its location instead of hanging.
//! On top of it each launch has:
//!
//! * every `shared_array!`'s array and the dynamic shared memory, one set
//!   per block (refilled with `0xFF` bytes before each block, so a read
//!   before a write shows as NaN or -1);
//! * the meeting points of the warp operations (shuffles, votes, matches,
//!   reductions) and of `sync_threads_count/and/or`.
//!
//! Slices are checked by Rust (an index past the end panics: a fault);
//! raw pointers are not, as on the GPU. Pass raw output pointers into the
//! kernel closure with [`HostPointer`] (a `*mut T` is not `Sync`).

pub(crate) mod block_memory;
pub(crate) mod exchange;
mod host_pointer;
mod launch_state;

pub use host_pointer::HostPointer;
pub use ptx_device::Dim3;
pub use ptx_device::emulator::{EmulatorError, Fault, FaultKind, LaunchConfig};

use std::sync::Arc;

use launch_state::LaunchState;

/// Runs `kernel` (a closure calling a `#[kernel]` function) once for every
/// thread of `config`'s grid.
///
/// # Errors
/// As `ptx_device::emulator::Emulator::launch`: a shape `cuLaunchKernel`
/// would refuse, or the faults of the block where the first one happened (a
/// panic, an index past a slice, a barrier or warp operation some thread
/// missed, a warp operation whose mask leaves out lanes of the warp).
pub fn launch<F>(config: LaunchConfig, kernel: F) -> Result<(), EmulatorError>
where
    F: Fn() + Sync,
{
    let state = Arc::new(LaunchState::new(config));
    ptx_device::emulator::Emulator::new().launch(config, || {
        launch_state::enter(&state);
        kernel();
    })
}

//! A CPU emulator for kernels written with this crate, in the spirit of Numba's CUDA simulator.
//!
//! It runs a kernel over a grid exactly as its launch configuration says:
//! blocks one after another, the threads of a block as real OS threads, so
//! that [`sync_threads`](crate::sync_threads) is a real barrier and a
//! race or a missing barrier shows up as a wrong result rather than being
//! hidden by sequential execution.
//!
//! What it checks, and reports as [`Fault`]s instead of silently accepting:
//! * every global-memory access lies inside a buffer registered for the
//!   launch (read-only buffers are not written), and is aligned;
//! * every shared-memory access lies inside the launch's dynamic shared memory;
//! * every thread of a block reaches every barrier, at the same call site: a
//!   thread that returns while others wait, or a barrier after some threads
//!   have returned, is a deadlock on the GPU and a fault here;
//! * a barrier that does not complete within [`BARRIER_TIMEOUT`] is a fault;
//! * a panic inside the kernel (a trap on the GPU) is a fault.
//!
//! Shared memory is filled with `0xFF` bytes (NaN for floats) before each
//! block, so reading it before writing it shows up in results.
//!
//! # Reading the results
//!
//! [`Emulator::global`] and [`Emulator::global_mut`] borrow host slices for
//! as long as the emulator lives and hand out the kernel parameters that
//! point into them; drop the emulator to read the slices again.
//!
//! # An out-of-bounds access, reported
//!
//! One thread too many: the launch covers 65 elements of a 64-element
//! buffer. On a GPU the last thread would read past the allocation (and maybe
//! return garbage); here the launch fails with the fault, the thread and its
//! block.
//!
//! ```
//! use ptx_device::emulator::{Emulator, FaultKind, LaunchConfig};
//! use ptx_device::{Dim3, GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, kernel, thread_idx_x};
//!
//! kernel! {
//!     /// `out[i] = 2 · inp[i]`, one element per thread.
//!     ///
//!     /// # Safety
//!     /// Grid × block must not exceed either buffer's length.
//!     pub unsafe fn double(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>) {
//!         let i = (block_idx_x() * block_dim_x() + thread_idx_x()) as isize;
//!         // SAFETY: the launch's contract (which the call below breaks on purpose).
//!         unsafe { out.store(i, 2.0 * inp.load(i)) };
//!     }
//! }
//!
//! let input = vec![1.0f32; 64];
//! let mut output = vec![0.0f32; 64];
//! let mut emulator = Emulator::new();
//! let (inp, out) = (emulator.global(&input), emulator.global_mut(&mut output));
//! let config = LaunchConfig::new(Dim3::x(5), Dim3::x(13), 0); // 65 threads
//! // SAFETY: none; the emulator checks every access.
//! let error = emulator.launch(config, || unsafe { double(out, inp) }).unwrap_err();
//!
//! let fault = &error.faults()[0];
//! assert_eq!((fault.block, fault.thread), (Dim3::new(4, 0, 0), Dim3::new(12, 0, 0)));
//! assert!(matches!(
//!     fault.kind,
//!     FaultKind::GlobalOutOfBounds { write: false, index: 64, .. }
//! ));
//! println!("{error}"); // thread (12,0,0) of block (4,0,0): out-of-bounds global read of element 64 ...
//! ```
//!
//! # A barrier that not every thread reaches, reported
//!
//! The first half of the block returns early; the second half waits at
//! `sync_threads` for threads that will never come. On the GPU this hangs
//! or is undefined; here it is a [`FaultKind::BarrierDeadlock`].
//!
//! ```
//! use ptx_device::emulator::{Emulator, FaultKind, LaunchConfig};
//! use ptx_device::{Dim3, kernel, sync_threads, thread_idx_x};
//!
//! kernel! {
//!     /// A barrier after an early return: wrong on purpose.
//!     ///
//!     /// # Safety
//!     /// Touches no memory.
//!     pub unsafe fn early_return() {
//!         if thread_idx_x() < 16 {
//!             return;
//!         }
//!         sync_threads();
//!     }
//! }
//!
//! let emulator = Emulator::new();
//! let config = LaunchConfig::new(Dim3::x(1), Dim3::x(32), 0);
//! // SAFETY: the kernel touches no memory.
//! let error = emulator.launch(config, || unsafe { early_return() }).unwrap_err();
//! assert!(error.has_fault(|kind| matches!(kind, FaultKind::BarrierDeadlock { .. })), "{error}");
//! ```

mod fault;
mod grid_runner;
mod memory_map;
mod rendezvous;
pub(crate) mod thread_context;

use core::marker::PhantomData;
use std::time::Duration;

use crate::{Dim3, GlobalMutPtr, GlobalPtr, TextureObject};

pub use fault::{EmulatorError, Fault, FaultKind};
use memory_map::MemoryMap;

/// How long an emulated thread waits at a barrier before the launch is
/// reported as deadlocked.
pub const BARRIER_TIMEOUT: Duration = Duration::from_secs(10);

/// The most threads a block may have (as on every GPU since cc 2.0).
pub const MAX_THREADS_PER_BLOCK: u64 = 1024;

/// The shape of an emulated launch: grid, block and dynamic shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Blocks in the grid (`gridDim`).
    pub grid: Dim3,
    /// Threads in a block (`blockDim`); at most [`MAX_THREADS_PER_BLOCK`].
    pub block: Dim3,
    /// Bytes of dynamic shared memory per block (what
    /// [`dynamic_shared_memory`](crate::dynamic_shared_memory) points to).
    pub shared_bytes: usize,
}

impl LaunchConfig {
    /// A launch of `grid` blocks of `block` threads with `shared_bytes` of
    /// dynamic shared memory each (`cuLaunchKernel`'s arguments).
    pub const fn new(grid: Dim3, block: Dim3, shared_bytes: usize) -> Self {
        Self {
            grid,
            block,
            shared_bytes,
        }
    }
}

/// Host buffers registered as "device memory" for emulated launches.
///
/// The lifetime `'a` keeps the registered slices borrowed while the emulator
/// lives; drop it to read the results.
pub struct Emulator<'a> {
    memory: MemoryMap,
    _borrows: PhantomData<&'a mut [u8]>,
}

impl Default for Emulator<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> Emulator<'a> {
    /// An emulator with no buffers registered yet.
    pub fn new() -> Self {
        Self {
            memory: MemoryMap::default(),
            _borrows: PhantomData,
        }
    }

    /// Registers a read-only buffer and returns the kernel parameter for it.
    pub fn global<T: Copy>(&mut self, data: &'a [T]) -> GlobalPtr<T> {
        self.memory
            .add_region(data.as_ptr() as usize, std::mem::size_of_val(data), false);
        GlobalPtr::from_raw(data.as_ptr())
    }

    /// Registers a writable buffer and returns the kernel parameter for it.
    pub fn global_mut<T: Copy>(&mut self, data: &'a mut [T]) -> GlobalMutPtr<T> {
        self.memory
            .add_region(data.as_ptr() as usize, std::mem::size_of_val(data), true);
        GlobalMutPtr::from_raw(data.as_mut_ptr())
    }

    /// Registers the words that [`constant_word`](crate::constant_word) reads
    /// (the module's `__constant__` array, which the host fills through
    /// `cuModuleGetGlobal`); at most [`CONSTANT_WORDS`](crate::CONSTANT_WORDS)
    /// of them, as on the GPU. With the `constant-memory` feature only.
    #[cfg(feature = "constant-memory")]
    pub fn constant_words(&mut self, data: &'a [u32]) {
        self.memory.constant = Some(memory_map::ConstantWords {
            data: data.as_ptr(),
            words: data.len().min(crate::CONSTANT_WORDS),
        });
    }

    /// Registers a one-channel `f32` texture over `data` (texel `i` is `data[i]`).
    pub fn texture_f32(&mut self, data: &'a [f32]) -> TextureObject {
        self.memory.add_texture(data.as_ptr(), data.len(), 1, data.len())
    }

    /// Registers a four-channel `f32` texture over `data`.
    pub fn texture_f32x4(&mut self, data: &'a [[f32; 4]]) -> TextureObject {
        self.memory
            .add_texture(data.as_ptr() as *const f32, data.len(), 4, data.len())
    }

    /// Registers a one-channel 2-D `f32` texture of rows of `width` texels
    /// over `data` (texel `(x, y)` is `data[y * width + x]`), sampled as the
    /// suite's point-sampled textures are: unnormalized coordinates, clamp
    /// addressing, no filtering ([`tex2d_f32x4`](crate::texture::tex2d_f32x4)).
    ///
    /// # Panics
    /// If `width` is 0 or does not divide `data.len()`.
    pub fn texture_2d_f32(&mut self, data: &'a [f32], width: usize) -> TextureObject {
        assert!(
            width > 0 && data.len().is_multiple_of(width),
            "a 2-D texture of {} texels cannot have rows of {width}",
            data.len()
        );
        self.memory.add_texture(data.as_ptr(), data.len(), 1, width)
    }

    /// Runs `kernel` once for every thread of `config`'s grid.
    ///
    /// `kernel` is typically a closure that calls a [`kernel!`](crate::kernel)
    /// function with parameters obtained from [`global`](Self::global) and
    /// friends. Blocks run one after another; the threads of a block run at
    /// once, each on its own OS thread, so barriers and shuffles really wait.
    ///
    /// # Errors
    /// [`EmulatorError::InvalidConfig`] for a shape `cuLaunchKernel` would
    /// refuse; [`EmulatorError::Faults`] when a thread faulted (the launch
    /// stops at the end of the block where the first fault happened).
    pub fn launch<F>(&self, config: LaunchConfig, kernel: F) -> Result<(), EmulatorError>
    where
        F: Fn() + Sync,
    {
        grid_runner::run(&self.memory, config, &kernel)
    }
}

//! A CPU emulator for the kernels of this crate, in the spirit of Numba's CUDA simulator.
//!
//! It runs a kernel over a grid exactly as its launch configuration says:
//! blocks one after another, the threads of a block as real OS threads, so
//! that [`sync_threads`](crate::device::sync_threads) is a real barrier and a
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
//! ```
//! use kernels_gpu::device::Dim3;
//! use kernels_gpu::emulator::{Emulator, LaunchConfig};
//! use kernels_gpu::global_memory::offset_copy;
//!
//! let input: Vec<f32> = (0..64).map(|i| i as f32).collect();
//! let mut output = vec![0.0f32; 64];
//! let mut emu = Emulator::new();
//! let inp = emu.global(&input);
//! let out = emu.global_mut(&mut output);
//! let config = LaunchConfig::new(Dim3::x(2), Dim3::x(32), 0);
//! // SAFETY: 64 threads, offset 0: indices 0..64 are inside both buffers.
//! emu.launch(config, || unsafe { offset_copy(out, inp, 0) }).unwrap();
//! drop(emu);
//! assert_eq!(output, input);
//! ```

mod fault;
mod grid_runner;
mod memory_map;
mod rendezvous;
pub(crate) mod thread_context;

use core::marker::PhantomData;
use std::time::Duration;

use crate::device::{Dim3, GlobalMutPtr, GlobalPtr, TextureObject};

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
    pub grid: Dim3,
    pub block: Dim3,
    pub shared_bytes: usize,
}

impl LaunchConfig {
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

    /// Registers the words that `device::constant_word` reads (the module's
    /// `__constant__` array, which the host fills through `cuModuleGetGlobal`);
    /// at most `CONSTANT_WORDS` of them, as on the GPU.
    pub fn constant_words(&mut self, data: &'a [u32]) {
        self.memory.constant = Some(memory_map::ConstantWords {
            data: data.as_ptr(),
            words: data.len().min(crate::device::CONSTANT_WORDS),
        });
    }

    /// Registers a one-channel `f32` texture over `data` (texel `i` is `data[i]`).
    pub fn texture_f32(&mut self, data: &'a [f32]) -> TextureObject {
        self.memory.add_texture(data.as_ptr(), data.len(), 1)
    }

    /// Registers a four-channel `f32` texture over `data`.
    pub fn texture_f32x4(&mut self, data: &'a [[f32; 4]]) -> TextureObject {
        self.memory.add_texture(data.as_ptr() as *const f32, data.len(), 4)
    }

    /// Runs `kernel` once for every thread of `config`'s grid.
    ///
    /// `kernel` is typically a closure that calls a kernel of this crate with
    /// parameters obtained from [`global`](Self::global) and friends.
    pub fn launch<F>(&self, config: LaunchConfig, kernel: F) -> Result<(), EmulatorError>
    where
        F: Fn() + Sync,
    {
        grid_runner::run(&self.memory, config, &kernel)
    }
}

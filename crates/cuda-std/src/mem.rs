//! Shared-memory sizes of the running launch (Rust-CUDA's `cuda_std::mem`).
//!
//! Rust-CUDA's device-side allocator (`CUDAAllocator`, the `malloc`/`free`
//! system calls behind `alloc`) is not offered: the PTX build links `core`
//! only (see the prelude's heap refusals).

/// Bytes of dynamic shared memory the launch gave each block (PTX `%dynamic_smem_size`).
#[inline(always)]
pub fn dynamic_smem_size() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let bytes: u32;
        // SAFETY: reading a special register.
        unsafe {
            core::arch::asm!("mov.u32 {bytes}, %dynamic_smem_size;", bytes = out(reg32) bytes, options(pure, nomem, nostack))
        };
        bytes
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::block_memory::dynamic_bytes() as u32
    }
}

/// Bytes of shared memory each block of this launch has, static and dynamic,
/// in the allocation unit (PTX `%total_smem_size`). GPU only: the emulator
/// cannot know what ptxas allocated, so calling it in a host build is a
/// compile-time error.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn total_smem_size() -> u32 {
    let bytes: u32;
    // SAFETY: reading a special register.
    unsafe {
        core::arch::asm!("mov.u32 {bytes}, %total_smem_size;", bytes = out(reg32) bytes, options(pure, nomem, nostack))
    };
    bytes
}

/// Refused on the host (see the GPU build's documentation).
#[cfg(not(target_arch = "nvptx64"))]
#[allow(trivial_bounds)]
pub fn total_smem_size() -> u32
where
    crate::refusal::Emulated: crate::refusal::KnownOnlyToTheGpu,
{
    unreachable!("refused at compile time")
}

/// `__syncthreads()`: a block-wide barrier (PTX `bar.sync 0`).
///
/// Every thread of the block must reach the same call: a barrier inside a
/// branch that some threads skip, or after an early `return`, hangs or is
/// undefined on the GPU. The emulator reports both as errors.
#[inline(always)]
#[track_caller]
pub fn sync_threads() {
    #[cfg(target_arch = "nvptx64")]
    {
        // SAFETY: bar.sync has no memory-safety preconditions; reaching it uniformly is the caller's contract.
        unsafe { core::arch::nvptx::_syncthreads() }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::thread_context::sync_threads(core::panic::Location::caller())
    }
}

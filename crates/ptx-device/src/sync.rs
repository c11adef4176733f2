//! The block-wide barrier.

/// `__syncthreads()`: a block-wide barrier (PTX `bar.sync 0`).
///
/// Every thread of the block must reach the same call: a barrier inside a
/// branch that some threads skip, or after an early `return`, hangs or is
/// undefined on the GPU. The emulator reports both as errors
/// ([`FaultKind::BarrierDeadlock`](crate::emulator::FaultKind::BarrierDeadlock),
/// [`FaultKind::BarrierDivergence`](crate::emulator::FaultKind::BarrierDivergence)).
///
/// It also orders memory: shared- and global-memory writes of the block made
/// before the barrier are visible to the block's reads after it.
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

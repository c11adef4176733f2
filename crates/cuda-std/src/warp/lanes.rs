//! The warp barrier and which lane and lanes are running.

/// `__syncwarp(mask)`: waits until every lane in `mask` reaches it, and
/// orders their memory accesses (PTX `bar.warp.sync`).
///
/// # Safety
/// The calling lane must be in `mask`, and every lane in `mask` must reach a
/// `sync_warp` with the same mask (undefined on the GPU otherwise).
#[inline(always)]
#[track_caller]
pub unsafe fn sync_warp(mask: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: the caller's contract; a barrier, so not `nomem`.
    unsafe {
        core::arch::asm!("bar.warp.sync {mask};", mask = in(reg32) mask, options(nostack))
    };
    #[cfg(not(target_arch = "nvptx64"))]
    crate::emulator::exchange::warp(0, mask, "sync_warp");
}

/// The calling thread's lane in its warp, 0 to 31 (PTX `%laneid`).
#[inline(always)]
pub fn lane_id() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let lane: u32;
        // SAFETY: reading a special register.
        unsafe { core::arch::asm!("mov.u32 {lane}, %laneid;", lane = out(reg32) lane, options(pure, nomem, nostack)) };
        lane
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::exchange::position().lane
    }
}

/// `__activemask()`: the lanes of the warp executing this call together
/// (PTX `activemask.b32`). It synchronises nothing. The emulator, which does
/// not model divergence, returns every lane of the warp.
#[inline(always)]
pub fn activemask() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let mask: u32;
        // SAFETY: reads the warp's active mask; touches no memory. Not `pure`: it depends on where it runs.
        unsafe { core::arch::asm!("activemask.b32 {mask};", mask = out(reg32) mask, options(nomem, nostack)) };
        mask
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        crate::emulator::exchange::position().present_lanes()
    }
}

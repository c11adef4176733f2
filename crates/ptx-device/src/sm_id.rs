//! Which SM a thread runs on (PTX `%smid`).

/// The index of the SM executing the calling thread (PTX `%smid`): every
/// thread of a block reads the same value, since a block never leaves its SM.
/// Pair it with [`clock64`](crate::clock64) readings: SMs' cycle counters are
/// not synchronised, so only spans taken on one SM may be compared.
///
/// In the emulator: 0 (the emulator is one SM).
#[inline(always)]
pub fn sm_id() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let sm: u32;
        // SAFETY: reading a special register has no preconditions.
        unsafe {
            core::arch::asm!("mov.u32 {sm}, %smid;", sm = out(reg32) sm, options(nomem, nostack, pure));
        }
        sm
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        0
    }
}

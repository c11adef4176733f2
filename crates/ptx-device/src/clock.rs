//! The SM's cycle counter (PTX `%clock64`).

/// The executing SM's 64-bit cycle counter (PTX `%clock64`, CUDA C's
/// `clock64()`): it counts the SM's clock, so differences taken by one
/// thread (or by threads of one block, which share an SM) are elapsed SM
/// cycles. Counters of different SMs are not synchronised.
///
/// In the emulator: a process-wide counter that every call increases by one,
/// so differences are positive and grow with the number of readings, but mean
/// nothing as time.
#[inline(always)]
pub fn clock64() -> u64 {
    #[cfg(target_arch = "nvptx64")]
    {
        let cycles: u64;
        // SAFETY: reading a special register has no preconditions; not `pure`, so every call reads it anew.
        unsafe {
            core::arch::asm!("mov.u64 {cycles}, %clock64;", cycles = out(reg64) cycles, options(nostack));
        }
        cycles
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        static READINGS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        READINGS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1
    }
}

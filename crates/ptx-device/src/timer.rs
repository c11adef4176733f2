//! The GPU's global nanosecond timer (PTX `%globaltimer`).

/// Nanoseconds on the GPU's global timer (PTX `%globaltimer`, a 64-bit
/// counter shared by all SMs; its resolution is 32 ns to 1 µs depending on
/// the GPU). Only differences are meaningful.
///
/// In the emulator: nanoseconds since the first call in the process
/// (`std::time::Instant`), so a kernel that waits on the clock waits as long.
#[inline(always)]
pub fn global_timer_ns() -> u64 {
    #[cfg(target_arch = "nvptx64")]
    {
        let ns: u64;
        // SAFETY: reading a special register has no preconditions; not `pure`, so every call reads it anew.
        unsafe {
            core::arch::asm!("mov.u64 {ns}, %globaltimer;", ns = out(reg64) ns, options(nomem, nostack));
        }
        ns
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        EPOCH.get_or_init(std::time::Instant::now).elapsed().as_nanos() as u64
    }
}

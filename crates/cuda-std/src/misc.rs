//! The SM's clock, a debugger breakpoint and the profiler's counters
//! (Rust-CUDA's `cuda_std::misc`).

/// The SM's 64-bit cycle counter (PTX `%clock64`, `ptx_device::clock64`):
/// differences taken on one SM are elapsed cycles. In the emulator a counter
/// that grows by one per reading.
#[inline(always)]
pub fn clock() -> u64 {
    ptx_device::clock64()
}

/// Stops the thread in a debugger (PTX `brkpt`); nothing in the emulator.
#[inline(always)]
pub fn breakpoint() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a debugger trap; touches no memory.
    unsafe {
        core::arch::asm!("brkpt;", options(nomem, nostack))
    };
}

/// Adds one per warp to the profiler's counter `counter` (PTX `pmevent`);
/// nothing in the emulator.
///
/// # Panics
/// If `counter` is not in `0..=7`.
#[inline(always)]
pub fn profiler_counter(counter: u32) {
    assert!(counter <= 7, "profiler counter {counter} is not in 0..=7");
    #[cfg(target_arch = "nvptx64")]
    {
        macro_rules! signal {
            ($($n:literal)*) => {
                match counter {
                    // SAFETY: signals a performance-monitor event; touches no memory.
                    $($n => unsafe { core::arch::asm!(concat!("pmevent ", $n, ";"), options(nomem, nostack)) },)*
                    _ => {}
                }
            };
        }
        // pmevent takes an immediate: one instruction per counter.
        signal!(0 1 2 3 4 5 6 7);
    }
}

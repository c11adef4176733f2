use crate::device::global_timer_ns;

kernel! {
    /// Busy-waits on the GPU's global timer until `nanoseconds` have passed,
    /// then returns: a kernel whose run time the host chooses exactly, for
    /// testing the suite's kernel time limit (`--kernel-timeout`): launched
    /// for 2 s under a 0.2 s limit, the host's wait must give up with a
    /// `KernelTimeout`, and the context must work again once the spin ends.
    ///
    /// **Indexing**: none; every thread reads `%globaltimer` (a 64-bit
    /// nanosecond counter shared by all SMs) until the difference from its
    /// first reading reaches `nanoseconds`. Nothing is read or written in memory.
    ///
    /// **Launch**: any grid; the suite launches one block of one thread, so
    /// the spin occupies one SM slot and no memory bandwidth.
    ///
    /// **Expected**: runs `nanoseconds` plus the timer's resolution (32 ns to
    /// 1 µs); a GPU that preempts or time-slices it (display watchdog,
    /// MPS) may take longer. No counterpart in the guide.
    ///
    /// # Safety
    /// None beyond any launch: it touches no memory (`unsafe` as every kernel is).
    pub unsafe fn spin_wait(nanoseconds: u64) {
        let start = global_timer_ns();
        while global_timer_ns().wrapping_sub(start) < nanoseconds {
            core::hint::spin_loop();
        }
    }
}

//! Warp-level primitives.

/// The number of threads in a warp on every NVIDIA GPU (PTX `WARP_SZ`).
pub const WARP_SIZE: u32 = 32;

/// `__shfl_down_sync(0xffffffff, value, delta)`: each lane gets `value` from
/// the lane `delta` above it; lanes whose source would be past lane 31 keep
/// their own value (PTX `shfl.sync.down.b32` with clamp 31, full mask).
///
/// Every lane of the warp must call it together (the full-warp mask): the
/// `.sync` form is the Volta-and-later replacement of the warp-synchronous
/// shared-memory code in the OpenCL whitepaper's Listing 7, which relied on
/// implicit lockstep that independent thread scheduling no longer gives. The
/// emulator reports a lane that does not take part as a fault.
#[inline(always)]
#[track_caller]
pub fn shfl_down_sync(value: f32, delta: u32) -> f32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let out: f32;
        // SAFETY: a register exchange inside the warp; every lane of a full warp takes part (caller's contract).
        unsafe {
            core::arch::asm!(
                "shfl.sync.down.b32 {out}, {value}, {delta}, 31, -1;",
                out = out(reg32) out,
                value = in(reg32) value,
                delta = in(reg32) delta,
                options(nostack),
            );
        }
        out
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        f32::from_bits(crate::emulator::thread_context::shfl_down(
            value.to_bits(),
            delta,
            core::panic::Location::caller(),
        ))
    }
}

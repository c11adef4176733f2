//! Atomic float addition into global memory (CUDA C's `atomicAdd` on a `float*`).
//!
//! Both operations are one PTX instruction with no ordering qualifier and no
//! scope, which PTX reads as `.relaxed` and `.gpu`: the addition itself is
//! atomic for every thread of the launch, but it orders no other memory
//! access (use a barrier or a fence for that). [`red_add`](GlobalMutPtr::red_add)
//! returns nothing, so the SM does not wait for the old value (`RED` in SASS);
//! [`atomic_add`](GlobalMutPtr::atomic_add) returns it (`ATOM`, a round trip
//! to L2).
//!
//! # The sum's order, and when it does not matter
//!
//! Float addition is not associative, and atomics from different threads or
//! blocks land in whatever order the GPU runs them, so a sum of many
//! additions may differ in its last bits from run to run. One case is exact
//! in every order: two partials `a` and `b` added into a `+0.0` give
//! `(0 + a) + b = a + b` bit for bit (`0 + a` is exact and the addition is
//! commutative), except that two `-0.0` partials give `+0.0` and subnormals
//! are flushed (below). That is the
//! split-K case of two blocks per output tile adding into a zeroed matrix.
//! Sums whose every partial sum is exactly representable (small integers in
//! `f32`) are exact in every order as well.
//!
//! The `.add.f32` atomics round to nearest even and flush subnormal inputs
//! and results to sign-preserving zero (ptxas makes them
//! `REDG.E.ADD.F32.FTZ.RN.STRONG.GPU` and `ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU`
//! on sm_90), unlike a plain `add.f32`; the emulator does the same.
//!
//! # In the emulator
//!
//! Each addition is a compare-and-swap loop on the element's bits, so
//! concurrent additions are serialized and none is lost, with the GPU's
//! rounding and flushing, and the access is bounds-checked like a store. Blocks run one after another, so additions
//! from different blocks land in block order (deterministic); the threads of
//! one block run in parallel, so their additions land in the order the host
//! schedules them, as on the GPU.

use crate::GlobalMutPtr;

impl GlobalMutPtr<f32> {
    /// Adds `value` to element `index` atomically and returns nothing
    /// (`atomicAdd(&p[index], value)` with the result unused).
    ///
    /// PTX: `red.global.add.f32` (relaxed, `.gpu` scope), after a
    /// `cvta.to.global` of the element's address. See the
    /// [module documentation](crate::global_atomic) for the order of the
    /// additions and the one case where it cannot change the sum.
    ///
    /// # Safety
    /// `index` must lie inside the buffer this pointer points into. Plain
    /// loads or stores of the same element by other threads during the launch
    /// race with the addition, as in CUDA C.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn red_add(self, index: isize, value: f32) {
        #[cfg(target_arch = "nvptx64")]
        {
            // SAFETY: the caller guarantees `index` is inside the buffer, a global allocation.
            unsafe {
                core::arch::asm!(
                    "{{ .reg .u64 %address; cvta.to.global.u64 %address, {pointer}; red.global.add.f32 [%address], {value}; }}",
                    pointer = in(reg64) self.as_raw().offset(index),
                    value = in(reg32) value,
                    options(nostack),
                );
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            crate::emulator::thread_context::global_atomic_add_f32(self.as_raw(), index, value);
        }
    }

    /// Adds `value` to element `index` atomically and returns the value the
    /// element held just before (`atomicAdd(&p[index], value)`).
    ///
    /// PTX: `atom.global.add.f32` (relaxed, `.gpu` scope). Prefer
    /// [`red_add`](Self::red_add) when the old value is not needed: it does
    /// not wait for the round trip.
    ///
    /// # Safety
    /// As [`red_add`](Self::red_add).
    #[inline(always)]
    #[track_caller]
    pub unsafe fn atomic_add(self, index: isize, value: f32) -> f32 {
        #[cfg(target_arch = "nvptx64")]
        {
            let previous: f32;
            // SAFETY: the caller guarantees `index` is inside the buffer, a global allocation.
            unsafe {
                core::arch::asm!(
                    "{{ .reg .u64 %address; cvta.to.global.u64 %address, {pointer}; atom.global.add.f32 {previous}, [%address], {value}; }}",
                    pointer = in(reg64) self.as_raw().offset(index),
                    value = in(reg32) value,
                    previous = out(reg32) previous,
                    options(nostack),
                );
            }
            previous
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            crate::emulator::thread_context::global_atomic_add_f32(self.as_raw(), index, value)
        }
    }
}

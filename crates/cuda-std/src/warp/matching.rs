//! `__match_any_sync`, `__match_all_sync`: which lanes hold the same value.
//!
//! Values are compared by their bits (an `f32` as its `to_bits()`: `0.0` and
//! `-0.0` differ, a NaN matches the same NaN).

/// A value a warp match compares: 32 or 64 bits.
pub trait WarpMatchValue: Sized + Copy {
    /// See [`warp_match_any`].
    ///
    /// # Safety
    /// As [`warp_match_any`].
    #[track_caller]
    unsafe fn match_any(mask: u32, value: Self) -> u32;
    /// See [`warp_match_all`].
    ///
    /// # Safety
    /// As [`warp_match_any`].
    #[track_caller]
    unsafe fn match_all(mask: u32, value: Self) -> Option<u32>;
}

#[inline(always)]
#[track_caller]
fn match_any_bits(mask: u32, bits: u64, wide: bool) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let lanes: u32;
        // SAFETY: a compare within the warp; the lanes in `mask` taking part is the caller's contract.
        unsafe {
            if wide {
                core::arch::asm!("match.any.sync.b64 {lanes}, {value}, {mask};", lanes = out(reg32) lanes,
                    value = in(reg64) bits, mask = in(reg32) mask, options(nomem, nostack));
            } else {
                core::arch::asm!("match.any.sync.b32 {lanes}, {value}, {mask};", lanes = out(reg32) lanes,
                    value = in(reg32) bits as u32, mask = in(reg32) mask, options(nomem, nostack));
            }
        }
        lanes
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = wide;
        crate::emulator::exchange::warp(bits, mask, "warp_match_any").lanes_holding(bits) & mask
    }
}

#[inline(always)]
#[track_caller]
fn match_all_bits(mask: u32, bits: u64, wide: bool) -> Option<u32> {
    #[cfg(target_arch = "nvptx64")]
    {
        let (lanes, all): (u32, u32);
        // SAFETY: as match_any_bits.
        unsafe {
            if wide {
                core::arch::asm!(
                    "{{ .reg .pred %all; match.all.sync.b64 {lanes}|%all, {value}, {mask}; selp.u32 {flag}, 1, 0, %all; }}",
                    lanes = out(reg32) lanes, flag = out(reg32) all, value = in(reg64) bits, mask = in(reg32) mask,
                    options(nomem, nostack));
            } else {
                core::arch::asm!(
                    "{{ .reg .pred %all; match.all.sync.b32 {lanes}|%all, {value}, {mask}; selp.u32 {flag}, 1, 0, %all; }}",
                    lanes = out(reg32) lanes, flag = out(reg32) all, value = in(reg32) bits as u32, mask = in(reg32) mask,
                    options(nomem, nostack));
            }
        }
        (all != 0).then_some(lanes)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = wide;
        let warp = crate::emulator::exchange::warp(bits, mask, "warp_match_all");
        let members = warp.present_lanes() & mask;
        (warp.lanes_holding(bits) & mask == members).then_some(members)
    }
}

macro_rules! match_value {
    ($($ty:ty => $bits:expr, $wide:literal);* $(;)?) => {$(
        impl WarpMatchValue for $ty {
            #[inline(always)]
            #[track_caller]
            unsafe fn match_any(mask: u32, value: Self) -> u32 {
                let to_bits: fn(Self) -> u64 = $bits;
                match_any_bits(mask, to_bits(value), $wide)
            }
            #[inline(always)]
            #[track_caller]
            unsafe fn match_all(mask: u32, value: Self) -> Option<u32> {
                let to_bits: fn(Self) -> u64 = $bits;
                match_all_bits(mask, to_bits(value), $wide)
            }
        }
    )*};
}

match_value!(
    i32 => |v| v as u32 as u64, false;
    u32 => |v| v as u64, false;
    f32 => |v| v.to_bits() as u64, false;
    i64 => |v| v as u64, true;
    u64 => |v| v, true;
    f64 => |v| v.to_bits(), true;
);

/// `__match_any_sync(mask, value)`: the lanes of `mask` whose `value` has the
/// same bits as this lane's (PTX `match.any.sync`, sm_70 and newer).
///
/// # Safety
/// Every lane in `mask` must make the same call, and the calling lane must
/// be in `mask` (on the GPU; the emulator wants the whole warp).
#[inline(always)]
#[track_caller]
pub unsafe fn warp_match_any<T: WarpMatchValue>(mask: u32, value: T) -> u32 {
    // SAFETY: forwarded contract.
    unsafe { T::match_any(mask, value) }
}

/// `__match_all_sync(mask, value, &pred)`: `Some(mask)` if every lane of
/// `mask` holds the same bits, else `None` (PTX `match.all.sync`).
///
/// # Safety
/// As [`warp_match_any`].
#[inline(always)]
#[track_caller]
pub unsafe fn warp_match_all<T: WarpMatchValue>(mask: u32, value: T) -> Option<u32> {
    // SAFETY: forwarded contract.
    unsafe { T::match_all(mask, value) }
}

//! `__reduce_*_sync`: a reduction over the lanes of a warp.

/// The reduction [`warp_reduce`] computes.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarpReductionOp {
    /// Sum (wrapping).
    Add,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
}

/// A value [`warp_reduce`] reduces: `u32` or `i32`.
pub trait WarpReduceValue: Sized + Copy {
    /// See [`warp_reduce`].
    ///
    /// # Safety
    /// As [`warp_reduce`].
    #[track_caller]
    unsafe fn reduce(mask: u32, value: Self, op: WarpReductionOp) -> Self;
}

macro_rules! combine_as {
    ($ty:ty) => {
        |op: WarpReductionOp, a: $ty, b: $ty| -> $ty {
            match op {
                WarpReductionOp::Add => a.wrapping_add(b),
                WarpReductionOp::Min => a.min(b),
                WarpReductionOp::Max => a.max(b),
                WarpReductionOp::And => a & b,
                WarpReductionOp::Or => a | b,
                WarpReductionOp::Xor => a ^ b,
            }
        }
    };
}

/// One `redux.sync` (sm_80 and newer): `$kind` is `u32` or `s32`.
#[cfg(all(target_arch = "nvptx64", target_feature = "sm_80"))]
macro_rules! redux {
    ($op:expr, $kind:literal, $mask:expr, $value:expr) => {{
        let out: u32;
        macro_rules! one {
                ($instruction:literal) => {
                    // SAFETY: a reduction within the warp; the lanes in `mask` taking part is the caller's contract.
                    unsafe {
                        core::arch::asm!(concat!($instruction, " {out}, {value}, {mask};"), out = out(reg32) out,
                            value = in(reg32) $value, mask = in(reg32) $mask, options(nomem, nostack))
                    }
                };
            }
        match $op {
            WarpReductionOp::Add => one!(concat!("redux.sync.add.", $kind)),
            WarpReductionOp::Min => one!(concat!("redux.sync.min.", $kind)),
            WarpReductionOp::Max => one!(concat!("redux.sync.max.", $kind)),
            WarpReductionOp::And => one!("redux.sync.and.b32"),
            WarpReductionOp::Or => one!("redux.sync.or.b32"),
            WarpReductionOp::Xor => one!("redux.sync.xor.b32"),
        }
        out
    }};
}

/// Before sm_80: every lane of `mask` reads every other lane's value with
/// `shfl.sync.idx`, one lane at a time, and combines them in lane order.
#[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_80")))]
#[inline(always)]
fn reduce_by_shuffles<T: super::WarpShuffleValue>(mask: u32, value: T, combine: impl Fn(T, T) -> T) -> T {
    use super::WarpShuffleMode;
    let mut remaining = mask;
    let mut total: Option<T> = None;
    while remaining != 0 {
        let lane = remaining.trailing_zeros();
        remaining &= remaining - 1;
        // SAFETY: every lane of `mask` runs this same loop (the caller's contract for warp_reduce).
        let (other, _) = unsafe { T::shuffle(WarpShuffleMode::Idx, mask, value, lane, 32) };
        total = Some(match total {
            Some(sum) => combine(sum, other),
            None => other,
        });
    }
    total.unwrap_or(value)
}

macro_rules! reduce_value {
    ($ty:ty, $kind:literal) => {
        impl WarpReduceValue for $ty {
            #[inline(always)]
            #[track_caller]
            unsafe fn reduce(mask: u32, value: Self, op: WarpReductionOp) -> Self {
                let combine = combine_as!($ty);
                #[cfg(all(target_arch = "nvptx64", target_feature = "sm_80"))]
                {
                    let _ = combine;
                    redux!(op, $kind, mask, value as u32) as $ty
                }
                #[cfg(all(target_arch = "nvptx64", not(target_feature = "sm_80")))]
                {
                    reduce_by_shuffles(mask, value, |a, b| combine(op, a, b))
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    let warp = crate::emulator::exchange::warp(value as u32 as u64, mask, "warp_reduce");
                    (0..32)
                        .filter(|lane| mask & warp.present_lanes() & (1 << lane) != 0)
                        .filter_map(|lane| warp.value_of(lane))
                        .map(|word| word as u32 as $ty)
                        .reduce(|a, b| combine(op, a, b))
                        .unwrap_or(value)
                }
            }
        }
    };
}

reduce_value!(u32, "u32");
reduce_value!(i32, "s32");

/// `__reduce_{add,min,max,and,or,xor}_sync(mask, value)`: `op` over the
/// values of every lane in `mask`, returned to each of them. One
/// `redux.sync` on sm_80 and newer (the kernel crate built for such an
/// architecture); before, `popc(mask)` shuffles (Rust-CUDA's needed sm_80).
///
/// # Safety
/// Every lane in `mask` must make the same call, and the calling lane must
/// be in `mask` (on the GPU; the emulator wants the whole warp).
#[inline(always)]
#[track_caller]
pub unsafe fn warp_reduce<T: WarpReduceValue>(mask: u32, value: T, op: WarpReductionOp) -> T {
    // SAFETY: forwarded contract.
    unsafe { T::reduce(mask, value, op) }
}

//! `__shfl_*_sync`: exchanging values between the lanes of a warp.

/// Which lane a shuffle reads (PTX `shfl.sync`'s mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpShuffleMode {
    /// From lane `lane - delta` (`.up`).
    Up,
    /// From lane `lane + delta` (`.down`).
    Down,
    /// From lane `index` of the segment (`.idx`).
    Idx,
    /// From lane `lane ^ lane_mask` (`.bfly`).
    Xor,
}

/// The PTX `c` operand: the segment mask (`32 - width`) in bits 8–12 and the
/// clamp lane in bits 0–4 (0 for `.up`, 31 otherwise), as nvcc builds it.
fn clamp_and_segment(mode: WarpShuffleMode, width: u32) -> u32 {
    assert!(
        width.is_power_of_two() && width <= 32,
        "warp shuffle width {width} is not a power of two of at most 32"
    );
    let segment = (32 - width) << 8;
    match mode {
        WarpShuffleMode::Up => segment,
        _ => segment | 0x1f,
    }
}

/// The source lane of a shuffle and whether it lies inside the lane's
/// segment (PTX ISA, `shfl.sync`: out of range, a lane keeps its own value).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn source_lane(mode: WarpShuffleMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let (b, clamp, segment_mask) = (b & 0x1f, c & 0x1f, (c >> 8) & 0x1f);
    let max_lane = (lane & segment_mask) | (clamp & !segment_mask);
    let min_lane = lane & segment_mask;
    let (source, in_range) = match mode {
        WarpShuffleMode::Up => {
            let source = lane.wrapping_sub(b);
            (source, source as i32 >= max_lane as i32)
        }
        WarpShuffleMode::Down => (lane + b, lane + b <= max_lane),
        WarpShuffleMode::Xor => (lane ^ b, (lane ^ b) <= max_lane),
        WarpShuffleMode::Idx => {
            let source = min_lane | (b & !segment_mask);
            (source, source <= max_lane)
        }
    };
    if in_range { (source, true) } else { (lane, false) }
}

/// One 32-bit `shfl.sync`: the value and whether the source lane was in range.
#[inline(always)]
#[track_caller]
fn shuffle_32(mode: WarpShuffleMode, mask: u32, value: u32, b: u32, width: u32) -> (u32, bool) {
    let c = clamp_and_segment(mode, width);
    #[cfg(target_arch = "nvptx64")]
    {
        let (out, in_range): (u32, u32);
        macro_rules! shfl {
            ($mode:literal) => {
                // SAFETY: a register exchange within the warp; the lanes in `mask` taking part is the caller's contract.
                unsafe {
                    core::arch::asm!(
                        concat!(
                            "{{ .reg .pred %in_range; shfl.sync.", $mode,
                            ".b32 {out}|%in_range, {value}, {b}, {c}, {mask}; selp.u32 {flag}, 1, 0, %in_range; }}"
                        ),
                        out = out(reg32) out,
                        flag = out(reg32) in_range,
                        value = in(reg32) value,
                        b = in(reg32) b,
                        c = in(reg32) c,
                        mask = in(reg32) mask,
                        options(nomem, nostack),
                    )
                }
            };
        }
        match mode {
            WarpShuffleMode::Up => shfl!("up"),
            WarpShuffleMode::Down => shfl!("down"),
            WarpShuffleMode::Idx => shfl!("idx"),
            WarpShuffleMode::Xor => shfl!("bfly"),
        }
        (out, in_range != 0)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let warp = crate::emulator::exchange::warp(value as u64, mask, "warp shuffle");
        let (source, in_range) = source_lane(mode, warp.lane, b, c);
        match warp.value_of(source) {
            Some(word) => (word as u32, in_range),
            None => (value, in_range), // a lane past a partial warp: unspecified on the GPU
        }
    }
}

/// A value a shuffle can carry: 32-bit shuffles of its bits (two for 64-bit types, four for 128-bit).
pub trait WarpShuffleValue: Sized + Copy {
    /// The shuffle of this type; see [`warp_shuffle_down`].
    ///
    /// # Safety
    /// As [`warp_shuffle_down`].
    #[track_caller]
    unsafe fn shuffle(mode: WarpShuffleMode, mask: u32, value: Self, b: u32, width: u32) -> (Self, bool);
}

macro_rules! shuffle_by_words {
    ($($ty:ty => $bits:ty, $words:literal);* $(;)?) => {$(
        impl WarpShuffleValue for $ty {
            #[inline(always)]
            #[track_caller]
            unsafe fn shuffle(mode: WarpShuffleMode, mask: u32, value: Self, b: u32, width: u32) -> (Self, bool) {
                let bits = value.to_bits_for_shuffle() as $bits;
                let mut out: $bits = 0;
                let mut in_range = false;
                for word in 0..$words {
                    let (shuffled, ok) = shuffle_32(mode, mask, (bits >> (32 * word)) as u32, b, width);
                    out |= (shuffled as $bits) << (32 * word);
                    in_range = ok;
                }
                (<$ty>::from_bits_for_shuffle(out as _), in_range)
            }
        }
    )*};
}

/// Bit views of the shuffled types.
trait ShuffleBits: Sized {
    type Bits;
    fn to_bits_for_shuffle(self) -> Self::Bits;
    fn from_bits_for_shuffle(bits: Self::Bits) -> Self;
}

macro_rules! integer_bits {
    ($($ty:ty => $bits:ty),*) => {$(
        impl ShuffleBits for $ty {
            type Bits = $bits;
            #[inline(always)]
            fn to_bits_for_shuffle(self) -> $bits { self as $bits }
            #[inline(always)]
            fn from_bits_for_shuffle(bits: $bits) -> Self { bits as $ty }
        }
    )*};
}
integer_bits!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, i128 => u128, u8 => u8, u16 => u16, u32 => u32, u64 => u64, u128 => u128);

impl ShuffleBits for f32 {
    type Bits = u32;
    #[inline(always)]
    fn to_bits_for_shuffle(self) -> u32 {
        self.to_bits()
    }
    #[inline(always)]
    fn from_bits_for_shuffle(bits: u32) -> Self {
        f32::from_bits(bits)
    }
}

impl ShuffleBits for f64 {
    type Bits = u64;
    #[inline(always)]
    fn to_bits_for_shuffle(self) -> u64 {
        self.to_bits()
    }
    #[inline(always)]
    fn from_bits_for_shuffle(bits: u64) -> Self {
        f64::from_bits(bits)
    }
}

shuffle_by_words!(
    i8 => u32, 1; u8 => u32, 1; i16 => u32, 1; u16 => u32, 1; i32 => u32, 1; u32 => u32, 1; f32 => u32, 1;
    i64 => u64, 2; u64 => u64, 2; f64 => u64, 2;
    i128 => u128, 4; u128 => u128, 4;
);

/// `__shfl_down_sync(mask, value, delta, width)`: the `value` of lane
/// `lane + delta` within the lane's `width`-lane segment, and `true`; or the
/// lane's own value and `false` where that lane is past the segment's end.
///
/// `width` must be a power of two of at most 32 (usually 32); it panics otherwise.
///
/// # Safety
/// Every lane in `mask` must make the same call (on the GPU; the emulator
/// wants the whole warp), and the calling lane must be in `mask`. The value
/// read from a lane outside `mask` is unspecified.
#[inline(always)]
#[track_caller]
pub unsafe fn warp_shuffle_down<T: WarpShuffleValue>(mask: u32, value: T, delta: u32, width: u32) -> (T, bool) {
    // SAFETY: forwarded contract.
    unsafe { T::shuffle(WarpShuffleMode::Down, mask, value, delta, width) }
}

/// `__shfl_up_sync`: the value of lane `lane - delta` within the segment, and
/// `true`; or the lane's own value and `false` below the segment's start.
///
/// # Safety
/// As [`warp_shuffle_down`].
#[inline(always)]
#[track_caller]
pub unsafe fn warp_shuffle_up<T: WarpShuffleValue>(mask: u32, value: T, delta: u32, width: u32) -> (T, bool) {
    // SAFETY: forwarded contract.
    unsafe { T::shuffle(WarpShuffleMode::Up, mask, value, delta, width) }
}

/// `__shfl_sync`: the value of lane `idx` of the lane's segment (a broadcast
/// when every lane passes the same `idx`), and `true`.
///
/// # Safety
/// As [`warp_shuffle_down`].
#[inline(always)]
#[track_caller]
pub unsafe fn warp_shuffle_idx<T: WarpShuffleValue>(mask: u32, value: T, idx: u32, width: u32) -> (T, bool) {
    // SAFETY: forwarded contract.
    unsafe { T::shuffle(WarpShuffleMode::Idx, mask, value, idx, width) }
}

/// `__shfl_xor_sync`: the value of lane `lane ^ lane_mask` (the butterfly of
/// reductions), and `true`; `false` and the own value where that lane is
/// past the segment.
///
/// # Safety
/// As [`warp_shuffle_down`].
#[inline(always)]
#[track_caller]
pub unsafe fn warp_shuffle_xor<T: WarpShuffleValue>(mask: u32, value: T, lane_mask: u32, width: u32) -> (T, bool) {
    // SAFETY: forwarded contract.
    unsafe { T::shuffle(WarpShuffleMode::Xor, mask, value, lane_mask, width) }
}

#[cfg(test)]
mod tests {
    use super::{WarpShuffleMode, clamp_and_segment, source_lane};

    /// The PTX rule against what each mode means in CUDA C's documentation.
    #[test]
    fn source_lanes_follow_the_segments() {
        for width in [1u32, 2, 4, 8, 16, 32] {
            for lane in 0..32u32 {
                let start = lane / width * width;
                for b in 0..32u32 {
                    let down = source_lane(
                        WarpShuffleMode::Down,
                        lane,
                        b,
                        clamp_and_segment(WarpShuffleMode::Down, width),
                    );
                    let expected = if lane + b < start + width {
                        (lane + b, true)
                    } else {
                        (lane, false)
                    };
                    assert_eq!(down, expected, "down width {width} lane {lane} delta {b}");
                    let up = source_lane(
                        WarpShuffleMode::Up,
                        lane,
                        b,
                        clamp_and_segment(WarpShuffleMode::Up, width),
                    );
                    let expected = if lane >= start + b {
                        (lane - b, true)
                    } else {
                        (lane, false)
                    };
                    assert_eq!(up, expected, "up width {width} lane {lane} delta {b}");
                    let idx = source_lane(
                        WarpShuffleMode::Idx,
                        lane,
                        b,
                        clamp_and_segment(WarpShuffleMode::Idx, width),
                    );
                    assert_eq!(
                        idx,
                        (start + b % width, true),
                        "idx width {width} lane {lane} index {b}"
                    );
                    let xor = source_lane(
                        WarpShuffleMode::Xor,
                        lane,
                        b,
                        clamp_and_segment(WarpShuffleMode::Xor, width),
                    );
                    let expected = if (lane ^ b) < start + width {
                        (lane ^ b, true)
                    } else {
                        (lane, false)
                    };
                    assert_eq!(xor, expected, "xor width {width} lane {lane} mask {b}");
                }
            }
        }
    }
}

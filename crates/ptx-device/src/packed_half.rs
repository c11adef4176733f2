//! Two IEEE binary16 ("half") numbers packed in 32 bits (CUDA C's `__half2`),
//! and the packed fused multiply-add the GPU executes on both at once.

/// Packs two binary16 bit patterns, `low` in bits 0–15 and `high` in 16–31
/// (CUDA C's `__halves2half2(low, high)`): integer shift and or, or a
/// `mov.b32 {lo, hi}`.
#[inline(always)]
pub const fn pack_f16x2(low: u16, high: u16) -> u32 {
    (high as u32) << 16 | low as u32
}

/// `fma.rn.f16x2` (CUDA C `__hfma2`): `a · b + c` on each of the two halves,
/// each rounded once to binary16 (round to nearest even). Operands and result
/// are packed as [`pack_f16x2`] packs them.
///
/// In the emulator the same correctly rounded result is computed in software
/// (exact product, exact sum of two `f64`s, one rounding to binary16).
#[inline(always)]
pub fn fma_f16x2(a: u32, b: u32, c: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let out: u32;
        // SAFETY: a register-to-register arithmetic instruction; it touches no memory.
        unsafe {
            core::arch::asm!(
                "fma.rn.f16x2 {out}, {a}, {b}, {c};",
                out = out(reg32) out,
                a = in(reg32) a,
                b = in(reg32) b,
                c = in(reg32) c,
                options(pure, nomem, nostack),
            );
        }
        out
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let half = |word: u32, lane: u32| (word >> (16 * lane)) as u16;
        let lane = |l| emulated::fma_f16(half(a, l), half(b, l), half(c, l));
        pack_f16x2(lane(0), lane(1))
    }
}

#[cfg(not(target_arch = "nvptx64"))]
mod emulated {
    use crate::f16_bits_to_f32;

    /// `a · b + c` in binary16, rounded once.
    ///
    /// The product of two binary16 numbers has at most 22 significant bits,
    /// so it is exact in `f64`; the sum `p + c` is split exactly into
    /// `s + e` (Knuth's two-sum), and `s + e` is rounded to binary16: `s`
    /// decides it unless `s` lies exactly halfway between two binary16
    /// numbers, where the sign of `e` breaks the tie.
    pub fn fma_f16(a: u16, b: u16, c: u16) -> u16 {
        let (a, b, c) = (
            f16_bits_to_f32(a) as f64,
            f16_bits_to_f32(b) as f64,
            f16_bits_to_f32(c) as f64,
        );
        let p = a * b;
        let s = p + c;
        if !s.is_finite() {
            return round_to_f16(s, 0.0);
        }
        let bp = s - c;
        let e = (p - bp) + (c - (s - bp));
        round_to_f16(s, e)
    }

    /// The binary16 nearest to `s + e` (ties to even), where `|e|` is at
    /// most half an `f64` ulp of `s`.
    fn round_to_f16(s: f64, e: f64) -> u16 {
        if s.is_nan() {
            return 0x7e00;
        }
        let sign = if s.is_sign_negative() { 0x8000u16 } else { 0 };
        let (magnitude, e) = (s.abs(), if s.is_sign_negative() { -e } else { e });
        if magnitude.is_infinite() {
            return sign | 0x7c00;
        }
        // The binary16 spacing at this magnitude: 2^(exponent − 10), 2^-24 among subnormals.
        let exponent = if magnitude >= MIN_NORMAL {
            binade(magnitude)
        } else {
            -14
        };
        let spacing = 2f64.powi(exponent - 10);
        let units = magnitude / spacing; // exact: a power-of-two scaling
        let floor = units.floor();
        let remainder = units - floor;
        let up = remainder > 0.5 || (remainder == 0.5 && (e > 0.0 || (e == 0.0 && floor % 2.0 == 1.0)));
        let rounded = (floor + if up { 1.0 } else { 0.0 }) * spacing;
        if rounded > 65_504.0 {
            return sign | 0x7c00;
        }
        if rounded < MIN_NORMAL {
            return sign | (rounded / MIN_SUBNORMAL) as u16;
        }
        let exponent = binade(rounded);
        let mantissa = (rounded / 2f64.powi(exponent - 10)) as u16 - 0x400;
        sign | ((exponent + 15) as u16) << 10 | mantissa
    }

    /// The smallest normal and subnormal binary16 numbers, 2^-14 and 2^-24.
    const MIN_NORMAL: f64 = 1.0 / 16_384.0;
    const MIN_SUBNORMAL: f64 = 1.0 / 16_777_216.0;

    /// floor(log2 v) for a positive normal `f64`, read from its exponent bits.
    fn binade(v: f64) -> i32 {
        ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023
    }
}

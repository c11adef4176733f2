//! The cube root: CUDA C's `cbrtf` counterpart (Best Practices Guide §5.1.4:
//! call `cbrt(x)` rather than `pow(x, 1/3)`), in FMAs only.
//!
//! An estimate of x^(−1/3) from the bits of x (the exponent divided by −3
//! with integer arithmetic, within 13%), four Newton steps
//! r ← r·(4 − x·r³)/3 on it (each squares the relative error, no division),
//! then x^(1/3) = x·r² and one Newton step on that with the residual formed
//! by FMAs. Subnormal x are scaled by 2^24 first.
//!
//! Plain `f32` arithmetic, so the GPU and the emulator compute it bit for bit
//! alike. Error bound, measured by this module's tests on every 131st
//! positive `f32` against the C library's `f64` cube root: [`CBRT_MAX_ULP`].

use crate::fma;

/// The largest error of [`cbrt`] the tests found, in ulp, rounded up.
pub const CBRT_MAX_ULP: f64 = 1.0;

/// 4/3 · (127 · 2^23) less a correction: the bits of x^(−1/3) ≈ this − bits(x)/3.
const INVERSE_CUBE_ROOT_MAGIC: u32 = 0x54a2_fa8c;
const THIRD: f32 = 1.0 / 3.0;

/// ∛x for every `f32`, within [`CBRT_MAX_ULP`] ulp; ±0, ±∞ and NaN return themselves.
#[inline(always)]
pub fn cbrt(x: f32) -> f32 {
    let magnitude = f32::from_bits(x.to_bits() & 0x7fff_ffff);
    // NaN fails both comparisons and returns itself below.
    if !(magnitude > 0.0 && magnitude < f32::INFINITY) {
        return x + x;
    }
    let subnormal = magnitude < f32::MIN_POSITIVE;
    // 2^24 scales a subnormal into the normal range; its cube root 2^8 is undone at the end.
    let a = if subnormal { magnitude * 16_777_216.0 } else { magnitude };
    let mut r = f32::from_bits(INVERSE_CUBE_ROOT_MAGIC - a.to_bits() / 3);
    for _ in 0..4 {
        let r3 = r * r * r;
        r = r * fma(-a, r3, 4.0) * THIRD;
    }
    let y = a * r * r;
    // y ← y − (y³ − a)/(3y²) ≈ y − (y³ − a)·r²/3, y³ − a formed exactly enough by FMAs.
    let y2 = y * y;
    let residual = fma(y2, y, -a) + fma(y, y, -y2) * y;
    let y = fma(-residual, r * r * THIRD, y);
    let y = if subnormal { y * (1.0 / 256.0) } else { y };
    if x < 0.0 { -y } else { y }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ulp_error::ulp_error;

    #[test]
    fn sample_within_the_bound() {
        let mut worst = 0f64;
        for bits in (1u32..0x7f80_0000).step_by(131) {
            let x = f32::from_bits(bits);
            let e = ulp_error(cbrt(x), (x as f64).cbrt());
            assert!(e <= CBRT_MAX_ULP, "cbrt({x:e}) = {:e}: {e} ulp", cbrt(x));
            assert_eq!(cbrt(-x), -cbrt(x));
            worst = worst.max(e);
        }
        println!("worst: cbrt {worst:.3} ulp");
        assert!(worst > 0.3, "no rounded result reached: {worst}");
    }

    #[test]
    fn special_values() {
        assert_eq!(cbrt(27.0), 3.0);
        assert_eq!(cbrt(-8.0), -2.0);
        assert_eq!(cbrt(0.0).to_bits(), 0f32.to_bits());
        assert_eq!(cbrt(-0.0).to_bits(), (-0f32).to_bits());
        assert_eq!(cbrt(f32::INFINITY), f32::INFINITY);
        assert!(cbrt(f32::NAN).is_nan());
    }
}

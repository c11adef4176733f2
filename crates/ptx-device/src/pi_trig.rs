//! sin(πx) and cos(πx): CUDA C's `sinpif` and `cospif` counterparts (Best
//! Practices Guide §5.1.4: call `sinpi(x)` rather than `sin(π·x)`).
//!
//! Why they are cheaper and more accurate than the sine of a product: the
//! argument reduction is exact and short. x = n/2 + r with n = round(2x) and
//! |r| ≤ 1/4 needs one rounding to an integer and one FMA, both exact, where
//! sin(π·x) first rounds π·x (an error of up to half an ulp of the product,
//! which near a zero of the sine is many ulp of the result) and then reduces
//! by π/2 with three FMAs (Cody–Waite) or a hundred instructions (Payne–Hanek).
//! The polynomials are Taylor's in r (truncation below 0.05 ulp for |r| ≤ 1/4),
//! π split in two `f32`s for the leading term.
//!
//! Plain `f32` arithmetic with FMAs, so the GPU and the emulator compute it
//! bit for bit alike. Error bound, measured by this module's tests on every
//! 257th `f32` below 2^24 against the C library's `f64` sine: [`SINPI_MAX_ULP`].

use crate::fma;

/// The largest error of [`sinpi`] and [`cospi`] the tests found, in ulp, rounded up.
pub const SINPI_MAX_ULP: f64 = 1.0;

/// 1.5 · 2^23: adding and subtracting it rounds an `f32` below 2^22 in
/// magnitude to the nearest integer (ties to even), and the low bits of the
/// sum are that integer.
const ROUND_TO_INTEGER: f32 = 12_582_912.0;
/// Below 2^21 in magnitude 2x is below 2^22, where the shift rounds it.
const SHIFT_LIMIT: f32 = 2_097_152.0;
/// Every `f32` at or above 2^24 in magnitude is an even integer.
const EVEN_FROM: f32 = 16_777_216.0;

/// π = PI_HI + PI_LO (`f32`s, the sum within 3·10^-15 of π).
const PI_HI: f32 = core::f32::consts::PI;
const PI_LO: f32 = -8.742_278e-8;
/// sin(πr) = r·(π + r²·(S3 + r²·(S5 + r²·(S7 + r²·S9)))) (Taylor).
const S3: f32 = -5.167_712_7;
const S5: f32 = 2.550_164;
const S7: f32 = -0.599_264_5;
const S9: f32 = 0.082_145_885;
/// cos(πr) = 1 + r²·(C2 + r²·(C4 + … + r²·C10)) (Taylor).
const C2: f32 = -4.934_802;
const C4: f32 = 4.058_712;
const C6: f32 = -1.335_262_8;
const C8: f32 = 0.235_330_63;
const C10: f32 = -0.025_806_89;

/// x = n/2 + r, exact: (a word whose low two bits are n mod 4, r), |r| ≤ 1/4.
#[inline(always)]
fn reduce_halves(x: f32) -> (u32, f32) {
    let magnitude = f32::from_bits(x.to_bits() & 0x7fff_ffff);
    // NaN fails the comparisons and takes the shift, which keeps it NaN.
    if magnitude >= SHIFT_LIMIT {
        if magnitude == f32::INFINITY {
            return (0, f32::NAN);
        }
        if magnitude >= EVEN_FROM {
            return (0, 0.0 * x);
        }
        // x is a multiple of 1/4 here, so 4x is an integer below 2^26.
        let quarters = (4.0 * x) as i32;
        let n = (quarters + 1) >> 1;
        return (n as u32, fma(n as f32, -0.5, x));
    }
    let shifted = 2.0 * x + ROUND_TO_INTEGER;
    let n = shifted - ROUND_TO_INTEGER;
    (shifted.to_bits(), fma(n, -0.5, x))
}

/// sin(π(n/2 + r)) for |r| ≤ 1/4 from the low two bits of `quarter`.
#[inline(always)]
fn sine_pi_at(quarter: u32, r: f32) -> f32 {
    let s = r * r;
    let value = if quarter & 1 == 0 {
        let p = fma(fma(fma(S9, s, S7), s, S5), s, S3);
        fma(r, PI_HI, r * fma(p, s, PI_LO))
    } else {
        let p = fma(fma(fma(fma(C10, s, C8), s, C6), s, C4), s, C2);
        fma(s, p, 1.0)
    };
    if quarter & 2 == 0 { value } else { -value }
}

/// sin(πx) for every `f32`, within [`SINPI_MAX_ULP`] ulp; NaN for ±∞ and NaN.
/// About a dozen FP32 instructions, one branch on the argument's size (taken only from 2^21 on).
#[inline(always)]
pub fn sinpi(x: f32) -> f32 {
    let (quarter, r) = reduce_halves(x);
    sine_pi_at(quarter, r)
}

/// cos(πx) for every `f32`, within [`SINPI_MAX_ULP`] ulp; NaN for ±∞ and NaN.
#[inline(always)]
pub fn cospi(x: f32) -> f32 {
    let (quarter, r) = reduce_halves(x);
    sine_pi_at(quarter.wrapping_add(1), r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ulp_error::ulp_error;

    /// sin(πx) or cos(πx) in `f64`, from x = n + r (|r| ≤ 1/2, exact) and
    /// sin(π·r)'s sign flip for odd n; the cosine as sin(π(1/2 − |r|)), so
    /// that exact zeros stay zeros (π·x in `f64` would lose them).
    fn exact(x: f32, cosine: bool) -> f64 {
        let x = x as f64;
        let n = x.round();
        let r = x - n;
        let sign = if n % 2.0 == 0.0 { 1.0 } else { -1.0 };
        let angle = if cosine { 0.5 - r.abs() } else { r };
        sign * (core::f64::consts::PI * angle).sin()
    }

    #[test]
    fn sample_within_the_bound() {
        let (mut worst_sin, mut worst_cos) = (0f64, 0f64);
        for bits in (0u32..0x4b00_0000).step_by(257) {
            for x in [f32::from_bits(bits), -f32::from_bits(bits)] {
                let (s, c) = (exact(x, false), exact(x, true));
                // Exact zeros have no ulp to measure in: they must come out zero.
                let es = if s == 0.0 {
                    sinpi(x).abs() as f64 * 1e30
                } else {
                    ulp_error(sinpi(x), s)
                };
                let ec = if c == 0.0 {
                    cospi(x).abs() as f64 * 1e30
                } else {
                    ulp_error(cospi(x), c)
                };
                assert!(es <= SINPI_MAX_ULP, "sinpi({x:e}) = {:e}: {es} ulp", sinpi(x));
                assert!(ec <= SINPI_MAX_ULP, "cospi({x:e}) = {:e}: {ec} ulp", cospi(x));
                worst_sin = worst_sin.max(es);
                worst_cos = worst_cos.max(ec);
            }
        }
        println!("worst: sinpi {worst_sin:.3} cospi {worst_cos:.3} ulp");
        assert!(
            worst_sin > 0.3 && worst_cos > 0.3,
            "no rounded result reached: {worst_sin} {worst_cos}"
        );
    }

    #[test]
    fn special_values() {
        assert_eq!(sinpi(0.5), 1.0);
        assert_eq!(sinpi(-1.5), 1.0);
        assert_eq!(sinpi(3.0), 0.0);
        assert_eq!(cospi(1.0), -1.0);
        assert_eq!(cospi(0.5), 0.0);
        assert_eq!(sinpi(1e30), 0.0);
        assert_eq!(cospi(1e30), 1.0);
        assert_eq!(cospi(8_388_609.0), -1.0);
        assert!(ulp_error(sinpi(2_097_152.0 + 0.25), core::f64::consts::FRAC_1_SQRT_2) <= SINPI_MAX_ULP);
        assert_eq!(sinpi(5_000_001.5), -1.0);
        assert!(sinpi(f32::INFINITY).is_nan() && cospi(f32::NEG_INFINITY).is_nan() && sinpi(f32::NAN).is_nan());
    }
}

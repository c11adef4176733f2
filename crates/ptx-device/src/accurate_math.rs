//! The device layer's sine, and the tighter of its two exponentials, written
//! in Rust with FMAs.
//!
//! Rust's `core` has no `sin` or `exp` for a `no_std` GPU target (they live
//! in `std`, over the C library), so this crate brings its own: the
//! counterparts of CUDA C's `sinf` and `expf` for the Best Practices Guide
//! §5.1.4 comparison with the fast approximations ([`crate::sin_approx`],
//! [`crate::exp_fast`]).
//!
//! **Which to call.** [`sin`] is the sine (tighter than CUDA's `sinf` bound
//! and faster than it at every argument). [`exp`](fn@crate::exp) is the exponential
//! (CUDA's `expf` algorithm, 2 ulp, one `MUFU.EX2`); [`exp_accurate`] here is
//! its tighter variant: 1.05 ulp for about three times the instructions, and
//! bit-identical in the emulator; the `accuracy` experiment's report shows
//! both beside `expf`.
//!
//! Both functions here are plain `f32` arithmetic with FMAs (plus integer
//! and one `f64` multiply in the sine's large-argument path), so the GPU and
//! the CPU emulator compute them bit for bit alike.
//!
//! **Error bounds**, both checked exhaustively on the host against the C
//! library's `f64` `sin` and `exp` (which are accurate to well under an `f64`
//! ulp, so to about 10^-9 of an `f32` ulp) over every finite `f32` input, by
//! the ignored test `exhaustive_error_bounds` of this module
//! (`cargo test --release --lib -- --ignored` in `crates/ptx-device`; a few minutes):
//!
//! * [`sin`]: at most [`SIN_MAX_ULP`] ulp for every finite x
//!   (Cody–Waite reduction up to 2^17, Payne–Hanek beyond).
//! * [`exp_accurate`]: at most [`EXP_ACCURATE_MAX_ULP`] ulp where the result
//!   is a normal number; where it is subnormal (x below about −87.3) at most
//!   1 subnormal ulp (2^-149), the unavoidable cost of one extra rounding.
//!
//! The polynomials are the Cephes library's `sinf`/`cosf`/`expf` minimax
//! coefficients (written as the shortest decimals of their `f32` values),
//! evaluated with FMAs.

use crate::angle_reduction::{CODY_WAITE_LIMIT, cody_waite, payne_hanek};
use crate::fma;

/// The largest error of [`sin`], in ulp of the exact result, over
/// every finite `f32`: the exhaustive test found at most 1.552 ulp,
/// rounded up.
pub const SIN_MAX_ULP: f64 = 1.6;

/// The largest error of [`exp_accurate`] in ulp where e^x is a normal `f32`:
/// the exhaustive test found 1.013 ulp, rounded up.
pub const EXP_ACCURATE_MAX_ULP: f64 = 1.05;

/// sin r ≈ r + r³ · (S1 + S2 r² + S3 r⁴) on [−π/4, π/4] (Cephes `sinf`).
const SIN_S1: f32 = -1.666_665_5e-1;
const SIN_S2: f32 = 8.332_161e-3;
const SIN_S3: f32 = -1.951_529_6e-4;

/// cos r ≈ 1 − r²/2 + r⁴ · (C1 + C2 r² + C3 r⁴) on [−π/4, π/4] (Cephes `cosf`).
const COS_C1: f32 = 4.166_664_6e-2;
const COS_C2: f32 = -1.388_731_6e-3;
const COS_C3: f32 = 2.443_315_7e-5;

/// sin x (radians) for every `f32`: at most [`SIN_MAX_ULP`] ulp from the
/// exact value for every finite x; NaN for an infinite or NaN x, and ±0 for ±0.
/// The sine users should call (CUDA C's `sinf` counterpart, faster than it).
///
/// One compare decides the path. Up to [`CODY_WAITE_LIMIT`] (the fast path):
/// the Cody–Waite reduction to x = q·π/2 + r (one FMA rounds x·2/π to an
/// integer with the 1.5·2^23 shift, an add recovers q, three FMAs subtract
/// q·π/2), then one polynomial whose coefficients are chosen by q's parity
/// (the sine's for even q, the cosine's for odd q), and q's second bit flips
/// the sign. In SASS for sm_90 (ptxas 13.5) that is 22 instructions: the
/// compare, branch and reconvergence (4), the reduction (6), the polynomial
/// with its selects (12); all on the FP32 and integer pipes, no `f64`, no
/// conversion (CUDA 13.5's `sinf` takes about 24 here, rounding q with
/// `F2I`/`I2FP`, and loads some of its coefficients per call). Beyond the limit, and for ±∞ (NaN): the
/// Payne–Hanek reduction (`angle_reduction::payne_hanek`), then the same polynomial.
///
/// Plain `f32` arithmetic with FMAs (the large-argument path adds integer
/// multiplies and one `f64` multiply), so the GPU and the CPU emulator
/// compute it bit for bit alike.
#[inline(always)]
pub fn sin(x: f32) -> f32 {
    let (quadrant, r) = reduce(x);
    sine_at(quadrant, r)
}

/// cos x (radians) for every `f32`: sin x's reduction and polynomials one
/// quadrant on (cos x = sin(x + π/2), so q + 1 with the same r), the same
/// bound ([`SIN_MAX_ULP`], checked on a sample by this module's tests);
/// NaN for an infinite or NaN x.
#[inline(always)]
pub fn cos(x: f32) -> f32 {
    let (quadrant, r) = reduce(x);
    sine_at(quadrant.wrapping_add(1), r)
}

/// (sin x, cos x) from one reduction: CUDA C's `sincosf` counterpart (Best
/// Practices Guide §5.1.4 recommends it over separate `sinf` and `cosf`).
/// Bit for bit [`sin`] and [`cos`]; what it saves is the second reduction,
/// which a compiler may also find by itself when both calls take the same x.
#[inline(always)]
pub fn sincos(x: f32) -> (f32, f32) {
    let (quadrant, r) = reduce(x);
    (sine_at(quadrant, r), sine_at(quadrant.wrapping_add(1), r))
}

/// x = q · π/2 + r: one compare picks the Cody–Waite or the Payne–Hanek path
/// (see [`sin`]); ±∞ gives r = NaN.
#[inline(always)]
fn reduce(x: f32) -> (u32, f32) {
    let magnitude = f32::from_bits(x.to_bits() & 0x7fff_ffff);
    // NaN fails the comparison and takes the fast path, which keeps it NaN.
    if magnitude > CODY_WAITE_LIMIT {
        if magnitude == f32::INFINITY {
            (0, f32::NAN)
        } else {
            payne_hanek(x)
        }
    } else {
        cody_waite(x)
    }
}

/// sin(q · π/2 + r) for |r| ≲ π/4, from the low two bits of `quadrant`.
#[inline(always)]
fn sine_at(quadrant: u32, r: f32) -> f32 {
    let s = r * r;
    let odd = quadrant & 1 != 0;
    // sin r = r + r·s·(S1 + s·(S2 + s·S3)); cos r = 1 + s·(−1/2 + s·(C1 + s·(C2 + s·C3))):
    // one Horner chain whose coefficients (and base r or 1) follow q's parity.
    let leading = if odd { fma(COS_C3, s, COS_C2) } else { SIN_S3 };
    let p = fma(leading, s, if odd { COS_C1 } else { SIN_S2 });
    let p = fma(p, s, if odd { -0.5 } else { SIN_S1 });
    let base = if odd { 1.0 } else { r };
    // base · s + 0 rather than base · s: for r = −0 it is +0, so that p · it
    // (p < 0) is −0 and the sum keeps the sign of the zero.
    let value = fma(p, fma(base, s, 0.0), base);
    if quadrant & 2 == 0 { value } else { -value }
}

/// log2 e rounded to `f32`, and ln 2 split as LN2_HI + LN2_LO (`f32`s;
/// their sum is ln 2 within 9·10^-17).
const LOG2_E: f32 = core::f32::consts::LOG2_E;
const LN2_HI: f32 = f32::from_bits(0x3f31_7218);
const LN2_LO: f32 = f32::from_bits(0xb102_e308);

/// 1.5 · 2^23, for rounding to an integer (see `angle_reduction`).
const ROUND_TO_INTEGER: f32 = 12_582_912.0;

/// e^x overflows past this x (ln of the largest `f32`, rounded up) ...
const EXP_OVERFLOW_ABOVE: f32 = 88.722_84;
/// ... and is below half the smallest subnormal before this one.
const EXP_UNDERFLOW_BELOW: f32 = -103.972_08;

/// e^r ≈ 1 + r + r² · (P0 + P1 r + … + P5 r⁵) on [−ln2/2, ln2/2] (Cephes `expf`).
const EXP_P0: f32 = 5.0e-1;
const EXP_P1: f32 = 1.666_666_6e-1;
const EXP_P2: f32 = 4.166_579_6e-2;
const EXP_P3: f32 = 8.333_452e-3;
const EXP_P4: f32 = 1.398_199_9e-3;
const EXP_P5: f32 = 1.987_569_1e-4;

/// 2^k as an `f32`, for k in [−126, 127].
#[inline(always)]
fn power_of_two(k: i32) -> f32 {
    f32::from_bits(((k + 127) as u32) << 23)
}

/// e^x (PTX: about fifteen `fma.rn.f32`, `mul.f32` and integer
/// instructions, no special-function unit; bit-identical in the emulator),
/// accurate to [`EXP_ACCURATE_MAX_ULP`] ulp where the result is
/// normal (to one subnormal ulp where it is subnormal); +∞ above about
/// 88.72, +0 below about −103.97, NaN for NaN.
///
/// x = k · ln 2 + r with k = round(x · log2 e) and r by a two-step
/// Cody–Waite subtraction (the first step exact); e^x = 2^k · e^r, the
/// power of two applied as two exact factors so that no k overflows the
/// exponent field.
#[inline(always)]
pub fn exp_accurate(x: f32) -> f32 {
    if x > EXP_OVERFLOW_ABOVE {
        return f32::INFINITY;
    }
    if x < EXP_UNDERFLOW_BELOW {
        return 0.0;
    }
    if x.is_nan() {
        return x;
    }
    let shifted = fma(x, LOG2_E, ROUND_TO_INTEGER);
    let k = shifted - ROUND_TO_INTEGER;
    let r = fma(k, -LN2_HI, x);
    let r = fma(k, -LN2_LO, r);
    let p = fma(
        fma(fma(fma(fma(EXP_P5, r, EXP_P4), r, EXP_P3), r, EXP_P2), r, EXP_P1),
        r,
        EXP_P0,
    );
    let e_r = 1.0 + fma(p, r * r, r);
    // `shifted` is 1.5 · 2^23 + k: its bits minus those of 1.5 · 2^23 are k.
    let k = shifted.to_bits() as i32 - ROUND_TO_INTEGER.to_bits() as i32;
    let half = k >> 1;
    e_r * power_of_two(half) * power_of_two(k - half)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ulp_error::ulp_error;

    #[test]
    fn sine_of_special_values() {
        assert_eq!(sin(0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(sin(-0.0).to_bits(), (-0.0f32).to_bits());
        assert!(sin(f32::INFINITY).is_nan());
        assert!(sin(f32::NEG_INFINITY).is_nan());
        assert!(sin(f32::NAN).is_nan());
        assert_eq!(sin(1e-30), 1e-30);
    }

    /// cos and sincos on a sample of arguments of every size: within sin's bound, and sincos is sin and cos.
    #[test]
    fn cosine_and_sincos_within_the_sine_bound() {
        let mut worst = 0f64;
        for bits in (0u32..0x7f80_0000).step_by(4099) {
            for x in [f32::from_bits(bits), -f32::from_bits(bits)] {
                let e = ulp_error(cos(x), (x as f64).cos());
                assert!(e <= SIN_MAX_ULP, "cos({x:e}): {e} ulp");
                worst = worst.max(e);
                let (s, c) = sincos(x);
                assert_eq!(
                    (s.to_bits(), c.to_bits()),
                    (sin(x).to_bits(), cos(x).to_bits()),
                    "sincos({x:e})"
                );
            }
        }
        println!("worst: cos {worst:.3} ulp");
        assert!(worst > 0.3, "the sample reached no rounded result ({worst})");
        assert_eq!(cos(0.0), 1.0);
        assert!(cos(f32::INFINITY).is_nan());
    }

    #[test]
    fn exp_of_special_values() {
        assert_eq!(exp_accurate(0.0), 1.0);
        assert_eq!(exp_accurate(100.0), f32::INFINITY);
        assert_eq!(exp_accurate(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_accurate(-200.0), 0.0);
        assert_eq!(exp_accurate(f32::NEG_INFINITY), 0.0);
        assert!(exp_accurate(f32::NAN).is_nan());
        let x = 88.72f32;
        assert!(ulp_error(exp_accurate(x), (x as f64).exp()) <= EXP_ACCURATE_MAX_ULP);
    }

    /// Every finite `f32` (both signs): the bounds stated in the module
    /// documentation. Minutes in release mode; run it after changing either function.
    #[test]
    #[ignore = "exhaustive over 2^32 inputs: run with --release -- --ignored"]
    fn exhaustive_error_bounds() {
        use std::sync::atomic::{AtomicU64, Ordering};
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get()) as u32;
        let worst_sin = AtomicU64::new(0);
        let worst_exp = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for worker in 0..workers {
                let (worst_sin, worst_exp) = (&worst_sin, &worst_exp);
                scope.spawn(move || {
                    let (mut sin_max, mut exp_max) = (0f64, 0f64);
                    let mut bits = worker;
                    loop {
                        let x = f32::from_bits(bits);
                        if x.is_finite() {
                            let e = ulp_error(sin(x), (x as f64).sin());
                            assert!(e <= SIN_MAX_ULP, "sin({x:e}) [{bits:#010x}]: {e} ulp");
                            sin_max = sin_max.max(e);
                            let exact = (x as f64).exp();
                            if exact >= f32::MIN_POSITIVE as f64 && exact <= f32::MAX as f64 {
                                let e = ulp_error(exp_accurate(x), exact);
                                assert!(e <= EXP_ACCURATE_MAX_ULP, "exp({x:e}) [{bits:#010x}]: {e} ulp");
                                exp_max = exp_max.max(e);
                            } else if exact < f32::MIN_POSITIVE as f64 {
                                let error = (exp_accurate(x) as f64 - exact).abs();
                                assert!(error <= 2f64.powi(-149), "exp({x:e}): error {error:e}");
                            }
                        }
                        match bits.checked_add(workers) {
                            Some(next) => bits = next,
                            None => break,
                        }
                    }
                    worst_sin.fetch_max(sin_max.to_bits(), Ordering::Relaxed);
                    worst_exp.fetch_max(exp_max.to_bits(), Ordering::Relaxed);
                });
            }
        });
        let sin_max = f64::from_bits(worst_sin.into_inner());
        let exp_max = f64::from_bits(worst_exp.into_inner());
        println!("worst errors: sin {sin_max:.4} ulp, exp {exp_max:.4} ulp");
    }
}

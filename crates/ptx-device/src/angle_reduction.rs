//! Range reduction for the accurate sine: x = q · π/2 + r with |r| ≲ π/4.
//!
//! Two paths, as every accurate single-precision sine has (OpenCL Programming
//! Guide §3.1.1.1 describes CUDA's "fast path" and "slow path"):
//!
//! * [`cody_waite`] for |x| ≤ [`CODY_WAITE_LIMIT`]: q is x · 2/π rounded,
//!   and r = x − q·C1 − q·C2 − q·C3 with π/2 ≈ C1 + C2 + C3 split into
//!   three `f32`s, each step one FMA. A few instructions.
//! * [`payne_hanek`] beyond: x · 2/π computed exactly enough in fixed point,
//!   from the 24-bit significand of x and a 96-bit window of the bits of 2/π
//!   chosen by x's exponent (integer multiplies), so that even the x that
//!   fall closest to a multiple of π/2 keep their leading bits of r.
//!   About a hundred instructions and one table read, no local memory.
//!
//! Both return q modulo 4 and r as an `f32` (the Payne–Hanek path forms r
//! in `f64` from the 64-bit fraction and rounds it once).

use crate::fma;

/// Largest |x| reduced by the Cody–Waite path of [`sin`](crate::sin) (2^17). Below it the rounded
/// quotient |q| < 2^17 keeps every step exact or nearly so: x − q·C1 is
/// exact (both are multiples of 2^-23 and the difference is below 1), and
/// q·(C1 + C2 + C3 − π/2) stays below 2^-56.
pub const CODY_WAITE_LIMIT: f32 = 131_072.0;

/// π/2 rounded down to `f32`, the remainder rounded down, then the last
/// remainder rounded: C1 + C2 + C3 is π/2 within 9.6·10^-23 (2^-73.2). All
/// three are positive, so that for q = 0 each step adds −0 and keeps the
/// sign of a zero x (sin(−0) = −0).
const PIO2_C1: f32 = f32::from_bits(0x3fc9_0fda);
const PIO2_C2: f32 = f32::from_bits(0x33a2_2168);
const PIO2_C3: f32 = f32::from_bits(0x27c2_34c5);

/// 1.5 · 2^23: adding and subtracting it rounds an `f32` below 2^22 in
/// magnitude to the nearest integer (ties to even).
const ROUND_TO_INTEGER: f32 = 12_582_912.0;

/// The bits of 2/π after the binary point, 32 to a word, behind one word of
/// zeros so that a 96-bit window may start up to 31 bits before the point.
/// The largest finite `f32` reads words 4 to 7.
static TWO_OVER_PI_BITS: [u32; 8] = [
    0x0000_0000,
    0xA2F9_836E,
    0x4E44_1529,
    0xFC27_57D1,
    0xF534_DDC0,
    0xDB62_9599,
    0x3C43_9041,
    0xFE51_63AB,
];

/// π/2 · 2^-64: turns the 64-bit fixed-point fraction into radians.
const PIO2_OVER_2_POW_64: f64 = core::f64::consts::FRAC_PI_2 / 18_446_744_073_709_551_616.0;

/// x = q · π/2 + r for |x| ≤ [`CODY_WAITE_LIMIT`]: returns (a word whose
/// two low bits are q mod 4, r), |r| ≤ 0.79. (The caller tests the two bits
/// it needs; masking them here would cost an instruction.)
#[inline(always)]
pub fn cody_waite(x: f32) -> (u32, f32) {
    let shifted = fma(x, core::f32::consts::FRAC_2_PI, ROUND_TO_INTEGER);
    let q = shifted - ROUND_TO_INTEGER;
    let r = fma(q, -PIO2_C1, x);
    let r = fma(q, -PIO2_C2, r);
    let r = fma(q, -PIO2_C3, r);
    // `shifted` is 1.5 · 2^23 + q, whose significand's low bits are q's (two's complement).
    (shifted.to_bits(), r)
}

/// x = q · π/2 + r for any finite x with |x| ≥ 2^-8 (the accurate sine calls it
/// past [`CODY_WAITE_LIMIT`]): returns (q mod 4, r), |r| ≤ π/4.
///
/// With x = m · 2^e (m the 24-bit integer significand), the bits of 2/π
/// from position e − 1 on are the only ones that matter modulo 4: earlier
/// bits contribute multiples of 4 to x · 2/π. A 96-bit window from there,
/// times m, gives x · 2/π with 94 fraction bits, of which 64 are kept
/// (error below 2^-63 quarter turns, against an |r| of at least about
/// 2^-30 for any `f32`).
#[inline(always)]
pub fn payne_hanek(x: f32) -> (u32, f32) {
    let bits = x.to_bits();
    let negative = bits >> 31 != 0;
    let biased_exponent = (bits >> 23) & 0xff;
    let m = u64::from((bits & 0x007f_ffff) | 0x0080_0000);
    // x = m · 2^e with e = biased − 150; the window starts at bit e − 1 of 2/π,
    // which is bit (e − 1) + 31 of the zero-prefixed table.
    let start = (biased_exponent as i32 - 150 - 1 + 31).max(0) as u32;
    let (word, shift) = ((start / 32) as usize, start % 32);
    let window = |k: usize| -> u64 {
        let pair = (u64::from(TWO_OVER_PI_BITS[word + k]) << 32) | u64::from(TWO_OVER_PI_BITS[word + k + 1]);
        (pair << shift) >> 32
    };
    let (w0, w1, w2) = (window(0), window(1), window(2));
    // m · (w0:w1:w2) = p0 · 2^64 + (p1 mod 2^32) · 2^32 + (p2 mod 2^32): a
    // 120-bit product with 94 fraction bits (the window's last bit weighs
    // 2^-(e + 94) in 2/π, so 2^-94 in x · 2/π).
    let p2 = m * w2;
    let p1 = m * w1 + (p2 >> 32);
    let p0 = m * w0 + (p1 >> 32);
    let integer = (p0 >> 30) as u32;
    let fraction = ((p0 & 0x3fff_ffff) << 34) | ((p1 & 0xffff_ffff) << 2) | ((p2 & 0xffff_ffff) >> 30);
    // Round to the nearest quarter turn: a fraction of one half or more
    // counts as the next q and a negative remainder (the same bits read as i64).
    let q = integer.wrapping_add((fraction >> 63) as u32);
    let r = (fraction as i64 as f64 * PIO2_OVER_2_POW_64) as f32;
    if negative {
        (q.wrapping_neg() & 3, -r)
    } else {
        (q & 3, r)
    }
}

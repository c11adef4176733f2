//! What the throughput kernels store, computed on the CPU with plain loops
//! over threads, chains and rounds.
//!
//! IEEE operations (add, multiply, FMA, `rcp.rn`, `div.rn`, conversions) and
//! integer operations give the GPU's results bit for bit. For the
//! approximations (`*.approx`, the fast exponential) and the accurate
//! functions, each round uses the exact value rounded once to `f32`: the GPU
//! differs from it by the function's error at every round, so compare those
//! with a tolerance (or, where the map is chaotic, only a range).

use half::f16;
use kernels_gpu::instruction_throughput::{
    ChainParams, F16X2_SEED_PERIOD, PROMOTION_CONSTANT, THROUGHPUT_CHAINS, ThroughputKernel,
};

/// The output of a throughput kernel run by `threads` threads: element
/// `c · threads + t` is chain `c` of thread `t`, which starts at `seed(k)`
/// with `k = t · THROUGHPUT_CHAINS + c` and goes through `iterations` calls of `round`.
pub fn chain_outputs<T: Copy + Default>(
    threads: u32,
    iterations: u32,
    seed: impl Fn(u32) -> T,
    round: impl Fn(&mut [T; THROUGHPUT_CHAINS]),
) -> Vec<T> {
    let mut out = vec![T::default(); THROUGHPUT_CHAINS * threads as usize];
    for t in 0..threads {
        let mut values = [T::default(); THROUGHPUT_CHAINS];
        for (c, value) in values.iter_mut().enumerate() {
            *value = seed(t * THROUGHPUT_CHAINS as u32 + c as u32);
        }
        for _ in 0..iterations {
            round(&mut values);
        }
        for (c, value) in values.into_iter().enumerate() {
            out[c * threads as usize + t as usize] = value;
        }
    }
    out
}

/// `x` rounded to `f32` after `f` in double precision.
fn rounded(x: f32, f: impl Fn(f64) -> f64) -> f32 {
    f(x as f64) as f32
}

/// One chain's step in an `f32` kernel (`None` for kernels of another element type).
fn f32_step(kernel: ThroughputKernel, ChainParams { a, b, .. }: ChainParams<f32>) -> Option<Box<dyn Fn(f32) -> f32>> {
    use ThroughputKernel::*;
    let step: Box<dyn Fn(f32) -> f32> = match kernel {
        F32Add => Box::new(move |v| v + a),
        F32Mul => Box::new(move |v| v * a),
        F32Fma => Box::new(move |v| v.mul_add(a, b)),
        RcpApprox => Box::new(|v| rounded(v, |x| 1.0 / x)),
        RcpRn => Box::new(|v| 1.0 / v),
        DivRn => Box::new(move |v| a / v),
        DivApprox => Box::new(move |v| (a as f64 / v as f64) as f32),
        RsqrtApprox => Box::new(|v| rounded(v, |x| 1.0 / x.sqrt())),
        RecipSqrtRn => Box::new(|v| 1.0 / v.sqrt()),
        SinApprox | Sin => Box::new(move |v| rounded(v, f64::sin) + b),
        CosApprox => Box::new(move |v| rounded(v, f64::cos) + b),
        Ex2Approx => Box::new(move |v| rounded(v, f64::exp2) + b),
        Lg2Approx => Box::new(move |v| rounded(v, f64::log2) + b),
        ExpFast | Exp | ExpAccurate => Box::new(move |v| rounded(v, f64::exp) + b),
        F32LiteralMul => Box::new(move |v| (v * PROMOTION_CONSTANT as f32) * a),
        F64PromotedMul => Box::new(move |v| ((v as f64 * PROMOTION_CONSTANT) as f32) * a),
        CubeMul | PowCube => Box::new(move |v| rounded(v, |x| x.powi(3)).mul_add(a, b)),
        Exp2 | Pow2 => Box::new(move |v| rounded(v, f64::exp2) + b),
        Exp10 | Pow10 => Box::new(move |v| rounded(v, |x| 10f64.powf(x)) + b),
        Cbrt | PowThird => Box::new(move |v| rounded(v, f64::cbrt) + b),
        Sinpi | SinPiX => Box::new(move |v| rounded(v, |x| (std::f64::consts::PI * x).sin()).mul_add(a, b)),
        Sincos | SinCos => Box::new(move |v| rounded(v, |x| x.sin() + x.cos()).mul_add(a, b)),
        Sqrt => Box::new(move |v| v.sqrt() + b),
        Fmin => Box::new(move |v| (-v).min(a)),
        Convert => Box::new(|v| (-v) as i32 as f32),
        F64Fma | F16x2Fma | I32Add | I32Mul | I32Mad | I16Mad | I8Mad | Mul24 | U32Div | U32Rem | U32Shift
        | U32Mask | BarSync => {
            return None;
        }
    };
    Some(step)
}

/// The output of an `f32` throughput kernel (`None` for another element type):
/// chain `k` starts at `fma(k, step, start)`.
pub fn f32_throughput_reference(
    kernel: ThroughputKernel,
    params: ChainParams<f32>,
    threads: u32,
    iterations: u32,
) -> Option<Vec<f32>> {
    let step = f32_step(kernel, params)?;
    Some(chain_outputs(
        threads,
        iterations,
        |k| (k as f32).mul_add(params.step, params.start),
        |values| values.iter_mut().for_each(|v| *v = step(*v)),
    ))
}

/// The output of `f64_fma_throughput`: `v ← fma(v, a, b)` from `fma(k, step, start)`.
pub fn f64_fma_throughput_reference(params: ChainParams<f64>, threads: u32, iterations: u32) -> Vec<f64> {
    chain_outputs(
        threads,
        iterations,
        |k| (k as f64).mul_add(params.step, params.start),
        |values| values.iter_mut().for_each(|v| *v = v.mul_add(params.a, params.b)),
    )
}

/// The binary16 nearest to `x` (ties to even), as bits: `x` is scaled by a
/// power of two to units of the binary16 spacing at its magnitude (exact),
/// rounded to an integer, and encoded. (`half::f16::from_f64` rounds through
/// `f32`, which can round twice.)
pub fn f64_to_f16_bits(x: f64) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let magnitude = x.abs();
    // floor(log2 |x|), at least −14 (below, the spacing is the subnormal 2^-24).
    let exponent = if magnitude >= 2f64.powi(-14) {
        ((magnitude.to_bits() >> 52) & 0x7ff) as i32 - 1023
    } else {
        -14
    };
    let units = (magnitude / 2f64.powi(exponent - 10)).round_ties_even();
    let rounded = units * 2f64.powi(exponent - 10);
    if rounded > 65_504.0 {
        return sign | 0x7c00;
    }
    if rounded < 2f64.powi(-14) {
        return sign | units as u16;
    }
    // Rounding may have carried into the next binade: re-read the exponent.
    let exponent = ((rounded.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mantissa = (rounded / 2f64.powi(exponent - 10)) as u16 - 0x400;
    sign | ((exponent + 15) as u16) << 10 | mantissa
}

/// `a · b + c` on each binary16 lane of packed words. The product is exact
/// in `f64` and so is the sum wherever the result is a finite binary16 (the
/// operands' bits span at most 53 places then), so one rounding of the `f64`
/// sum to binary16 is the correctly rounded FMA.
pub fn fma_f16x2_reference(a: u32, b: u32, c: u32) -> u32 {
    let lane = |word: u32, i: u32| f16::from_bits((word >> (16 * i)) as u16).to_f64();
    let fma = |i| f64_to_f16_bits(lane(a, i) * lane(b, i) + lane(c, i)) as u32;
    fma(0) | fma(1) << 16
}

/// The output of `f16x2_fma_throughput`: chain `k` starts at the bits
/// `start + (k mod F16X2_SEED_PERIOD) · step`.
pub fn f16x2_fma_throughput_reference(params: ChainParams<u32>, threads: u32, iterations: u32) -> Vec<u32> {
    chain_outputs(
        threads,
        iterations,
        |k| {
            params
                .start
                .wrapping_add((k % F16X2_SEED_PERIOD).wrapping_mul(params.step))
        },
        |values| {
            values
                .iter_mut()
                .for_each(|v| *v = fma_f16x2_reference(*v, params.a, params.b))
        },
    )
}

/// The output of an `i32` throughput kernel (`None` for another element type):
/// chain `k` starts at `start + k · step` (odd for the multiplying kernels),
/// and each round combines every chain with the next one's previous value
/// (the barrier kernel's round only adds `a` to each chain).
pub fn i32_throughput_reference(
    kernel: ThroughputKernel,
    params: ChainParams<i32>,
    threads: u32,
    iterations: u32,
) -> Option<Vec<i32>> {
    let combine: fn(i32, i32, i32) -> i32 = match kernel {
        ThroughputKernel::I32Add => |x, y, _| x.wrapping_add(y),
        ThroughputKernel::I32Mul => |x, y, _| x.wrapping_mul(y),
        ThroughputKernel::I32Mad => |x, y, a| x.wrapping_mul(y).wrapping_add(a),
        // The narrow kernels: the product's and sum's low 16 (8) bits, sign-extended.
        ThroughputKernel::I16Mad => |x, y, a| ((x.wrapping_mul(y).wrapping_add(a) as u32) << 16) as i32 >> 16,
        ThroughputKernel::I8Mad => |x, y, a| ((x.wrapping_mul(y).wrapping_add(a) as u32) << 24) as i32 >> 24,
        // mul24.lo.s32: the low 32 bits of the 48-bit product of the sign-extended low 24 bits.
        ThroughputKernel::Mul24 => |x, y, _| {
            let low24 = |v: i32| (((v as u32) << 8) as i32 >> 8) as i64;
            (low24(x) * low24(y)) as i32
        },
        // The barrier kernel: each chain adds a after each barrier (no neighbour).
        ThroughputKernel::BarSync => |x, _, a| x.wrapping_add(a),
        _ => return None,
    };
    let odd = !matches!(kernel, ThroughputKernel::I32Add | ThroughputKernel::BarSync);
    Some(chain_outputs(
        threads,
        iterations,
        |k| {
            let v = params.start.wrapping_add((k as i32).wrapping_mul(params.step));
            if odd { v | 1 } else { v }
        },
        |values| {
            let previous = *values;
            for c in 0..THROUGHPUT_CHAINS {
                values[c] = combine(previous[c], previous[(c + 1) % THROUGHPUT_CHAINS], params.a);
            }
        },
    ))
}

/// The output of a `u32` division kernel (`None` for another kernel): chain
/// `k` starts at `start + k · step`; a round is `v ← v / a + b`, `v % a + b`,
/// `(v >> a) + b` or `(v & (2^a − 1)) + b` (a divisor of 0 counts as 1).
pub fn u32_throughput_reference(
    kernel: ThroughputKernel,
    params: ChainParams<u32>,
    threads: u32,
    iterations: u32,
) -> Option<Vec<u32>> {
    let ChainParams { a, b, .. } = params;
    let divisor = a.max(1);
    let op: Box<dyn Fn(u32) -> u32> = match kernel {
        ThroughputKernel::U32Div => Box::new(move |v| v / divisor),
        ThroughputKernel::U32Rem => Box::new(move |v| v % divisor),
        ThroughputKernel::U32Shift => Box::new(move |v| v.checked_shr(a).unwrap_or(0)),
        ThroughputKernel::U32Mask => Box::new(move |v| v & 1u32.checked_shl(a).unwrap_or(0).wrapping_sub(1)),
        _ => return None,
    };
    Some(chain_outputs(
        threads,
        iterations,
        |k| params.start.wrapping_add(k.wrapping_mul(params.step)),
        |values| values.iter_mut().for_each(|v| *v = op(*v).wrapping_add(b)),
    ))
}

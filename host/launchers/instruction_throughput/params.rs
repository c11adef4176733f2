use half::f16;
use kernels_gpu::device::pack_f16x2;
use kernels_gpu::instruction_throughput::{ChainParams, ThroughputKernel};

use crate::reference::ArgumentRange;

/// A throughput kernel's scalar parameters, in its element type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AnyChainParams {
    F32(ChainParams<f32>),
    F64(ChainParams<f64>),
    I32(ChainParams<i32>),
    /// The integer kernels and the packed `f16x2` one.
    U32(ChainParams<u32>),
}

/// Packs `x` into both binary16 lanes.
fn f16_pair(x: f32) -> u32 {
    let bits = f16::from_f32(x).to_bits();
    pack_f16x2(bits, bits)
}

/// Parameters that keep every chain finite and away from trivial values for
/// any number of iterations (each chain settles at a fixed point, or moves
/// slowly), with arguments of the size asked for where it matters:
/// `Large` gives the sines and cosines arguments near 10^6 (the accurate
/// sine's Payne–Hanek path) and the exponentials arguments near −80 (2^x:
/// −100); every other kernel ignores it.
///
/// * f32 add `+2^-20`, multiply `·(1 − 2^-24)`, FMA `fma(v, 0.9999, 0.001)`
///   (settles at 10), f64 FMA likewise, f16x2 FMA `fma(v, 0.9375, 0.0625)`
///   (settles at 1);
/// * integers: seeds spread by the golden-ratio constant; division and
///   modulo by 16, shift and mask by 4; multiply-adds (and the barrier
///   kernel's adds) add 12345;
/// * reciprocal `v ↔ 1/v` from 1.5 up, division `v ↔ 3/v`, reciprocal square
///   root (approximate and IEEE) from 0.5 (settles at 1);
/// * `v ← f(v) + b`: sine b = 1, cosine b = 0, 2^x and e^x b = −2, log2 b = 2
///   from 4 (each a contracting map);
/// * the promotion pair: `· 1.02 · (1/1.02)`;
/// * the math-library pairs: `a·v³ + b` and `a·sinpi(v) + b` with a = 1/4,
///   b = 1/2 from 0.5; 2^v and 10^v plus b = −2 from −1.5; the cube root
///   plus 1 from 2; `(sin v + cos v)/2` from 0.5 (each a contracting map);
/// * square root plus 1 from 2; `min(−v, 2)` from 1 (alternating signs);
///   the conversion round trip from 1.5 in steps of 1 (alternating signs).
pub fn suggested_params(kernel: ThroughputKernel, arguments: ArgumentRange) -> AnyChainParams {
    use ThroughputKernel::*;
    let large = arguments == ArgumentRange::Large;
    let spread = 2f32.powi(-20);
    let f32_params = |start: f32, step: f32, a: f32, b: f32| AnyChainParams::F32(ChainParams { start, step, a, b });
    let golden = 0x9E37_79B9u32;
    match kernel {
        F32Add => f32_params(1.0, spread, spread, 0.0),
        F32Mul => f32_params(1.0, spread, 1.0 - 2f32.powi(-24), 0.0),
        F32Fma => f32_params(1.0, spread, 0.9999, 0.001),
        F64Fma => AnyChainParams::F64(ChainParams {
            start: 1.0,
            step: 2f64.powi(-20),
            a: 0.9999,
            b: 0.001,
        }),
        F16x2Fma => AnyChainParams::U32(ChainParams {
            start: pack_f16x2(f16::from_f32(0.5).to_bits(), f16::from_f32(0.75).to_bits()),
            step: 0x0001_0001,
            a: f16_pair(0.9375),
            b: f16_pair(0.0625),
        }),
        I32Add | I32Mul | I32Mad | I16Mad | I8Mad | Mul24 | BarSync => AnyChainParams::I32(ChainParams {
            start: 1,
            step: golden as i32,
            a: 12_345,
            b: 0,
        }),
        U32Div | U32Rem | U32Shift | U32Mask => AnyChainParams::U32(ChainParams {
            start: 1,
            step: golden,
            a: if matches!(kernel, U32Div | U32Rem) { 16 } else { 4 },
            b: 0x1000_0000,
        }),
        RcpApprox | RcpRn => f32_params(1.5, 2f32.powi(-12), 0.0, 0.0),
        DivRn | DivApprox => f32_params(1.5, 2f32.powi(-12), 3.0, 0.0),
        RsqrtApprox | RecipSqrtRn => f32_params(0.5, 2f32.powi(-12), 0.0, 0.0),
        SinApprox | Sin if large => f32_params(1.0e6, 0.0625, 0.0, 1.0e6),
        SinApprox | Sin => f32_params(0.0, spread, 0.0, 1.0),
        CosApprox if large => f32_params(1.0e6, 0.0625, 0.0, 1.0e6),
        CosApprox => f32_params(0.0, spread, 0.0, 0.0),
        Ex2Approx if large => f32_params(-100.0, spread, 0.0, -100.0),
        ExpFast | Exp | ExpAccurate if large => f32_params(-80.0, spread, 0.0, -80.0),
        Ex2Approx | ExpFast | Exp | ExpAccurate => f32_params(-1.5, spread, 0.0, -2.0),
        Lg2Approx => f32_params(4.0, spread, 0.0, 2.0),
        F32LiteralMul | F64PromotedMul => f32_params(1.0, spread, (1.0 / 1.02f64) as f32, 0.0),
        CubeMul | PowCube | Sinpi | SinPiX => f32_params(0.5, spread, 0.25, 0.5),
        Exp2 | Pow2 | Exp10 | Pow10 => f32_params(-1.5, spread, 0.0, -2.0),
        Cbrt | PowThird => f32_params(2.0, spread, 0.0, 1.0),
        Sincos | SinCos => f32_params(0.5, spread, 0.5, 0.0),
        Sqrt => f32_params(2.0, spread, 0.0, 1.0),
        Fmin => f32_params(1.0, spread, 2.0, 0.0),
        Convert => f32_params(1.5, 1.0, 0.0, 0.0),
    }
}

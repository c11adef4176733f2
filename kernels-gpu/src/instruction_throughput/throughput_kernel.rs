//! The throughput kernels as data: entry names, element types and what one
//! round of each does, for the host's launchers, references and reports.

use crate::instruction_throughput::THROUGHPUT_CHAINS;

/// The element type of a throughput kernel's chains, parameters and output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChainElement {
    F32,
    F64,
    /// Two binary16 numbers packed in a `u32`.
    F16x2,
    I32,
    U32,
}

/// The scalar parameters of a throughput kernel,
/// `(out, start, step, a, b, iterations)`: chain `k` starts from `start` and
/// `step` (each kernel says how), and `a`, `b` are the operands of its round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainParams<T> {
    pub start: T,
    pub step: T,
    pub a: T,
    pub b: T,
}

/// One throughput kernel of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThroughputKernel {
    F32Add,
    F32Mul,
    F32Fma,
    F64Fma,
    F16x2Fma,
    I32Add,
    I32Mul,
    I32Mad,
    I16Mad,
    I8Mad,
    Mul24,
    U32Div,
    U32Rem,
    U32Shift,
    U32Mask,
    RcpApprox,
    RcpRn,
    DivRn,
    DivApprox,
    RsqrtApprox,
    RecipSqrtRn,
    SinApprox,
    CosApprox,
    Ex2Approx,
    Lg2Approx,
    ExpFast,
    Sin,
    Exp,
    ExpAccurate,
    F32LiteralMul,
    F64PromotedMul,
    BarSync,
    CubeMul,
    PowCube,
    Exp2,
    Pow2,
    Exp10,
    Pow10,
    Cbrt,
    PowThird,
    Sinpi,
    SinPiX,
    Sincos,
    SinCos,
    Sqrt,
    Fmin,
    Convert,
}

impl ThroughputKernel {
    pub const ALL: [Self; 32] = [
        Self::F32Add,
        Self::F32Mul,
        Self::F32Fma,
        Self::F64Fma,
        Self::F16x2Fma,
        Self::I32Add,
        Self::I32Mul,
        Self::I32Mad,
        Self::I16Mad,
        Self::I8Mad,
        Self::Mul24,
        Self::U32Div,
        Self::U32Rem,
        Self::U32Shift,
        Self::U32Mask,
        Self::RcpApprox,
        Self::RcpRn,
        Self::DivRn,
        Self::DivApprox,
        Self::RsqrtApprox,
        Self::RecipSqrtRn,
        Self::SinApprox,
        Self::CosApprox,
        Self::Ex2Approx,
        Self::Lg2Approx,
        Self::ExpFast,
        Self::Sin,
        Self::Exp,
        Self::ExpAccurate,
        Self::F32LiteralMul,
        Self::F64PromotedMul,
        Self::BarSync,
    ];

    /// The OpenCL Programming Guide §3.1.1.1's square root, compare/min/max
    /// and conversion, with the add and reciprocal square root their rates are
    /// set against; measured by the host's `opencl-arithmetic` experiment.
    pub const SQRT_COMPARE_CONVERT: [Self; 5] =
        [Self::F32Add, Self::RsqrtApprox, Self::Sqrt, Self::Fmin, Self::Convert];

    /// The math-library pairs of the Best Practices Guide §5.1.2–5.1.4
    /// (`math_functions`), measured by the host's `math-functions`
    /// experiment rather than with [`ALL`](Self::ALL): each recommended call
    /// followed by the one it replaces.
    pub const MATH_FUNCTIONS: [Self; 12] = [
        Self::CubeMul,
        Self::PowCube,
        Self::Exp2,
        Self::Pow2,
        Self::Exp10,
        Self::Pow10,
        Self::Cbrt,
        Self::PowThird,
        Self::Sinpi,
        Self::SinPiX,
        Self::Sincos,
        Self::SinCos,
    ];

    /// The PTX entry (the same name for the Rust kernel and its CUDA C twin).
    pub const fn entry(self) -> &'static str {
        match self {
            Self::F32Add => "f32_add_throughput",
            Self::F32Mul => "f32_mul_throughput",
            Self::F32Fma => "f32_fma_throughput",
            Self::F64Fma => "f64_fma_throughput",
            Self::F16x2Fma => "f16x2_fma_throughput",
            Self::I32Add => "i32_add_throughput",
            Self::I32Mul => "i32_mul_throughput",
            Self::I32Mad => "i32_mad_throughput",
            Self::I16Mad => "i16_mad_throughput",
            Self::I8Mad => "i8_mad_throughput",
            Self::Mul24 => "mul24_throughput",
            Self::U32Div => "u32_div_throughput",
            Self::U32Rem => "u32_rem_throughput",
            Self::U32Shift => "u32_shift_throughput",
            Self::U32Mask => "u32_mask_throughput",
            Self::RcpApprox => "rcp_approx_throughput",
            Self::RcpRn => "rcp_rn_throughput",
            Self::DivRn => "div_rn_throughput",
            Self::DivApprox => "div_approx_throughput",
            Self::RsqrtApprox => "rsqrt_approx_throughput",
            Self::RecipSqrtRn => "recip_sqrt_rn_throughput",
            Self::SinApprox => "sin_approx_throughput",
            Self::CosApprox => "cos_approx_throughput",
            Self::Ex2Approx => "ex2_approx_throughput",
            Self::Lg2Approx => "lg2_approx_throughput",
            Self::ExpFast => "exp_fast_throughput",
            Self::Sin => "sin_throughput",
            Self::Exp => "exp_throughput",
            Self::ExpAccurate => "exp_accurate_throughput",
            Self::F32LiteralMul => "f32_literal_mul_throughput",
            Self::F64PromotedMul => "f64_promoted_mul_throughput",
            Self::BarSync => "bar_sync_throughput",
            Self::CubeMul => "cube_mul_throughput",
            Self::PowCube => "pow_cube_throughput",
            Self::Exp2 => "exp2_throughput",
            Self::Pow2 => "pow2_throughput",
            Self::Exp10 => "exp10_throughput",
            Self::Pow10 => "pow10_throughput",
            Self::Cbrt => "cbrt_throughput",
            Self::PowThird => "pow_third_throughput",
            Self::Sinpi => "sinpi_throughput",
            Self::SinPiX => "sin_pi_x_throughput",
            Self::Sincos => "sincos_throughput",
            Self::SinCos => "sin_cos_throughput",
            Self::Sqrt => "sqrt_throughput",
            Self::Fmin => "fmin_throughput",
            Self::Convert => "convert_throughput",
        }
    }

    /// The type of the chains, of `start`, `step`, `a`, `b` and of the output.
    pub const fn element(self) -> ChainElement {
        match self {
            Self::F64Fma => ChainElement::F64,
            Self::F16x2Fma => ChainElement::F16x2,
            Self::I32Add | Self::I32Mul | Self::I32Mad | Self::I16Mad | Self::I8Mad | Self::Mul24 | Self::BarSync => {
                ChainElement::I32
            }
            Self::U32Div | Self::U32Rem | Self::U32Shift | Self::U32Mask => ChainElement::U32,
            _ => ChainElement::F32,
        }
    }

    /// The measured operation, as a report names it.
    pub const fn operation(self) -> &'static str {
        match self {
            Self::F32Add => "f32 add",
            Self::F32Mul => "f32 multiply",
            Self::F32Fma => "f32 FMA",
            Self::F64Fma => "f64 FMA",
            Self::F16x2Fma => "f16x2 FMA (packed, 2 per instruction)",
            Self::I32Add => "i32 add",
            Self::I32Mul => "i32 multiply",
            Self::I32Mad => "i32 multiply-add",
            Self::I16Mad => "i16 multiply-add (short)",
            Self::I8Mad => "i8 multiply-add (char)",
            Self::Mul24 => "24-bit multiply, mul24.lo.s32 (__mul24)",
            Self::U32Div => "u32 division by a run-time divisor",
            Self::U32Rem => "u32 modulo by a run-time divisor",
            Self::U32Shift => "u32 division by 2^s as a shift",
            Self::U32Mask => "u32 modulo by 2^s as a mask",
            Self::RcpApprox => "reciprocal, rcp.approx.f32",
            Self::RcpRn => "reciprocal, rcp.rn.f32 (IEEE)",
            Self::DivRn => "division, div.rn.f32 (IEEE)",
            Self::DivApprox => "division, div.approx.f32 (__fdividef)",
            Self::RsqrtApprox => "reciprocal square root, rsqrt.approx.f32",
            Self::RecipSqrtRn => "1/sqrt(x), sqrt.rn then rcp.rn (IEEE)",
            Self::SinApprox => "sine, sin.approx.f32 (__sinf)",
            Self::CosApprox => "cosine, cos.approx.f32 (__cosf)",
            Self::Ex2Approx => "2^x, ex2.approx.f32",
            Self::Lg2Approx => "log2, lg2.approx.f32 (__log2f)",
            Self::ExpFast => "e^x, ex2.approx(x·log2 e) (__expf)",
            Self::Sin => "sine (sinf's counterpart)",
            Self::Exp => "e^x (expf's counterpart)",
            Self::ExpAccurate => "e^x, tighter (≤ 1.05 ulp, no SFU)",
            Self::F32LiteralMul => "f32 multiply by an f32 constant",
            Self::F64PromotedMul => "f32 multiply by an f64 constant (promoted)",
            Self::BarSync => "block barrier, bar.sync (__syncthreads)",
            Self::CubeMul => "x·x·x (a small integer power by multiplication)",
            Self::PowCube => "pow(x, 3)",
            Self::Exp2 => "exp2(x)",
            Self::Pow2 => "pow(2, x)",
            Self::Exp10 => "exp10(x)",
            Self::Pow10 => "pow(10, x)",
            Self::Cbrt => "cbrt(x)",
            Self::PowThird => "pow(x, 1/3)",
            Self::Sinpi => "sinpi(x)",
            Self::SinPiX => "sin(π·x)",
            Self::Sincos => "sincos(x) (one call, both results)",
            Self::SinCos => "sin(x) and cos(x), separate calls",
            Self::Sqrt => "square root, sqrt.rn.f32 (sqrtf, OpenCL sqrt)",
            Self::Fmin => "minimum, min.f32 (fminf, OpenCL fmin)",
            Self::Convert => "conversion, f32 to i32 and back (one counted per direction)",
        }
    }

    /// Measured operations one thread performs per round (per iteration of
    /// the kernel's loop): one per chain (two for the conversion kernel: there
    /// and back). For the packed FMA each operation
    /// is one instruction holding two binary16 FMAs.
    pub const fn operations_per_round(self) -> u32 {
        match self {
            Self::Convert => 2 * THROUGHPUT_CHAINS as u32,
            _ => THROUGHPUT_CHAINS as u32,
        }
    }

    /// The other instruction each round performs once per chain alongside
    /// the measured one, if any (it shares the issue slots).
    pub const fn companion(self) -> Option<&'static str> {
        match self {
            Self::U32Div | Self::U32Rem | Self::U32Shift | Self::U32Mask => Some("add.s32"),
            Self::SinApprox
            | Self::CosApprox
            | Self::Ex2Approx
            | Self::Lg2Approx
            | Self::ExpFast
            | Self::Sin
            | Self::Exp
            | Self::ExpAccurate
            | Self::Exp2
            | Self::Pow2
            | Self::Exp10
            | Self::Pow10
            | Self::Cbrt
            | Self::PowThird
            | Self::Sqrt => Some("add.f32"),
            Self::CubeMul | Self::PowCube | Self::Sinpi | Self::SinPiX => Some("fma.rn.f32 (a·f(v) + b)"),
            Self::Sincos | Self::SinCos => Some("add.f32 and fma.rn.f32 (a·(s + c) + b)"),
            Self::F32LiteralMul | Self::F64PromotedMul => Some("mul.f32 by the run-time factor a"),
            Self::BarSync => Some("add.s32 (may be folded out of the loop)"),
            _ => None,
        }
    }
}

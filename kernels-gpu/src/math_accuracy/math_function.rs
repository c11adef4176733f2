//! The functions whose accuracy the suite measures, as a kernel argument.

use crate::device::{
    cbrt, cos, cos_approx, ex2_approx, exp, exp_accurate, exp_fast, exp10_fast, lg2_approx, rcp_approx, rsqrt_approx,
    sin, sin_approx, sinpi,
};

/// One single-precision function of the device layer, identified on the
/// kernel's parameter list by its `u32` discriminant.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFunction {
    /// `sin.approx.f32` (`__sinf`).
    SinApprox = 0,
    /// `cos.approx.f32` (`__cosf`).
    CosApprox = 1,
    /// `ex2.approx.f32`: 2^x.
    Ex2Approx = 2,
    /// `lg2.approx.f32` (`__log2f`).
    Lg2Approx = 3,
    /// `rcp.approx.f32`: 1/x.
    RcpApprox = 4,
    /// `rsqrt.approx.f32`: 1/√x.
    RsqrtApprox = 5,
    /// `ex2.approx.f32(x · log2 e)` (`__expf`).
    ExpFast = 6,
    /// The device layer's sine, `sin` (`sinf`'s counterpart).
    Sin = 7,
    /// The device layer's tighter exponential, `exp_accurate` (≤ 1.05 ulp;
    /// the CUDA C twin computes `expf` for it).
    ExpAccurate = 8,
    /// The device layer's exponential, `exp` (`expf`'s counterpart and algorithm).
    Exp = 9,
    /// 2^x: `ex2.approx.f32` in Rust (what CUDA's `exp2f` is built on), CUDA's `exp2f` in the twin.
    Exp2 = 10,
    /// 10^x: the device layer's `exp10_fast` (`__exp10f`'s algorithm), CUDA's `exp10f` in the twin.
    Exp10 = 11,
    /// The device layer's cube root, `cbrt`; CUDA's `cbrtf` in the twin.
    Cbrt = 12,
    /// The device layer's cosine, `cos`; CUDA's `cosf` in the twin.
    Cos = 13,
    /// The device layer's `sinpi` (sin πx); CUDA's `sinpif` in the twin.
    Sinpi = 14,
}

impl MathFunction {
    pub const ALL: [Self; 15] = [
        Self::SinApprox,
        Self::CosApprox,
        Self::Ex2Approx,
        Self::Lg2Approx,
        Self::RcpApprox,
        Self::RsqrtApprox,
        Self::ExpFast,
        Self::Sin,
        Self::ExpAccurate,
        Self::Exp,
        Self::Exp2,
        Self::Exp10,
        Self::Cbrt,
        Self::Cos,
        Self::Sinpi,
    ];

    /// The function with discriminant `id`, if there is one.
    #[inline(always)]
    pub fn from_id(id: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|f| *f as u32 == id)
    }

    /// The function's value at `x`, as the GPU computes it (the emulator:
    /// see `device::fast_math` for what the approximations return there).
    #[inline(always)]
    pub fn evaluate(self, x: f32) -> f32 {
        match self {
            Self::SinApprox => sin_approx(x),
            Self::CosApprox => cos_approx(x),
            Self::Ex2Approx => ex2_approx(x),
            Self::Lg2Approx => lg2_approx(x),
            Self::RcpApprox => rcp_approx(x),
            Self::RsqrtApprox => rsqrt_approx(x),
            Self::ExpFast => exp_fast(x),
            Self::Sin => sin(x),
            Self::ExpAccurate => exp_accurate(x),
            Self::Exp => exp(x),
            Self::Exp2 => ex2_approx(x),
            Self::Exp10 => exp10_fast(x),
            Self::Cbrt => cbrt(x),
            Self::Cos => cos(x),
            Self::Sinpi => sinpi(x),
        }
    }
}

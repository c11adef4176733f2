//! The functions whose accuracy the suite measures, as a kernel argument.

use crate::device::{
    cos_approx, ex2_approx, exp, exp_accurate, exp_fast, lg2_approx, rcp_approx, rsqrt_approx, sin, sin_approx,
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
}

impl MathFunction {
    pub const ALL: [Self; 10] = [
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
        }
    }
}

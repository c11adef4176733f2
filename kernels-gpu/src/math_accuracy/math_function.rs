//! The functions whose accuracy the suite measures, as a kernel argument.

use crate::device::{
    cos_approx, ex2_approx, exp_accurate, exp_fast, lg2_approx, rcp_approx, rsqrt_approx, sin_accurate, sin_approx,
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
    /// The device layer's accurate sine (`sinf`'s counterpart).
    SinAccurate = 7,
    /// The device layer's accurate exponential (`expf`'s counterpart).
    ExpAccurate = 8,
}

impl MathFunction {
    pub const ALL: [Self; 9] = [
        Self::SinApprox,
        Self::CosApprox,
        Self::Ex2Approx,
        Self::Lg2Approx,
        Self::RcpApprox,
        Self::RsqrtApprox,
        Self::ExpFast,
        Self::SinAccurate,
        Self::ExpAccurate,
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
            Self::SinAccurate => sin_accurate(x),
            Self::ExpAccurate => exp_accurate(x),
        }
    }
}

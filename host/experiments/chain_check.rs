//! Whether a throughput kernel stored what its CPU reference says
//! (`reference::*_throughput_reference`), with a tolerance only where the
//! GPU's operation is not an IEEE one: how far each kernel's chains may
//! drift from a reference that rounds the exact function once per round.

use kernels_gpu::instruction_throughput::{THROUGHPUT_CHAINS, ThroughputKernel};

use crate::launchers::{AnyChainParams, ChainValues};
use crate::reference::{
    self, ArgumentRange, f16x2_fma_throughput_reference, f64_fma_throughput_reference, i32_throughput_reference,
    u32_throughput_reference,
};

/// How closely a kernel's chain values must match the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ChainTolerance {
    /// Bit for bit: IEEE and integer operations.
    Exact,
    /// `|got − expected| ≤ limit · max(|expected|, 1)`.
    Relative(f64),
    /// `|got − b| ≤ 1`: maps that are chaotic at these arguments (a sine
    /// of 10^6 plus 10^6), where only the range of `f(v) + b` can be checked.
    WithinOneOf(f32),
}

/// The tolerance of `kernel`'s chains after `iterations` rounds at
/// `range`'s arguments (`b` is the kernel's addend).
///
/// Every approximate map here contracts towards a fixed point (each round's
/// error is damped, so 10^-4 covers a few ulp per round), except the
/// reciprocal and division by a constant, which swap `v` and `1/v` (or
/// `3/v`) and so let the errors of up to 2 ulp per round add up: there the
/// limit grows with the rounds, `iterations · 2^-22`. The large-argument
/// sines and cosines are chaotic.
pub fn chain_tolerance(kernel: ThroughputKernel, range: ArgumentRange, iterations: u32, b: f32) -> ChainTolerance {
    use ThroughputKernel::*;
    match kernel {
        SinApprox | CosApprox | Sin if range == ArgumentRange::Large => ChainTolerance::WithinOneOf(b),
        RcpApprox | DivApprox => ChainTolerance::Relative((iterations as f64 * 2f64.powi(-22)).max(1e-4)),
        RsqrtApprox | SinApprox | CosApprox | Ex2Approx | Lg2Approx | ExpFast | Sin | Exp | ExpAccurate | CubeMul
        | PowCube | Exp2 | Pow2 | Exp10 | Pow10 | Cbrt | PowThird | Sinpi | SinPiX | Sincos | SinCos => {
            ChainTolerance::Relative(1e-4)
        }
        // sqrt.rn.f32 is IEEE, but the OpenCL C twin's sqrt may be 3 ulp (and approximate under
        // -cl-fast-relaxed-math); the map contracts (its derivative is about 0.3), so a few ulp per round stay that.
        Sqrt => ChainTolerance::Relative(1e-5),
        _ => ChainTolerance::Exact,
    }
}

impl ChainTolerance {
    pub fn allows(self, got: f32, expected: f32) -> bool {
        match self {
            Self::Exact => got.to_bits() == expected.to_bits(),
            Self::Relative(limit) => {
                ((got as f64) - (expected as f64)).abs() <= limit * (expected as f64).abs().max(1.0)
            }
            Self::WithinOneOf(b) => ((got as f64) - (b as f64)).abs() <= 1.0,
        }
    }
}

/// Where value `i` of a chain array (`c · threads + t`) comes from.
fn place(i: usize, threads: u32) -> String {
    format!(
        "chain {} of thread {}",
        i / threads.max(1) as usize,
        i % threads.max(1) as usize
    )
}

/// The first of `got` that `equal` rejects against `expected`, described.
fn first_difference<T: std::fmt::Debug>(
    got: &[T],
    expected: &[T],
    threads: u32,
    equal: impl Fn(&T, &T) -> bool,
) -> Option<String> {
    if got.len() != expected.len() {
        return Some(format!(
            "{} chain values read, the reference has {}",
            got.len(),
            expected.len()
        ));
    }
    got.iter().zip(expected).position(|(g, e)| !equal(g, e)).map(|i| {
        format!(
            "{} is {:?}, the CPU reference {:?}",
            place(i, threads),
            got[i],
            expected[i]
        )
    })
}

/// `None` when `got`, the chains of the first `threads` threads of a launch
/// of `kernel` with `params` for `iterations` rounds (at `c · threads + t`),
/// match the CPU reference for `threads` threads; else the first difference.
pub fn chain_mismatch(
    kernel: ThroughputKernel,
    range: ArgumentRange,
    params: AnyChainParams,
    got: &ChainValues,
    threads: u32,
    iterations: u32,
) -> Option<String> {
    let wrong_type = || {
        Some(format!(
            "{kernel:?}: the chain values are not of the kernel's element type"
        ))
    };
    if got.len() != THROUGHPUT_CHAINS * threads as usize {
        return Some(format!("{} chain values for {threads} threads", got.len()));
    }
    match (params, got) {
        (AnyChainParams::F32(p), ChainValues::F32(got)) => {
            let Some(expected) = reference::f32_throughput_reference(kernel, p, threads, iterations) else {
                return wrong_type();
            };
            let tolerance = chain_tolerance(kernel, range, iterations, p.b);
            first_difference(got, &expected, threads, |&g, &e| tolerance.allows(g, e))
        }
        (AnyChainParams::F64(p), ChainValues::F64(got)) => {
            let expected = f64_fma_throughput_reference(p, threads, iterations);
            first_difference(got, &expected, threads, |g, e| g.to_bits() == e.to_bits())
        }
        (AnyChainParams::I32(p), ChainValues::I32(got)) => {
            let Some(expected) = i32_throughput_reference(kernel, p, threads, iterations) else {
                return wrong_type();
            };
            first_difference(got, &expected, threads, |g, e| g == e)
        }
        (AnyChainParams::U32(p), ChainValues::U32(got)) => {
            let expected = if kernel == ThroughputKernel::F16x2Fma {
                f16x2_fma_throughput_reference(p, threads, iterations)
            } else {
                let Some(expected) = u32_throughput_reference(kernel, p, threads, iterations) else {
                    return wrong_type();
                };
                expected
            };
            first_difference(got, &expected, threads, |g, e| g == e)
        }
        _ => wrong_type(),
    }
}

#[cfg(test)]
mod tests {
    use kernels_gpu::instruction_throughput::{THROUGHPUT_CHAINS, ThroughputKernel};

    use super::{ChainTolerance, chain_mismatch, chain_tolerance};
    use crate::launchers::{AnyChainParams, ChainValues, suggested_params};
    use crate::reference::{self, ArgumentRange};

    #[test]
    fn tolerances_follow_the_operation() {
        use ThroughputKernel::*;
        let small = ArgumentRange::Small;
        assert_eq!(chain_tolerance(F32Fma, small, 100, 0.0), ChainTolerance::Exact);
        assert_eq!(chain_tolerance(DivRn, small, 100, 0.0), ChainTolerance::Exact);
        assert_eq!(chain_tolerance(Fmin, small, 100, 0.0), ChainTolerance::Exact);
        assert_eq!(chain_tolerance(Sqrt, small, 100, 1.0), ChainTolerance::Relative(1e-5));
        assert_eq!(
            chain_tolerance(SinApprox, small, 100, 1.0),
            ChainTolerance::Relative(1e-4)
        );
        assert_eq!(
            chain_tolerance(Sin, ArgumentRange::Large, 100, 1e6),
            ChainTolerance::WithinOneOf(1e6)
        );
        assert_eq!(
            chain_tolerance(RcpApprox, small, 10, 0.0),
            ChainTolerance::Relative(1e-4)
        );
        assert_eq!(
            chain_tolerance(RcpApprox, small, 1 << 12, 0.0),
            ChainTolerance::Relative(2f64.powi(-10)),
            "grows with the rounds"
        );
        assert!(ChainTolerance::Exact.allows(1.5, 1.5));
        assert!(!ChainTolerance::Exact.allows(1.5, 1.5 + f32::EPSILON));
        assert!(ChainTolerance::Relative(1e-4).allows(1000.05, 1000.0));
        assert!(!ChainTolerance::Relative(1e-4).allows(1000.2, 1000.0));
        assert!(!ChainTolerance::Relative(1e-4).allows(f32::NAN, 1.0));
        assert!(ChainTolerance::WithinOneOf(1e6).allows(1e6 - 0.9, 0.0));
        assert!(!ChainTolerance::WithinOneOf(1e6).allows(1e6 + 1.5, 0.0));
    }

    #[test]
    fn the_reference_passes_and_a_changed_value_is_named() {
        let (threads, iterations) = (3, 5);
        for kernel in [
            ThroughputKernel::F32Fma,
            ThroughputKernel::F64Fma,
            ThroughputKernel::I32Mad,
            ThroughputKernel::U32Div,
            ThroughputKernel::F16x2Fma,
        ] {
            let params = suggested_params(kernel, ArgumentRange::Small);
            let mut got = match params {
                AnyChainParams::F32(p) => {
                    ChainValues::F32(reference::f32_throughput_reference(kernel, p, threads, iterations).unwrap())
                }
                AnyChainParams::F64(p) => {
                    ChainValues::F64(reference::f64_fma_throughput_reference(p, threads, iterations))
                }
                AnyChainParams::I32(p) => {
                    ChainValues::I32(reference::i32_throughput_reference(kernel, p, threads, iterations).unwrap())
                }
                AnyChainParams::U32(p) if kernel == ThroughputKernel::F16x2Fma => {
                    ChainValues::U32(reference::f16x2_fma_throughput_reference(p, threads, iterations))
                }
                AnyChainParams::U32(p) => {
                    ChainValues::U32(reference::u32_throughput_reference(kernel, p, threads, iterations).unwrap())
                }
            };
            assert_eq!(
                chain_mismatch(kernel, ArgumentRange::Small, params, &got, threads, iterations),
                None,
                "{kernel:?}"
            );
            // Chain 2 of thread 1 is element 2 · 3 + 1.
            match &mut got {
                ChainValues::F32(v) => v[7] += 1.0,
                ChainValues::F64(v) => v[7] += 1.0,
                ChainValues::I32(v) => v[7] ^= 1,
                ChainValues::U32(v) => v[7] ^= 1,
            }
            let why = chain_mismatch(kernel, ArgumentRange::Small, params, &got, threads, iterations)
                .unwrap_or_else(|| panic!("{kernel:?}: a changed value passed"));
            assert!(why.contains("chain 2 of thread 1"), "{why}");
        }
    }

    #[test]
    fn wrong_lengths_and_types_are_mismatches() {
        let kernel = ThroughputKernel::F32Add;
        let params = suggested_params(kernel, ArgumentRange::Small);
        let short = ChainValues::F32(vec![1.0; THROUGHPUT_CHAINS]);
        assert!(chain_mismatch(kernel, ArgumentRange::Small, params, &short, 2, 1).is_some());
        let words = ChainValues::U32(vec![1; 2 * THROUGHPUT_CHAINS]);
        assert!(chain_mismatch(kernel, ArgumentRange::Small, params, &words, 2, 1).is_some());
        // f32 parameters for an integer kernel: no reference, so a mismatch, never a pass.
        let floats = ChainValues::F32(vec![1.0; 2 * THROUGHPUT_CHAINS]);
        assert!(chain_mismatch(ThroughputKernel::U32Div, ArgumentRange::Small, params, &floats, 2, 1).is_some());
    }
}

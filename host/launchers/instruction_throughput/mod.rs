//! The instruction-throughput family (OpenCL Programming Guide §3.1.1, Best
//! Practices Guide §5.1): 8 independent chains per thread of one operation,
//! launched as one full wave of [`THROUGHPUT_BLOCK_THREADS`]-thread blocks.
//! The shape check ([`throughput_shape`]), the typed CUDA launchers
//! ([`throughput`], [`throughput_in_module`]), the OpenCL C twins' ([`opencl`]),
//! the outputs, parameters and published rates, and the family's runners,
//! one per compiled set of kernels ([`ThroughputRunner`], chosen by
//! [`throughput_runners`], [`fast_math_runner`] and [`opencl_throughput_runners`]).

mod cuda_runner;
pub mod opencl;
mod opencl_runner;
mod outputs;
mod params;
mod runner;
mod table;

pub use cuda_runner::CudaThroughputRunner;
pub use opencl::{build_throughput_twins, opencl_throughput};
pub use opencl_runner::{OpenClThroughputRunner, RustWaves};
pub use outputs::{ChainValues, ThroughputOutputs, first_threads};
pub use params::{AnyChainParams, suggested_params};
pub use runner::{
    ChainLaunch, CompiledSass, ThroughputRunner, fast_math_runner, opencl_throughput_runners, throughput_runners,
};
pub use table::{ThroughputRow, cc1_per_sm_per_clock, hopper_peak_per_sm_per_clock, throughput_table};

use kernels_gpu::device::{Dim3, GlobalMutPtr, KernelParam, KernelSignature, Signature};
use kernels_gpu::instruction_throughput::{
    ChainElement, ChainParams, THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel,
    bar_sync_throughput_params, cbrt_throughput_params, convert_throughput_params, cos_approx_throughput_params,
    cube_mul_throughput_params, div_approx_throughput_params, div_rn_throughput_params, ex2_approx_throughput_params,
    exp_accurate_throughput_params, exp_fast_throughput_params, exp_throughput_params, exp2_throughput_params,
    exp10_throughput_params, f16x2_fma_throughput_params, f32_add_throughput_params, f32_fma_throughput_params,
    f32_literal_mul_throughput_params, f32_mul_throughput_params, f64_fma_throughput_params,
    f64_promoted_mul_throughput_params, fmin_throughput_params, i8_mad_throughput_params, i16_mad_throughput_params,
    i32_add_throughput_params, i32_mad_throughput_params, i32_mul_throughput_params, lg2_approx_throughput_params,
    mul24_throughput_params, pow_cube_throughput_params, pow_third_throughput_params, pow2_throughput_params,
    pow10_throughput_params, rcp_approx_throughput_params, rcp_rn_throughput_params, recip_sqrt_rn_throughput_params,
    rsqrt_approx_throughput_params, sin_approx_throughput_params, sin_cos_throughput_params,
    sin_pi_x_throughput_params, sin_throughput_params, sincos_throughput_params, sinpi_throughput_params,
    sqrt_throughput_params, u32_div_throughput_params, u32_mask_throughput_params, u32_rem_throughput_params,
    u32_shift_throughput_params,
};

use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, DeviceCopy, Gpu, LaunchShape, Module};
use crate::testbed::{DeviceUnderTest, Implementation};

/// Every throughput kernel's parameters: the output, `start`, `step`, `a`, `b`
/// in the chains' type, and the rounds.
pub type ChainArgs<T> = (GlobalMutPtr<T>, T, T, T, T, u32);

/// Host types that carry a throughput kernel's chains: `f32`, `f64`, `i32`,
/// and `u32` (for the integer kernels and for packed `f16x2` pairs).
pub trait ChainValue: DeviceCopy + KernelParam {
    /// Whether a kernel whose chains are `element`s takes this type.
    fn carries(element: ChainElement) -> bool;

    /// `kernel`'s signature, if its chains are of this type.
    fn signature(kernel: ThroughputKernel) -> Option<Signature<ChainArgs<Self>>>;

    /// The value as an unsigned count (a divisor or a shift), for `u32`.
    fn unsigned_operand(self) -> Option<u32> {
        None
    }
}

impl ChainValue for f32 {
    fn carries(element: ChainElement) -> bool {
        element == ChainElement::F32
    }

    fn signature(kernel: ThroughputKernel) -> Option<Signature<ChainArgs<Self>>> {
        Some(match kernel {
            ThroughputKernel::F32Add => f32_add_throughput_params::SIGNATURE,
            ThroughputKernel::F32Mul => f32_mul_throughput_params::SIGNATURE,
            ThroughputKernel::F32Fma => f32_fma_throughput_params::SIGNATURE,
            ThroughputKernel::RcpApprox => rcp_approx_throughput_params::SIGNATURE,
            ThroughputKernel::RcpRn => rcp_rn_throughput_params::SIGNATURE,
            ThroughputKernel::DivRn => div_rn_throughput_params::SIGNATURE,
            ThroughputKernel::DivApprox => div_approx_throughput_params::SIGNATURE,
            ThroughputKernel::RsqrtApprox => rsqrt_approx_throughput_params::SIGNATURE,
            ThroughputKernel::RecipSqrtRn => recip_sqrt_rn_throughput_params::SIGNATURE,
            ThroughputKernel::SinApprox => sin_approx_throughput_params::SIGNATURE,
            ThroughputKernel::CosApprox => cos_approx_throughput_params::SIGNATURE,
            ThroughputKernel::Ex2Approx => ex2_approx_throughput_params::SIGNATURE,
            ThroughputKernel::Lg2Approx => lg2_approx_throughput_params::SIGNATURE,
            ThroughputKernel::ExpFast => exp_fast_throughput_params::SIGNATURE,
            ThroughputKernel::Sin => sin_throughput_params::SIGNATURE,
            ThroughputKernel::Exp => exp_throughput_params::SIGNATURE,
            ThroughputKernel::ExpAccurate => exp_accurate_throughput_params::SIGNATURE,
            ThroughputKernel::F32LiteralMul => f32_literal_mul_throughput_params::SIGNATURE,
            ThroughputKernel::F64PromotedMul => f64_promoted_mul_throughput_params::SIGNATURE,
            ThroughputKernel::Sqrt => sqrt_throughput_params::SIGNATURE,
            ThroughputKernel::Fmin => fmin_throughput_params::SIGNATURE,
            ThroughputKernel::Convert => convert_throughput_params::SIGNATURE,
            ThroughputKernel::CubeMul => cube_mul_throughput_params::SIGNATURE,
            ThroughputKernel::PowCube => pow_cube_throughput_params::SIGNATURE,
            ThroughputKernel::Exp2 => exp2_throughput_params::SIGNATURE,
            ThroughputKernel::Pow2 => pow2_throughput_params::SIGNATURE,
            ThroughputKernel::Exp10 => exp10_throughput_params::SIGNATURE,
            ThroughputKernel::Pow10 => pow10_throughput_params::SIGNATURE,
            ThroughputKernel::Cbrt => cbrt_throughput_params::SIGNATURE,
            ThroughputKernel::PowThird => pow_third_throughput_params::SIGNATURE,
            ThroughputKernel::Sinpi => sinpi_throughput_params::SIGNATURE,
            ThroughputKernel::SinPiX => sin_pi_x_throughput_params::SIGNATURE,
            ThroughputKernel::Sincos => sincos_throughput_params::SIGNATURE,
            ThroughputKernel::SinCos => sin_cos_throughput_params::SIGNATURE,
            _ => return None,
        })
    }
}

impl ChainValue for f64 {
    fn carries(element: ChainElement) -> bool {
        element == ChainElement::F64
    }

    fn signature(kernel: ThroughputKernel) -> Option<Signature<ChainArgs<Self>>> {
        Some(match kernel {
            ThroughputKernel::F64Fma => f64_fma_throughput_params::SIGNATURE,
            _ => return None,
        })
    }
}

impl ChainValue for i32 {
    fn carries(element: ChainElement) -> bool {
        element == ChainElement::I32
    }

    fn signature(kernel: ThroughputKernel) -> Option<Signature<ChainArgs<Self>>> {
        Some(match kernel {
            ThroughputKernel::I32Add => i32_add_throughput_params::SIGNATURE,
            ThroughputKernel::I32Mul => i32_mul_throughput_params::SIGNATURE,
            ThroughputKernel::I32Mad => i32_mad_throughput_params::SIGNATURE,
            ThroughputKernel::I16Mad => i16_mad_throughput_params::SIGNATURE,
            ThroughputKernel::I8Mad => i8_mad_throughput_params::SIGNATURE,
            ThroughputKernel::Mul24 => mul24_throughput_params::SIGNATURE,
            ThroughputKernel::BarSync => bar_sync_throughput_params::SIGNATURE,
            _ => return None,
        })
    }
}

impl ChainValue for u32 {
    fn carries(element: ChainElement) -> bool {
        matches!(element, ChainElement::U32 | ChainElement::F16x2)
    }

    fn signature(kernel: ThroughputKernel) -> Option<Signature<ChainArgs<Self>>> {
        Some(match kernel {
            ThroughputKernel::U32Div => u32_div_throughput_params::SIGNATURE,
            ThroughputKernel::U32Rem => u32_rem_throughput_params::SIGNATURE,
            ThroughputKernel::U32Shift => u32_shift_throughput_params::SIGNATURE,
            ThroughputKernel::U32Mask => u32_mask_throughput_params::SIGNATURE,
            ThroughputKernel::F16x2Fma => f16x2_fma_throughput_params::SIGNATURE,
            _ => return None,
        })
    }

    fn unsigned_operand(self) -> Option<u32> {
        Some(self)
    }
}

/// The most threads a launch of the conversion kernel may have (its chains' seeds below 2^30).
pub const CONVERT_MOST_THREADS: u64 = 1 << 27;

fn invalid(kernel: ThroughputKernel, reason: String) -> Error {
    Error::InvalidLaunch {
        kernel: kernel.entry(),
        reason,
    }
}

/// Checks a throughput launch of `blocks` blocks of
/// [`THROUGHPUT_BLOCK_THREADS`]: the output must hold `THROUGHPUT_CHAINS`
/// values per thread, the grid must fit, and the kernels that divide or shift
/// by `a` need `a ≠ 0` (division, modulo) or `a < 32` (shift, mask); `a` is
/// `None` for the kernels whose `a` is not an unsigned integer.
pub fn throughput_shape(kernel: ThroughputKernel, blocks: u32, out_len: usize, a: Option<u32>) -> Result<LaunchShape> {
    if blocks == 0 || blocks > i32::MAX as u32 {
        return Err(invalid(kernel, format!("{blocks} blocks is not a valid 1-D grid")));
    }
    let threads = blocks as u64 * THROUGHPUT_BLOCK_THREADS as u64;
    if threads > u32::MAX as u64 {
        return Err(invalid(
            kernel,
            format!("{threads} threads overflow the kernel's u32 thread index"),
        ));
    }
    let needed = threads * THROUGHPUT_CHAINS as u64;
    if (out_len as u64) < needed {
        return Err(invalid(
            kernel,
            format!("{threads} threads store {needed} chain values, but the output holds {out_len}"),
        ));
    }
    match (kernel, a) {
        (ThroughputKernel::U32Div | ThroughputKernel::U32Rem, a) if a.is_none_or(|a| a == 0) => {
            return Err(invalid(kernel, format!("the divisor a = {a:?} must be a non-zero u32")));
        }
        (ThroughputKernel::U32Shift | ThroughputKernel::U32Mask, a) if a.is_none_or(|a| a >= 32) => {
            return Err(invalid(kernel, format!("the shift a = {a:?} must be a u32 below 32")));
        }
        // The conversion kernel's chains are their seeds' size: its unchecked conversion needs them below 2^31.
        (ThroughputKernel::Convert, _) if threads > CONVERT_MOST_THREADS => {
            return Err(invalid(
                kernel,
                format!("{threads} threads: its chain values must stay below 2^31, so at most {CONVERT_MOST_THREADS}"),
            ));
        }
        _ => {}
    }
    Ok(LaunchShape {
        grid: Dim3::x(blocks),
        block: Dim3::x(THROUGHPUT_BLOCK_THREADS),
        shared_bytes: 0,
    })
}

/// Blocks that fill `implementation`'s `kernel` once on every SM (a full
/// wave at [`THROUGHPUT_BLOCK_THREADS`] per block).
pub fn throughput_wave_blocks(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: ThroughputKernel,
) -> Result<u32> {
    let function = dut.kernel(implementation, kernel.entry())?;
    dut.full_wave_blocks(function, THROUGHPUT_BLOCK_THREADS)
}

/// Launches a throughput kernel: `blocks` blocks, `iterations` rounds, the
/// chains' final values into `out` (`out[c · threads + t]`). `T` must be the
/// kernel's element type (`u32` for the packed `f16x2` kernel).
#[allow(clippy::too_many_arguments)]
pub fn throughput<T: ChainValue>(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: ThroughputKernel,
    out: &mut DeviceBuffer<T>,
    params: ChainParams<T>,
    iterations: u32,
    blocks: u32,
) -> Result<()> {
    let (signature, shape, args) = checked_launch(kernel, out, params, iterations, blocks)?;
    // SAFETY: the shape check proved the output holds every chain's value.
    unsafe { dut.launch_signature(implementation, signature, shape, args) }
}

/// [`throughput`] for the kernel of the same name in `module`, a module of
/// the device's GPU outside the loaded implementations (the CUDA C twins
/// compiled with other options); its `.param` list is checked against the
/// Rust kernel's signature before the launch.
#[allow(clippy::too_many_arguments)]
pub fn throughput_in_module<T: ChainValue>(
    gpu: &Gpu,
    module: &Module,
    kernel: ThroughputKernel,
    out: &mut DeviceBuffer<T>,
    params: ChainParams<T>,
    iterations: u32,
    blocks: u32,
) -> Result<()> {
    let (signature, shape, args) = checked_launch(kernel, out, params, iterations, blocks)?;
    let typed = module.typed(signature)?;
    // SAFETY: the shape check proved the output holds every chain's value.
    unsafe { typed.launch(gpu.stream(), shape, args) }
}

/// The signature, the checked shape and the arguments of a throughput launch.
fn checked_launch<T: ChainValue>(
    kernel: ThroughputKernel,
    out: &mut DeviceBuffer<T>,
    params: ChainParams<T>,
    iterations: u32,
    blocks: u32,
) -> Result<(Signature<ChainArgs<T>>, LaunchShape, ChainArgs<T>)> {
    let Some(signature) = T::signature(kernel).filter(|_| T::carries(kernel.element())) else {
        return Err(invalid(
            kernel,
            format!(
                "its chains are {:?}, not {}",
                kernel.element(),
                std::any::type_name::<T>()
            ),
        ));
    };
    let shape = throughput_shape(kernel, blocks, out.len(), params.a.unsigned_operand())?;
    let ChainParams { start, step, a, b } = params;
    Ok((signature, shape, (out.as_global_mut(), start, step, a, b, iterations)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_conversion_kernel_refuses_grids_whose_chains_leave_i32() {
        let blocks = (CONVERT_MOST_THREADS / THROUGHPUT_BLOCK_THREADS as u64) as u32;
        let len = usize::MAX;
        assert!(throughput_shape(ThroughputKernel::Convert, blocks, len, None).is_ok());
        let why = throughput_shape(ThroughputKernel::Convert, blocks + 1, len, None).unwrap_err();
        assert!(why.to_string().contains("below 2^31"), "{why}");
        assert!(throughput_shape(ThroughputKernel::F32Add, blocks + 1, len, None).is_ok());
    }

    /// Each kernel's signature is found through the one chain type that carries its element, under its entry name.
    #[test]
    fn every_kernel_has_its_signature_in_the_type_that_carries_it() {
        fn name<T: ChainValue>(kernel: ThroughputKernel) -> Option<&'static str> {
            T::signature(kernel).map(|signature| signature.name)
        }
        for kernel in ThroughputKernel::ALL
            .into_iter()
            .chain(ThroughputKernel::MATH_FUNCTIONS)
            .chain(ThroughputKernel::SQRT_COMPARE_CONVERT)
        {
            let found: Vec<(&str, bool)> = [
                (name::<f32>(kernel), f32::carries(kernel.element())),
                (name::<f64>(kernel), f64::carries(kernel.element())),
                (name::<i32>(kernel), i32::carries(kernel.element())),
                (name::<u32>(kernel), u32::carries(kernel.element())),
            ]
            .into_iter()
            .filter_map(|(name, carries)| name.map(|n| (n, carries)))
            .collect();
            assert_eq!(found, [(kernel.entry(), true)], "{kernel:?}");
        }
    }
}

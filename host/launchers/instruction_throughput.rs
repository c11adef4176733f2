use std::ffi::c_void;

use kernels_gpu::device::Dim3;
use kernels_gpu::instruction_throughput::{
    ChainElement, ChainParams, THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel,
};

use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, DeviceCopy, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// Host types that carry a throughput kernel's chains: `f32`, `f64`, `i32`,
/// and `u32` (for the integer kernels and for packed `f16x2` pairs).
pub trait ChainValue: DeviceCopy {
    /// Whether a kernel whose chains are `element`s takes this type.
    fn carries(element: ChainElement) -> bool;

    /// The value as an unsigned count (a divisor or a shift), for `u32`.
    fn unsigned_operand(self) -> Option<u32> {
        None
    }
}

impl ChainValue for f32 {
    fn carries(element: ChainElement) -> bool {
        element == ChainElement::F32
    }
}

impl ChainValue for f64 {
    fn carries(element: ChainElement) -> bool {
        element == ChainElement::F64
    }
}

impl ChainValue for i32 {
    fn carries(element: ChainElement) -> bool {
        element == ChainElement::I32
    }
}

impl ChainValue for u32 {
    fn carries(element: ChainElement) -> bool {
        matches!(element, ChainElement::U32 | ChainElement::F16x2)
    }

    fn unsigned_operand(self) -> Option<u32> {
        Some(self)
    }
}

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
    if !T::carries(kernel.element()) {
        return Err(invalid(
            kernel,
            format!(
                "its chains are {:?}, not {}",
                kernel.element(),
                std::any::type_name::<T>()
            ),
        ));
    }
    let shape = throughput_shape(kernel, blocks, out.len(), params.a.unsigned_operand())?;
    let function = dut.kernel(implementation, kernel.entry())?;
    let mut pointer = out.as_global_mut();
    let ChainParams {
        mut start,
        mut step,
        mut a,
        mut b,
    } = params;
    let mut iterations = iterations;
    let mut args = [
        (&raw mut pointer).cast::<c_void>(),
        (&raw mut start).cast::<c_void>(),
        (&raw mut step).cast::<c_void>(),
        (&raw mut a).cast::<c_void>(),
        (&raw mut b).cast::<c_void>(),
        (&raw mut iterations).cast::<c_void>(),
    ];
    // SAFETY: (T*, T, T, T, T, unsigned) is every throughput kernel's parameter list with T its element type
    // (checked above); the shape check proved the output holds every chain's value.
    unsafe { function.launch(dut.gpu().stream(), shape, &mut args) }
}

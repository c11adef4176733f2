//! The loop-counter family (Best Practices Guide §6.3): the kernels' counter
//! types ([`LoopCounter`]), the typed, bounds-checked launcher
//! ([`loop_counter`]) and its shape check, and the family's runners, one per
//! programming model ([`LoopCounterRunner`], chosen by
//! [`loop_counter_runners`]; the kernels have CUDA C twins and no OpenCL C
//! twins yet).

mod cuda_runner;
mod runner;

pub use cuda_runner::CudaLoopCounterRunner;
pub use runner::{LoopCounterRunner, StridedLoop, loop_counter_grid, loop_counter_runners};

use kernels_gpu::device::{Dim3, KernelSignature};
use kernels_gpu::loop_counters::{
    LOOP_COUNTER_BLOCK_THREADS, loop_counter_i32_params, loop_counter_i32_unchecked_params, loop_counter_u32_params,
    loop_counter_usize_params,
};

use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The loop counter (and index arithmetic) of a §6.3 kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopCounter {
    /// `i32`, wrapping arithmetic (Rust's `+` and `*`); C twin: `int`.
    I32,
    /// `u32`, wrapping; C twin: `unsigned`.
    U32,
    /// `usize`; C twin: `unsigned long long` (`size_t`).
    Usize,
    /// `i32` with `unchecked_*` arithmetic (overflow undefined); C twin: `int`.
    I32Unchecked,
}

impl LoopCounter {
    pub const ALL: [Self; 4] = [Self::I32, Self::U32, Self::Usize, Self::I32Unchecked];

    pub fn kernel(self) -> &'static str {
        match self {
            Self::I32 => loop_counter_i32_params::NAME,
            Self::U32 => loop_counter_u32_params::NAME,
            Self::Usize => loop_counter_usize_params::NAME,
            Self::I32Unchecked => loop_counter_i32_unchecked_params::NAME,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::I32 => "i32 (wrapping)",
            Self::U32 => "u32 (wrapping)",
            Self::Usize => "usize",
            Self::I32Unchecked => "i32 (unchecked, C's int)",
        }
    }

    /// The largest index value the counter's type holds.
    fn index_limit(self) -> u64 {
        match self {
            Self::I32 | Self::I32Unchecked => i32::MAX as u64,
            Self::U32 => u32::MAX as u64,
            Self::Usize => isize::MAX as u64,
        }
    }
}

/// Checks a loop-counter launch: `blocks` blocks of
/// [`LOOP_COUNTER_BLOCK_THREADS`], each thread `t` copying
/// `inp[offset + t + stride·i]` to `out[t + stride·i]` for `i < n`. `stride`
/// must be at least the thread count (columns do not overlap), every index
/// must fit the counter's type without wrapping, and the buffers must hold
/// the last ones.
pub fn loop_counter_shape(
    counter: LoopCounter,
    blocks: u32,
    (n, offset, stride): (u64, u64, u64),
    out_len: usize,
    in_len: usize,
) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch {
        kernel: counter.kernel(),
        reason,
    };
    if blocks == 0 || blocks > i32::MAX as u32 {
        return Err(invalid(format!("{blocks} blocks is not a valid 1-D grid")));
    }
    let threads = blocks as u64 * LOOP_COUNTER_BLOCK_THREADS as u64;
    if n == 0 {
        return Err(invalid("n = 0 copies nothing".into()));
    }
    if stride < threads {
        return Err(invalid(format!(
            "stride {stride} is below the {threads} threads: columns would overlap"
        )));
    }
    let last_out = stride
        .checked_mul(n - 1)
        .and_then(|s| s.checked_add(threads - 1))
        .ok_or_else(|| invalid(format!("stride {stride} × n {n} overflows")))?;
    let last_in = last_out
        .checked_add(offset)
        .ok_or_else(|| invalid(format!("offset {offset} overflows")))?;
    if last_in > counter.index_limit() {
        return Err(invalid(format!(
            "index {last_in} does not fit the {} counter's type",
            counter.label()
        )));
    }
    if last_out >= out_len as u64 || last_in >= in_len as u64 {
        return Err(invalid(format!(
            "the loop writes up to element {last_out} of {out_len} and reads up to {last_in} of {in_len}"
        )));
    }
    Ok(LaunchShape {
        grid: Dim3::x(blocks),
        block: Dim3::x(LOOP_COUNTER_BLOCK_THREADS),
        shared_bytes: 0,
    })
}

/// Launches the §6.3 loop with `counter`'s type: `n` copies per thread at
/// `offset` and `stride` (in elements).
#[allow(clippy::too_many_arguments)]
pub fn loop_counter(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    counter: LoopCounter,
    out: &mut DeviceBuffer<f32>,
    inp: &DeviceBuffer<f32>,
    blocks: u32,
    (n, offset, stride): (u64, u64, u64),
) -> Result<()> {
    let shape = loop_counter_shape(counter, blocks, (n, offset, stride), out.len(), inp.len())?;
    let (out, inp) = (out.as_global_mut(), inp.as_global());
    // The scalars in the counter's type (32-bit values fit: checked above).
    let (n32, offset32, stride32) = (n as u32, offset as u32, stride as u32);
    let (ni, offseti, stridei) = (n32 as i32, offset32 as i32, stride32 as i32);
    // SAFETY (all arms): the shape check proved every index in bounds and free of overflow in the counter's type.
    match counter {
        LoopCounter::I32 => unsafe {
            dut.launch::<loop_counter_i32_params>(implementation, shape, (out, inp, ni, offseti, stridei))
        },
        LoopCounter::I32Unchecked => unsafe {
            dut.launch::<loop_counter_i32_unchecked_params>(implementation, shape, (out, inp, ni, offseti, stridei))
        },
        LoopCounter::U32 => unsafe {
            dut.launch::<loop_counter_u32_params>(implementation, shape, (out, inp, n32, offset32, stride32))
        },
        LoopCounter::Usize => unsafe {
            let (n, offset, stride) = (n as usize, offset as usize, stride as usize);
            dut.launch::<loop_counter_usize_params>(implementation, shape, (out, inp, n, offset, stride))
        },
    }
}

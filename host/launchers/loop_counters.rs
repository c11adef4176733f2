use std::ffi::c_void;

use kernels_gpu::device::Dim3;
use kernels_gpu::loop_counters::LOOP_COUNTER_BLOCK_THREADS;

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
            Self::I32 => "loop_counter_i32",
            Self::U32 => "loop_counter_u32",
            Self::Usize => "loop_counter_usize",
            Self::I32Unchecked => "loop_counter_i32_unchecked",
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
    let function = dut.kernel(implementation, counter.kernel())?;
    let (mut out_ptr, mut in_ptr) = (out.as_global_mut(), inp.as_global());
    // The scalars in the counter's type: 32-bit for i32/u32 (their values fit, checked above), 64-bit for usize.
    let (mut n32, mut offset32, mut stride32) = (n as u32, offset as u32, stride as u32);
    let (mut n64, mut offset64, mut stride64) = (n, offset, stride);
    let scalars: [*mut c_void; 3] = match counter {
        LoopCounter::Usize => [
            (&raw mut n64).cast(),
            (&raw mut offset64).cast(),
            (&raw mut stride64).cast(),
        ],
        _ => [
            (&raw mut n32).cast(),
            (&raw mut offset32).cast(),
            (&raw mut stride32).cast(),
        ],
    };
    let mut args = [
        (&raw mut out_ptr).cast::<c_void>(),
        (&raw mut in_ptr).cast::<c_void>(),
        scalars[0],
        scalars[1],
        scalars[2],
    ];
    // SAFETY: matches (float*, const float*, T n, T offset, T stride) with T the counter's type (32-bit values fit:
    // checked); the shape check proved every index in bounds and free of overflow in T.
    unsafe { function.launch(dut.gpu().stream(), shape, &mut args) }
}

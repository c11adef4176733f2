use kernels_gpu::loop_counters::LOOP_COUNTER_BLOCK_THREADS;

use super::{CudaLoopCounterRunner, LoopCounter};
use crate::error::Result;
use crate::launchers::twin_waivers::cuda_twins_plan;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// The §6.3 loop as every launch of a run runs it: `blocks` blocks of
/// [`LOOP_COUNTER_BLOCK_THREADS`], each thread `t` copying
/// `in[offset + t + stride·i]` to `out[t + stride·i]` for `i < n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StridedLoop {
    pub blocks: u32,
    pub n: u64,
    pub offset: u64,
    pub stride: u64,
}

/// One programming model's side of the loop-counter family: the input it
/// was given and an output of its own, the loop of [`StridedLoop`] launched
/// with each counter's kernel, timed by its own clock.
pub trait LoopCounterRunner {
    /// The implementations whose kernels it launches.
    fn implementations(&self) -> &[Implementation];
    /// Fills the output with NaN (so an element the loop skips fails the check).
    fn clear_output(&mut self) -> Result<()>;
    /// Enqueues one launch of `counter`'s kernel by `implementation` (the counters pass's).
    fn launch(&mut self, implementation: Implementation, counter: LoopCounter) -> Result<()>;
    /// Per-launch milliseconds of each sample of `counter`'s kernel by
    /// `implementation` ([`timed_launches`](crate::timing::timed_launches): probed, paced, warmed up).
    fn time(
        &mut self,
        implementation: Implementation,
        counter: LoopCounter,
        settings: &RunSettings,
    ) -> Result<Vec<f64>>;
    /// The whole output, as the last launch left it.
    fn read_output(&self) -> Result<Vec<f32>>;
}

/// The blocks of the family's grid on `dut`: one full wave of the Rust
/// `i32` kernel, which every implementation's loop runs (the plan's sizes
/// follow from it).
pub fn loop_counter_grid(dut: &DeviceUnderTest) -> Result<u32> {
    let first = dut.kernel(Implementation::Rust, LoopCounter::I32.kernel())?;
    dut.full_wave_blocks(first, LOOP_COUNTER_BLOCK_THREADS)
}

/// Every runner of the family on `dut`, each given `input` and an output of
/// `out_len` elements for the loop `copy`: the one place a programming model
/// is added. Returns the runners (the PTX implementations') and, for each
/// selected set of twins left out, what and why.
#[allow(clippy::type_complexity)]
pub fn loop_counter_runners<'a>(
    dut: &'a DeviceUnderTest,
    copy: StridedLoop,
    input: &[f32],
    out_len: usize,
) -> Result<(Vec<Box<dyn LoopCounterRunner + 'a>>, Vec<(String, String)>)> {
    let (implementations, waived) = cuda_twins_plan(dut.ptx_implementations());
    let runner = CudaLoopCounterRunner::new(dut, implementations, copy, input, out_len)?;
    Ok((vec![Box::new(runner)], waived))
}

//! One-block `fma_chain` kernels fanned out over streams (in-order queues):
//! how long `k` short kernels take tells whether the GPU ran them one after
//! another or side by side. The runners of `concurrent-kernels` and
//! `default-stream`, one per programming model ([`FanOutRunner`]).

use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use super::runner::opencl_plan;
use super::{CudaFanOutRunner, OpenClFanOutRunner};
use crate::error::Result;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// Dependent FMAs per thread of one kernel: about half a millisecond for one
/// 256-thread block on an H100 (4-cycle FMA latency), long against a launch.
pub const FAN_ITERATIONS: u32 = 200_000;

/// Elements (threads) per kernel: one block.
pub const FAN_BLOCK: usize = COPY_BLOCK_THREADS as usize;

/// The byte the memsets between the kernels write (into a word of their own).
pub const FAN_MARK: u8 = 0x5a;

/// One fan-out: `kernels` one-block kernels, kernel `k` on lane `k % lanes`
/// over its own block of the buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FanOut {
    pub kernels: usize,
    pub lanes: usize,
}

/// What a runner's lanes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// CUDA streams, forked from and joined back to the device's stream, where the timing events are.
    Streams,
    /// OpenCL in-order queues, flushed, then finished, inside host-clock samples.
    InOrderQueues,
}

/// How a CUDA stream of a fan-out orders its work against the default streams (Best Practices Guide §3.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FanStream {
    /// Never synchronizes with the legacy default stream.
    NonBlocking,
    /// Created with the default flags: waits for, and is waited for by, the legacy default stream.
    Blocking,
    /// The legacy default (NULL) stream.
    LegacyDefault,
    /// The per-thread default stream (nvcc's `--default-stream per-thread`).
    PerThreadDefault,
}

/// One programming model's side of the fan-out: its lanes, a buffer of one
/// block per kernel and its clock.
pub trait FanOutRunner {
    /// Whose `fma_chain` it launches.
    fn implementation(&self) -> Implementation;
    /// What its lanes are.
    fn lanes(&self) -> Lanes;
    /// Fills the kernels' buffer with 0 (and the memsets' word).
    fn clear(&mut self) -> Result<()>;
    /// Per-fan-out milliseconds of each sample of `fan`
    /// ([`timed_launches`](crate::timing::timed_launches): probed, paced, warmed up).
    fn time(&mut self, fan: FanOut, settings: &RunSettings) -> Result<Vec<f64>>;
    /// The kernels' buffer, once the work is done.
    fn read(&mut self) -> Result<Vec<f32>>;
}

/// Every runner of the fan-out on `dut`, each with lanes and blocks for up
/// to `kernels` kernels: the one place a programming model is added.
/// Returns the runners (the PTX implementations', Rust first, then the
/// OpenCL C twin's) and, for each selected implementation left out, why
/// (CUDA C's first).
#[allow(clippy::type_complexity)]
pub fn fan_out_runners(
    dut: &DeviceUnderTest,
    kernels: usize,
) -> Result<(Vec<Box<dyn FanOutRunner + '_>>, Vec<(Implementation, String)>)> {
    let (implementations, cuda_c_waived) = dut.ptx_implementations();
    let (side, opencl_waived) = opencl_plan(dut.opencl_or_waiver());
    let mut waived: Vec<(Implementation, String)> = cuda_c_waived
        .into_iter()
        .map(|why| (Implementation::CudaC, why))
        .collect();
    waived.extend(opencl_waived);
    let mut runners: Vec<Box<dyn FanOutRunner + '_>> = Vec::new();
    for implementation in implementations {
        let runner = CudaFanOutRunner::new(dut, implementation, kernels, FanStream::NonBlocking)?;
        runners.push(Box::new(runner));
    }
    if let Some(side) = side {
        runners.push(Box::new(OpenClFanOutRunner::new(
            side.context(),
            side.twins(),
            kernels,
        )?));
    }
    Ok((runners, waived))
}

/// Checks that `fan` fits `lanes` lanes and `blocks` blocks of buffer.
pub(super) fn check_fan(fan: FanOut, lanes: usize, blocks: usize) -> Result<()> {
    if fan.lanes == 0 || fan.lanes > lanes || fan.kernels > blocks {
        return Err(crate::error::Error::InvalidLaunch {
            kernel: "fma_chain",
            reason: format!(
                "{} kernels over {} lanes; the runner has {lanes} lanes and {blocks} blocks",
                fan.kernels, fan.lanes
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{FanOut, check_fan};

    #[test]
    fn a_fan_out_must_fit_the_lanes_and_the_buffer() {
        assert!(check_fan(FanOut { kernels: 16, lanes: 16 }, 16, 16).is_ok());
        assert!(check_fan(FanOut { kernels: 4, lanes: 1 }, 16, 16).is_ok());
        assert!(check_fan(FanOut { kernels: 4, lanes: 0 }, 16, 16).is_err(), "no lane");
        assert!(
            check_fan(FanOut { kernels: 4, lanes: 17 }, 16, 16).is_err(),
            "more lanes than made"
        );
        assert!(
            check_fan(FanOut { kernels: 17, lanes: 16 }, 16, 16).is_err(),
            "more kernels than blocks"
        );
    }
}

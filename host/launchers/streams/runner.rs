use kernels_gpu::device::KernelSignature;
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;
use kernels_gpu::streams::fma_chain_params;

use super::{CudaStagedRunner, OpenClStagedRunner};
use crate::error::Result;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// How the staged pipeline's uploads are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UploadOrder {
    /// Listing 3.3b as written: every stream's upload free to start at once. A GPU with several copy
    /// engines may run the uploads side by side, sharing the link, so that the first chunk (and its
    /// kernel) arrives late: the guide's model assumes one chunk on the link at a time.
    AsListed,
    /// Each upload after the previous chunk's: the uploads one after another on one upload stream,
    /// each chunk's kernel on its stream after its upload's event. The link carries the chunks one at
    /// a time, in order, and each kernel starts as its chunk lands (CUDA only).
    Chained,
}

impl UploadOrder {
    pub const ALL: [Self; 2] = [Self::AsListed, Self::Chained];
}

/// The host memory the pipeline uploads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostMemory {
    /// Page-locked memory: CUDA's pinned buffer, OpenCL's mapped `CL_MEM_ALLOC_HOST_PTR` buffer.
    PageLocked,
    /// Ordinary (pageable) host memory: OpenCL's plain `clEnqueueWriteBuffer` from a `Vec`.
    Ordinary,
}

/// One piece of work on the array of the staged pipeline (`fma_chain`,
/// at most one full wave of 256-thread blocks or work-groups per launch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipelineStep {
    /// The whole array uploaded from `memory`, on one stream (queue).
    Upload(HostMemory),
    /// `fma_chain` with these iterations over the whole array, on one stream (queue).
    Kernel(u32),
    /// Listing 3.3a: the whole upload from page-locked memory, then the kernel with these iterations, on one stream.
    Sequential(u32),
    /// Listing 3.3b: the array cut into `streams` chunks ([`chunk_ranges`](super::chunk_ranges), whole
    /// blocks of 256), each uploaded from `memory` and processed on a stream (queue) of its own.
    Staged {
        streams: u32,
        order: UploadOrder,
        memory: HostMemory,
        iterations: u32,
    },
}

/// One programming model's side of the staged copy-and-execute pipeline,
/// with its own host and device copies of the array, its streams (queues)
/// and its clock. Each timed piece of work is waited for inside its sample,
/// so consecutive runs never overlap.
pub trait StagedRunner {
    /// Whose `fma_chain` it launches.
    fn implementation(&self) -> Implementation;
    /// What it runs on, for the notes.
    fn device_name(&self) -> String;
    /// Makes the host and device arrays of `source.len()` floats, the host ones holding `source`, and the
    /// streams (queues) and events of the pipeline: before any timing.
    fn prepare(&mut self, source: &[f32]) -> Result<()>;
    /// Enqueues `step` once, without waiting for it.
    fn enqueue(&mut self, step: PipelineStep) -> Result<()>;
    /// Waits for everything enqueued.
    fn wait(&mut self) -> Result<()>;
    /// The time of one run of `step` after a warm-up, in milliseconds ([`probe_ms`](crate::timing::probe_ms)).
    fn probe_ms(&mut self, step: PipelineStep) -> Result<f64>;
    /// Per-run milliseconds of each sample of `step`, probed, paced and warmed up as
    /// [`timed_launches`](crate::timing::timed_launches), each run waited for before the next is enqueued
    /// (as [`Self::time_runs_ms`]).
    fn time(&mut self, step: PipelineStep, settings: &RunSettings) -> Result<Vec<f64>>;
    /// The milliseconds of `runs` runs of `step`, each timed alone and waited for before the next is
    /// enqueued (no warm-up): the pipeline's time from an idle GPU, as the guide's model describes one run.
    fn time_runs_ms(&mut self, step: PipelineStep, runs: u32) -> Result<f64>;
    /// Fills the device array with `value` (so that an element the pipeline misses fails the check).
    fn fill_data(&mut self, value: f32) -> Result<()>;
    /// The device array.
    fn read_data(&mut self) -> Result<Vec<f32>>;
}

/// Every runner of the pipeline on `dut`, with up to `max_streams` streams
/// (queues): the one place a programming model is added. Returns the runners
/// (Rust's first, then the OpenCL C twin's) and, for each selected
/// implementation left out, why.
#[allow(clippy::type_complexity)]
pub fn staged_runners(
    dut: &DeviceUnderTest,
    max_streams: u32,
) -> Result<(Vec<Box<dyn StagedRunner + '_>>, Vec<(Implementation, String)>)> {
    let (side, waived) = opencl_plan(dut.opencl_or_waiver());
    let mut runners: Vec<Box<dyn StagedRunner + '_>> = vec![Box::new(CudaStagedRunner::new(dut, max_streams))];
    if let Some(side) = side {
        // The OpenCL C twin launches the Rust kernel's grid: OpenCL reports no occupancy.
        let rust = dut.kernel(Implementation::Rust, fma_chain_params::NAME)?;
        let wave = dut.full_wave_blocks(rust, COPY_BLOCK_THREADS)?;
        runners.push(Box::new(OpenClStagedRunner::new(
            side.context(),
            side.twins(),
            max_streams,
            wave,
        )));
    }
    Ok((runners, waived))
}

/// The OpenCL side the streams family runs on, if any, and the waiver where
/// OpenCL was selected but is missing (none where it was not selected).
pub(super) fn opencl_plan<S>((side, why): (Option<S>, Option<String>)) -> (Option<S>, Vec<(Implementation, String)>) {
    let waived = match (&side, why) {
        (None, Some(why)) => vec![(Implementation::OpenClC, why)],
        _ => Vec::new(),
    };
    (side, waived)
}

#[cfg(test)]
mod tests {
    use super::opencl_plan;
    use crate::testbed::Implementation;

    #[test]
    fn opencl_runs_where_it_is_and_is_waived_only_where_selected_but_missing() {
        assert_eq!(opencl_plan((Some("side"), None)), (Some("side"), vec![]));
        assert_eq!(
            opencl_plan((None::<&str>, Some("no OpenCL loader".into()))),
            (None, vec![(Implementation::OpenClC, "no OpenCL loader".to_string())])
        );
        assert_eq!(
            opencl_plan((None::<&str>, None)),
            (None, vec![]),
            "--impl without OpenCL"
        );
    }
}

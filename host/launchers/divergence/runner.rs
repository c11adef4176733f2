use kernels_gpu::divergence::DIVERGENCE_BLOCK_THREADS;

use super::{CudaDivergenceRunner, OpenClDivergenceRunner, paths_kernel};
use crate::error::Result;
use crate::reference::{BranchLength, PathChoice};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One launch of the family: a paths kernel with its number of distinct
/// paths per warp, or an if/else kernel with its select mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlFlow {
    Paths(PathChoice, u32),
    Branch(BranchLength, u32),
}

/// One implementation's side of the control-flow family: its kernels
/// launched over one full wave of blocks (work-groups) of
/// [`DIVERGENCE_BLOCK_THREADS`], one float out per thread, into an output
/// buffer of its own, timed by its own clock.
pub trait DivergenceRunner {
    /// Whose kernels it launches.
    fn implementation(&self) -> Implementation;
    /// The blocks (work-groups) of every launch.
    fn blocks(&self) -> u32;
    /// Enqueues one launch of `what` with `iterations` rounds.
    fn launch(&mut self, what: ControlFlow, iterations: u32) -> Result<()>;
    /// The time of one launch of `what` after a warm-up, in milliseconds
    /// ([`probe_ms`](crate::timing::probe_ms): a calibration probe).
    fn probe_ms(&mut self, what: ControlFlow, iterations: u32) -> Result<f64>;
    /// Per-launch milliseconds of each sample of `what`
    /// ([`timed_launches`](crate::timing::timed_launches): probed, paced, warmed up).
    fn time(&mut self, what: ControlFlow, iterations: u32, settings: &RunSettings) -> Result<Vec<f64>>;
    /// Fills the output with NaN (so a thread that stores nothing fails the check).
    fn clear_output(&mut self) -> Result<()>;
    /// The output of the first `threads` threads.
    fn read_output(&self, threads: u32) -> Result<Vec<f32>>;
    /// What its compiler made of the kernels' loops, for the result's setup, if the model says anything.
    fn setup(&self) -> Option<String>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners (Rust, CUDA C where its twins loaded, then
/// OpenCL C) and, for each selected implementation left out, why.
#[allow(clippy::type_complexity)]
pub fn divergence_runners(
    dut: &DeviceUnderTest,
) -> Result<(Vec<Box<dyn DivergenceRunner + '_>>, Vec<(Implementation, String)>)> {
    let (cuda, opencl, waived) = runner_plan(dut.ptx_implementations(), dut.opencl_or_waiver());
    // The OpenCL C twins launch the Rust kernel's grid: OpenCL reports no occupancy.
    let rust_blocks = full_wave_blocks(dut, Implementation::Rust)?;
    let mut runners: Vec<Box<dyn DivergenceRunner + '_>> = Vec::new();
    for implementation in cuda {
        let blocks = full_wave_blocks(dut, implementation)?;
        runners.push(Box::new(CudaDivergenceRunner::new(dut, implementation, blocks)?));
    }
    if let Some(side) = opencl {
        let runner = OpenClDivergenceRunner::new(side.context(), side.queue(), side.twins(), rust_blocks)?;
        runners.push(Box::new(runner));
    }
    Ok((runners, waived))
}

/// Which runners [`divergence_runners`] builds from what the device offers:
/// the CUDA implementations (PTX modules loaded, and why CUDA C's did not
/// load where it was selected) and the OpenCL side (or why there is none
/// where OpenCL was selected). Returns the CUDA implementations, the OpenCL
/// side if any, and the waivers, CUDA C's first.
#[allow(clippy::type_complexity)]
pub(super) fn runner_plan<S>(
    (ptx, ptx_waived): (Vec<Implementation>, Vec<String>),
    opencl: (Option<S>, Option<String>),
) -> (Vec<Implementation>, Option<S>, Vec<(Implementation, String)>) {
    let mut waived: Vec<(Implementation, String)> =
        ptx_waived.into_iter().map(|why| (Implementation::CudaC, why)).collect();
    let side = match opencl {
        (Some(side), _) => Some(side),
        (None, Some(why)) => {
            waived.push((Implementation::OpenClC, why));
            None
        }
        (None, None) => None,
    };
    (ptx, side, waived)
}

/// The blocks of one full wave of `implementation`'s paths kernel.
fn full_wave_blocks(dut: &DeviceUnderTest, implementation: Implementation) -> Result<u32> {
    let kernel = dut.kernel(implementation, paths_kernel(PathChoice::ByLane))?;
    dut.full_wave_blocks(kernel, DIVERGENCE_BLOCK_THREADS)
}

#[cfg(test)]
mod tests {
    use super::runner_plan;
    use crate::testbed::Implementation::{CudaC, OpenClC, Rust};

    #[test]
    fn the_plan_runs_what_loaded_and_waives_what_was_selected_but_missing() {
        // Everything here: Rust, CUDA C and OpenCL C, nothing waived.
        let (cuda, side, waived) = runner_plan((vec![Rust, CudaC], vec![]), (Some("side"), None));
        assert_eq!((cuda, side, waived), (vec![Rust, CudaC], Some("side"), vec![]));
        // NVRTC missing and OpenCL selected but absent: both waived, CUDA C's first.
        let (cuda, side, waived) = runner_plan(
            (vec![Rust], vec!["no NVRTC".into()]),
            (None::<&str>, Some("no OpenCL loader".into())),
        );
        assert_eq!(cuda, vec![Rust]);
        assert_eq!(side, None);
        assert_eq!(
            waived,
            vec![
                (CudaC, "no NVRTC".to_string()),
                (OpenClC, "no OpenCL loader".to_string())
            ]
        );
        // OpenCL not selected (`--impl rust,cuda-c`): no runner and no waiver.
        let (cuda, side, waived) = runner_plan((vec![Rust, CudaC], vec![]), (None::<&str>, None));
        assert_eq!((cuda.len(), side, waived.len()), (2, None, 0));
    }
}

use super::{CudaFmaChainRunner, FmaChainGrid, OpenClFmaChainRunner};
use crate::error::Result;
use crate::launchers::twin_waivers::twin_waivers;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One implementation's side of the execution-configuration family: its
/// `fma_chain` over an array of its own, launched in grids of any
/// [`FmaChainGrid`] its model has, timed by its own clock.
pub trait FmaChainRunner {
    /// Whose `fma_chain` it launches.
    fn implementation(&self) -> Implementation;
    /// Makes the array: `elements` floats, their values unset (replaces any earlier array).
    fn allocate(&mut self, elements: usize) -> Result<()>;
    /// Writes `values` (as many as the array holds) into the array.
    fn write(&mut self, values: &[f32]) -> Result<()>;
    /// Sets every element of the array to `value`.
    fn fill(&mut self, value: f32) -> Result<()>;
    /// Enqueues one launch of `iterations` dependent FMAs per element over the whole array, shaped by `grid`.
    fn launch(&mut self, grid: FmaChainGrid, iterations: u32) -> Result<()>;
    /// Per-launch milliseconds of each sample of that launch
    /// ([`timed_launches`](crate::timing::timed_launches): probed, paced, warmed up).
    fn time(&mut self, grid: FmaChainGrid, iterations: u32, settings: &RunSettings) -> Result<Vec<f64>>;
    /// The array, once everything enqueued has finished.
    fn read(&mut self) -> Result<Vec<f32>>;
}

/// The runners of the implementations in `wanted` on `dut` (the Rust kernel,
/// its CUDA C twin, the OpenCL C twin; others have no `fma_chain`): the one
/// place a programming model is added. Returns the runners (the PTX
/// implementations' in `wanted`'s order, then OpenCL C's) and, for each
/// wanted and selected set of twins left out, what and why.
#[allow(clippy::type_complexity)]
pub fn fma_chain_runners<'a>(
    dut: &'a DeviceUnderTest,
    wanted: &[Implementation],
) -> Result<(Vec<Box<dyn FmaChainRunner + 'a>>, Vec<(String, String)>)> {
    let (cuda, opencl, waived) = runner_plan(wanted, dut.ptx_implementations(), dut.opencl_or_waiver());
    let mut runners: Vec<Box<dyn FmaChainRunner + 'a>> = Vec::new();
    for implementation in cuda {
        runners.push(Box::new(CudaFmaChainRunner::new(dut, implementation)?));
    }
    if let Some(side) = opencl {
        runners.push(Box::new(OpenClFmaChainRunner::new(
            side.context(),
            side.queue(),
            side.twins(),
        )));
    }
    Ok((runners, waived))
}

/// Which runners [`fma_chain_runners`] builds for `wanted` from what the
/// device offers: the wanted PTX implementations that loaded, the OpenCL
/// side if OpenCL C is wanted and there, and the waivers of the wanted twins
/// left out ([`twin_waivers`]: CUDA C's first).
#[allow(clippy::type_complexity)]
pub(super) fn runner_plan<S>(
    wanted: &[Implementation],
    (ptx, ptx_waived): (Vec<Implementation>, Vec<String>),
    (side, opencl_waived): (Option<S>, Option<String>),
) -> (Vec<Implementation>, Option<S>, Vec<(String, String)>) {
    let cuda: Vec<Implementation> = wanted.iter().copied().filter(|i| ptx.contains(i)).collect();
    let cuda_c_waived = if wanted.contains(&Implementation::CudaC) {
        ptx_waived
    } else {
        Vec::new()
    };
    let opencl = wanted.contains(&Implementation::OpenClC);
    let waived = twin_waivers(cuda_c_waived, opencl_waived.filter(|_| opencl));
    (cuda, side.filter(|_| opencl), waived)
}

#[cfg(test)]
mod tests {
    use super::runner_plan;
    use crate::testbed::Implementation::{CudaC, OpenClC, Rust};

    #[test]
    fn the_plan_runs_what_is_wanted_and_there_and_waives_what_is_wanted_and_missing() {
        // §4.4's grids: the Rust kernel alone, whatever else is there or missing.
        let (cuda, side, waived) = runner_plan(
            &[Rust],
            (vec![Rust], vec!["no NVRTC".into()]),
            (None::<&str>, Some("no OpenCL loader".into())),
        );
        assert_eq!((cuda, side, waived), (vec![Rust], None, vec![]));
        let (cuda, side, waived) = runner_plan(&[Rust], (vec![Rust, CudaC], vec![]), (Some("side"), None));
        assert_eq!((cuda, side, waived), (vec![Rust], None, vec![]));
        // OpenCL's work-group sizes: the OpenCL C twin alone.
        let (cuda, side, waived) = runner_plan(&[OpenClC], (vec![Rust, CudaC], vec![]), (Some("side"), None));
        assert_eq!((cuda, side, waived), (vec![], Some("side"), vec![]));
        let (cuda, side, waived) = runner_plan(
            &[OpenClC],
            (vec![Rust], vec!["no NVRTC".into()]),
            (None::<&str>, Some("no OpenCL loader".into())),
        );
        assert_eq!(cuda, vec![]);
        assert_eq!(side, None);
        assert_eq!(
            waived,
            vec![("OpenCL C twins".to_string(), "no OpenCL loader".to_string())]
        );
        // Every implementation wanted: those there run in the wanted order, the missing twins are waived.
        let (cuda, side, waived) = runner_plan(
            &[CudaC, Rust, OpenClC],
            (vec![Rust], vec!["no NVRTC".into()]),
            (None::<&str>, Some("no OpenCL loader".into())),
        );
        assert_eq!((cuda, side), (vec![Rust], None));
        assert_eq!(
            waived,
            vec![
                ("CUDA C twins".to_string(), "no NVRTC".to_string()),
                ("OpenCL C twins".to_string(), "no OpenCL loader".to_string())
            ]
        );
        let (cuda, _, _) = runner_plan(&[CudaC, Rust], (vec![Rust, CudaC], vec![]), (None::<&str>, None));
        assert_eq!(cuda, vec![CudaC, Rust]);
    }
}

use std::sync::Arc;

use kernels_gpu::instruction_throughput::ThroughputKernel;

use super::{
    AnyChainParams, ChainValues, CudaThroughputRunner, OpenClThroughputRunner, build_throughput_twins,
    throughput_wave_blocks,
};
use crate::error::Result;
use crate::launchers::twin_waivers::twin_waivers;
use crate::run_settings::RunSettings;
use crate::sass::{SassModule, SassWaived};
use crate::testbed::{DeviceUnderTest, FAST_MATH_OPTION, Implementation};

/// One launch of a throughput kernel: `blocks` blocks (work-groups) of
/// [`THROUGHPUT_BLOCK_THREADS`](kernels_gpu::instruction_throughput::THROUGHPUT_BLOCK_THREADS),
/// `iterations` rounds of the chains, started from `params` (in the kernel's element type).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainLaunch {
    pub kernel: ThroughputKernel,
    pub params: AnyChainParams,
    pub iterations: u32,
    pub blocks: u32,
}

/// One compiled set of the throughput kernels (an implementation the device
/// loaded, the CUDA C twins built with another option, the OpenCL C twins
/// built with an option): its kernels launched into output buffers of its
/// own, timed by its own clock, their chains read back.
pub trait ThroughputRunner {
    /// Whose kernels it launches.
    fn implementation(&self) -> Implementation;
    /// The compiler option its kernels were built with beyond the suite's
    /// own, the series variant: `""` for the implementations the device loaded.
    fn variant(&self) -> &'static str;
    /// Blocks (work-groups) of one full wave of `kernel` (the OpenCL C twins
    /// launch the Rust kernel's: OpenCL reports no occupancy).
    fn wave_blocks(&self, kernel: ThroughputKernel) -> Result<u32>;
    /// Makes the outputs for launches of up to `threads` threads (replaces any earlier ones).
    fn allocate(&mut self, threads: u32) -> Result<()>;
    /// Enqueues one launch.
    fn launch(&mut self, launch: ChainLaunch) -> Result<()>;
    /// The time of one launch after a warm-up, in milliseconds
    /// ([`probe_ms`](crate::timing::probe_ms): a calibration probe).
    fn probe_ms(&mut self, launch: ChainLaunch) -> Result<f64>;
    /// Per-launch milliseconds of each sample of `launch`
    /// ([`timed_launches`](crate::timing::timed_launches): probed, paced, warmed up).
    fn time(&mut self, launch: ChainLaunch, settings: &RunSettings) -> Result<Vec<f64>>;
    /// The chains of the first `first` threads of the last launch of
    /// `kernel` on `blocks` blocks, at `c · first + t` (the CPU references'
    /// layout). Waits for the launch.
    fn read_first_threads(&self, kernel: ThroughputKernel, blocks: u32, first: u32) -> Result<ChainValues>;
    /// Every `f32` chain value of the last launch of an `f32` kernel on
    /// `blocks` blocks (at `c · threads + t`), for comparing two kernels' results.
    fn read_all_f32(&self, blocks: u32) -> Result<Vec<f32>>;
}

/// The runners of the implementations the device loaded (Rust, and the CUDA
/// C twins where they loaded): the one place a programming model of the
/// loaded kernels is added. Returns the runners (Rust first) and, for the
/// selected twins left out, what and why.
#[allow(clippy::type_complexity)]
pub fn throughput_runners(
    dut: &DeviceUnderTest,
) -> Result<(Vec<Box<dyn ThroughputRunner + '_>>, Vec<(String, String)>)> {
    let (ptx, cuda_c_waived) = dut.ptx_implementations();
    let mut runners: Vec<Box<dyn ThroughputRunner + '_>> = Vec::new();
    for implementation in ptx {
        runners.push(Box::new(CudaThroughputRunner::loaded(dut, implementation)?));
    }
    Ok((runners, twin_waivers(cuda_c_waived, None)))
}

/// The SASS of a set of kernels compiled outside the loaded implementations, or why there is none.
pub type CompiledSass = Arc<std::result::Result<SassModule, SassWaived>>;

/// The CUDA C twins compiled once more, alone, with [`FAST_MATH_OPTION`], and
/// their SASS; `None` where CUDA C is not selected, `Some(Err((what, why)))`
/// where NVRTC, the twins or their module are not there.
#[allow(clippy::type_complexity)]
pub fn fast_math_runner(
    dut: &DeviceUnderTest,
) -> Option<std::result::Result<(Box<dyn ThroughputRunner + '_>, CompiledSass), (String, String)>> {
    fast_math_plan(dut.selected().contains(Implementation::CudaC), || {
        CudaThroughputRunner::fast_math(dut).map(|(runner, sass)| (Box::new(runner) as Box<dyn ThroughputRunner>, sass))
    })
}

/// What [`fast_math_runner`] gives: nothing unless CUDA C is `selected`, else
/// what `load` made, or its reason as the fast-math twins' waiver.
pub(super) fn fast_math_plan<T>(
    selected: bool,
    load: impl FnOnce() -> std::result::Result<T, String>,
) -> Option<std::result::Result<T, (String, String)>> {
    if !selected {
        return None;
    }
    Some(load().map_err(|reason| (format!("CUDA C twins with {FAST_MATH_OPTION}"), reason)))
}

/// The OpenCL C twins built with each of `options` on the device's OpenCL
/// side: the one place the OpenCL model is added. Returns the runners (in
/// `options`' order, each launching the Rust kernels' waves) and the
/// waivers: the OpenCL C twins where OpenCL was selected but is missing, else
/// each build that failed, with its log.
#[allow(clippy::type_complexity)]
pub fn opencl_throughput_runners<'a>(
    dut: &'a DeviceUnderTest,
    options: &[&'static str],
) -> (Vec<Box<dyn ThroughputRunner + 'a>>, Vec<(String, String)>) {
    let (side, missing) = dut.opencl_or_waiver();
    let (built, waived) = opencl_plan(side, missing, options, |side, option| {
        build_throughput_twins(side.context(), option).map_err(|e| e.to_string())
    });
    let runners = built
        .into_iter()
        .map(|(side, option, twins)| {
            let rust_waves = Box::new(move |kernel| throughput_wave_blocks(dut, Implementation::Rust, kernel));
            let runner = OpenClThroughputRunner::new((side.context(), side.queue()), twins, option, rust_waves);
            Box::new(runner) as Box<dyn ThroughputRunner + 'a>
        })
        .collect();
    (runners, waived)
}

/// What [`opencl_throughput_runners`] builds: with an OpenCL `side`, each of
/// `options` that `build` builds (the failures waived by option, in order);
/// without one, nothing, and the OpenCL C twins waived where `missing` says why.
#[allow(clippy::type_complexity)]
pub(super) fn opencl_plan<S: Copy, T>(
    side: Option<S>,
    missing: Option<String>,
    options: &[&'static str],
    mut build: impl FnMut(S, &'static str) -> std::result::Result<T, String>,
) -> (Vec<(S, &'static str, T)>, Vec<(String, String)>) {
    let Some(side) = side else {
        return (Vec::new(), twin_waivers(Vec::new(), missing));
    };
    let mut built = Vec::new();
    let mut waived = Vec::new();
    for &option in options {
        match build(side, option) {
            Ok(twins) => built.push((side, option, twins)),
            Err(reason) => waived.push((format!("OpenCL C throughput twins built with {option:?}"), reason)),
        }
    }
    (built, waived)
}

#[cfg(test)]
mod tests {
    use super::{fast_math_plan, opencl_plan};

    #[test]
    fn the_fast_math_twins_are_tried_only_where_cuda_c_is_selected_and_waived_by_name() {
        assert_eq!(fast_math_plan(false, || Ok::<_, String>(1)), None);
        assert_eq!(fast_math_plan(true, || Ok::<_, String>(1)), Some(Ok(1)));
        assert_eq!(
            fast_math_plan(true, || Err::<u8, _>("no NVRTC".to_string())),
            Some(Err((
                "CUDA C twins with -use_fast_math".to_string(),
                "no NVRTC".to_string()
            )))
        );
    }

    #[test]
    fn each_option_that_builds_gets_a_runner_and_each_failure_its_waiver() {
        let options = ["", "-cl-mad-enable", "-cl-fast-relaxed-math"];
        let (built, waived) = opencl_plan(Some("side"), None, &options, |_, option| {
            if option == "-cl-mad-enable" {
                Err("build log".to_string())
            } else {
                Ok(option.len())
            }
        });
        assert_eq!(built, vec![("side", "", 0), ("side", "-cl-fast-relaxed-math", 21)]);
        assert_eq!(
            waived,
            vec![(
                "OpenCL C throughput twins built with \"-cl-mad-enable\"".to_string(),
                "build log".to_string()
            )]
        );
        // No OpenCL: nothing is built; the twins are waived where OpenCL was selected.
        let mut tried = 0;
        let (built, waived) = opencl_plan(None::<&str>, Some("no OpenCL loader".into()), &options, |_, _| {
            tried += 1;
            Ok(())
        });
        assert_eq!((built.len(), tried), (0, 0));
        assert_eq!(
            waived,
            vec![("OpenCL C twins".to_string(), "no OpenCL loader".to_string())]
        );
        let (built, waived) = opencl_plan(None::<&str>, None, &options, |_, _| Ok(()));
        assert!(built.is_empty() && waived.is_empty());
    }
}

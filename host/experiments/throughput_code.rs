//! Measuring one point of a throughput series on its runner, whatever code it
//! launches: the Rust PTX and the CUDA C twins the device loaded, the twins
//! compiled once more with `-use_fast_math`, or the OpenCL C twins built with
//! an option. Shared by `math-functions` and `opencl-arithmetic`, which measure
//! `instructions`' throughput loops (one full wave, 8 chains per thread,
//! rounds calibrated to about [`TARGET_LAUNCH_MS`]) outside its kernel list.

use kernels_gpu::instruction_throughput::{THROUGHPUT_BLOCK_THREADS, THROUGHPUT_CHAINS, ThroughputKernel};

use super::RunContext;
use super::calibrated_launches::calibrate_by_probe;
use super::chain_check::chain_mismatch;
use super::instructions::{ITERATIONS, PER_SM_PER_CLOCK, TARGET_LAUNCH_MS, range_key, throughput_point};
use super::throughput_sass::{self, SASS_CEILING};
use crate::error::Result;
use crate::launchers::{ChainLaunch, ThroughputRunner, suggested_params};
use crate::reference::ArgumentRange;
use crate::report::ceilings::fp32_lanes_per_sm;
use crate::report::{Bound, Point};
use crate::sass::SassModule;

/// The most rounds a launch may run.
const MAX_ITERATIONS: u32 = 1 << 24;
/// The threads whose chains every point checks against the CPU reference.
pub const CHECKED_THREADS: u32 = 64;
/// Every point is measured at small arguments.
pub const SMALL: ArgumentRange = ArgumentRange::Small;
/// Extra figure of each point: the FP32 lanes per SM, a ceiling on
/// operations per clock (no operation measured here issues less than one
/// instruction, and no pipe an SM has runs more than its FP32 lanes' worth).
pub const FP32_LANE_CEILING: &str = "op/clk/SM ceiling: FP32 lanes per SM";

/// The bounds every point's op/clk/SM is checked against: the FP32 lanes,
/// and for straight-line loops what the issue rates of their SASS allow.
pub fn throughput_bounds() -> Vec<Bound> {
    vec![
        Bound::stored(PER_SM_PER_CLOCK, FP32_LANE_CEILING),
        Bound::stored(PER_SM_PER_CLOCK, SASS_CEILING),
    ]
}

/// One point: rounds calibrated, launches timed, the first threads' chains
/// checked against the CPU reference, per-clock figures beside the published
/// ones, and the steady loop's SASS figures where `sass` holds the kernel.
pub fn measure(
    ctx: &RunContext<'_>,
    runner: &mut dyn ThroughputRunner,
    (kernel, blocks): (ThroughputKernel, u32),
    sass: Option<&SassModule>,
) -> Result<Option<Point>> {
    let info = ctx.device.info();
    let hardware = (info.multiprocessors, info.sm_clock_khz, info.compute_capability);
    let params = suggested_params(kernel, SMALL);
    let launch = |iterations| ChainLaunch {
        kernel,
        params,
        iterations,
        blocks,
    };
    let iterations = calibrate_by_probe(TARGET_LAUNCH_MS, MAX_ITERATIONS, &mut |n| runner.probe_ms(launch(n)))?;
    let times = runner.time(launch(iterations), ctx.settings)?;
    let got = runner.read_first_threads(kernel, blocks, CHECKED_THREADS)?;
    let failure = chain_mismatch(kernel, SMALL, params, &got, CHECKED_THREADS, iterations);
    let per_thread = kernel.operations_per_round() as u64 * iterations as u64;
    let operations = blocks as u64 * THROUGHPUT_BLOCK_THREADS as u64 * per_thread;
    debug_assert!(kernel.operations_per_round() as usize >= THROUGHPUT_CHAINS);
    let Some(mut point) = throughput_point(range_key(SMALL), kernel, (operations, &times), hardware, failure) else {
        return Ok(None);
    };
    point.set_extra(ITERATIONS, iterations as f64);
    if let Some(lanes) = fp32_lanes_per_sm(info.compute_capability) {
        point.set_extra(FP32_LANE_CEILING, lanes);
    }
    let found = sass
        .and_then(|m| m.function(kernel.entry()))
        .and_then(|f| throughput_sass::throughput_sass(f, kernel));
    if let Some(s) = found {
        let rate = point.extra.get(PER_SM_PER_CLOCK).copied();
        throughput_sass::record(&mut point, &s, rate, info.architecture());
    }
    Ok(Some(point))
}

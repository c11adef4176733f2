//! What the criterion benchmarks share: the GPU (or a note that they were
//! skipped) and the conversion of a runner's per-launch GPU time into
//! criterion's duration for `iters` launches (`iter_custom`).

use std::time::Duration;

use ptxsuite::Result;
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::{DeviceUnderTest, ImplementationSet};

/// GPU 0 with every implementation, or `None` after printing why the `suite` benchmarks are skipped.
pub fn gpu_or_skip(suite: &str) -> Option<DeviceUnderTest> {
    match DeviceUnderTest::open(CudaOrdinal(0), &ImplementationSet::default()) {
        Ok(dut) => {
            for why in dut.ptx_implementations().1 {
                println!("CUDA C twins skipped: {why}");
            }
            Some(dut)
        }
        Err(e) => {
            println!("{suite} benchmarks skipped: {e}");
            None
        }
    }
}

/// `iters` launches as one sample: the settings a runner's `time` takes for criterion.
pub fn one_sample_of(iters: u64) -> RunSettings {
    RunSettings {
        reps: iters.clamp(1, u32::MAX as u64) as u32,
        samples: 1,
        ..RunSettings::default()
    }
}

/// GPU time of `iters` launches, from a runner's per-launch milliseconds.
pub fn duration_of(iters: u64, per_launch_ms: Result<Vec<f64>>) -> Duration {
    let ms = per_launch_ms.expect("timed launches")[0];
    Duration::from_secs_f64(ms * iters as f64 / 1e3)
}

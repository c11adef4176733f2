use std::time::Duration;

use kernels_gpu::device::Dim3;
use kernels_gpu::diagnostics::spin_wait_params;

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::LaunchShape;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::CudaTimer;

/// The PTX entries of the diagnostics family: the module must define each (gathered with the other
/// families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &["spin_wait"];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    ..Family::NONE
};

/// How long [`held_timer`] holds each sample: long enough to enqueue its
/// launches (`--reps` at most 10000, but paced samples hold about 50 ms of
/// work, and a launch takes a few µs to enqueue: tens under CUPTI).
pub const SAMPLE_HOLD: Duration = Duration::from_millis(1);

/// CUDA events on the suite's stream whose samples start behind a
/// [`SAMPLE_HOLD`] spin ([`CudaTimer::held`]): for the experiments that
/// check the events' time of a launch against its blocks' `clock64` spans,
/// where a launch latency in the events would be counted as the SMs' time.
pub fn held_timer(dut: &DeviceUnderTest) -> Result<CudaTimer<'_>> {
    CudaTimer::held(dut.gpu(), Box::new(move || spin_wait(dut, SAMPLE_HOLD)))
}

/// Launches `spin_wait` for `duration` on the suite's stream: one block of
/// one thread that busy-waits on the GPU's global timer (how the kernel time
/// limit is tested). Returns once it is enqueued.
pub fn spin_wait(dut: &DeviceUnderTest, duration: Duration) -> Result<()> {
    let nanoseconds = u64::try_from(duration.as_nanos()).map_err(|_| Error::InvalidLaunch {
        kernel: "spin_wait",
        reason: format!("{duration:?} does not fit in 64-bit nanoseconds"),
    })?;
    let shape = LaunchShape {
        grid: Dim3::x(1),
        block: Dim3::x(1),
        shared_bytes: 0,
    };
    // SAFETY: the kernel touches no memory.
    unsafe { dut.launch::<spin_wait_params>(Implementation::Rust, shape, (nanoseconds,)) }
}

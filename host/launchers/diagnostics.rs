use std::time::Duration;

use kernels_gpu::device::Dim3;
use kernels_gpu::diagnostics::spin_wait_params;

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::LaunchShape;
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the diagnostics family: the module must define each (gathered with the other
/// families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &["spin_wait"];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    ..Family::NONE
};

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

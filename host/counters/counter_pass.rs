//! The counters pass of one point: one more launch of its kernel, untimed
//! and after its timed samples, under CUPTI's range profiler (replayed as
//! many times as the counters need), on the device's own context.

use super::{Counted, HardwareCounter};
use crate::cupti::CollectError;
use crate::error::{DriverResultExt, Result};
use crate::testbed::{DeviceUnderTest, Testbed};

/// What the counters pass of a point gave.
#[derive(Clone, Debug, PartialEq)]
pub enum CounterOutcome {
    Counted(Counted),
    /// The device has no counters for this run (no CUPTI, no permission, an
    /// unsupported GPU): the reason, for a waiver.
    Off(String),
    /// This collection failed: which CUPTI call, with its code and text.
    Failed(String),
}

/// The counters of one run of `launch` (which enqueues the point's kernel on
/// `dut`'s stream; the pass waits for it) on `dut`.
///
/// Never call it between timed samples: a collection replays the launch and
/// installs CUPTI's hooks for its duration. A failure of the launch itself is
/// the error; CUPTI's failures are the outcome.
pub fn count(
    testbed: &Testbed,
    dut: &DeviceUnderTest,
    launch: &mut dyn FnMut() -> Result<()>,
) -> Result<CounterOutcome> {
    count_traced(testbed, dut, launch, &mut |_| {})
}

/// [`count`], telling `trace` each step of CUPTI's setup and collection.
pub fn count_traced(
    testbed: &Testbed,
    dut: &DeviceUnderTest,
    launch: &mut dyn FnMut() -> Result<()>,
    trace: &mut dyn FnMut(&str),
) -> Result<CounterOutcome> {
    let collector = match testbed.counters() {
        Ok(collector) => collector,
        Err(why) => return Ok(CounterOutcome::Off(why.to_string())),
    };
    let gpu = dut.gpu();
    gpu.context().bind_to_thread().during("cuCtxSetCurrent")?;
    gpu.synchronize()?;
    let metrics = HardwareCounter::metrics();
    let mut workload = || -> Result<()> {
        launch()?;
        gpu.synchronize()
    };
    let ordinal = dut.info().ordinal.0;
    match collector.collect(ordinal, gpu.context().cu_ctx(), &metrics, &mut workload, trace) {
        Ok(collected) => Ok(CounterOutcome::Counted(Counted::of(collected.values, collected.passes))),
        Err(CollectError::Workload(error)) => Err(error),
        Err(CollectError::Cupti(error)) if error.is_waiver() => Ok(CounterOutcome::Off(error.waiver_reason())),
        Err(CollectError::Cupti(error)) => Ok(CounterOutcome::Failed(error.to_string())),
    }
}

use std::sync::Arc;

use cudarc::driver::{CudaEvent, CudaStream, sys};

use super::{Gpu, Watchdog};
use crate::error::{DriverResultExt, Result};

/// A pair of timing events around work on a stream.
///
/// Created with `CU_EVENT_DEFAULT`: cudarc's `new_event(None)` makes events
/// with timing disabled, which `cuEventElapsedTime` rejects.
pub struct EventTimer {
    start: CudaEvent,
    stop: CudaEvent,
    watchdog: Arc<Watchdog>,
}

impl EventTimer {
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        Ok(Self {
            start: gpu.context().new_event(flags).during("cuEventCreate")?,
            stop: gpu.context().new_event(flags).during("cuEventCreate")?,
            watchdog: gpu.watchdog().clone(),
        })
    }

    /// Milliseconds of GPU time that `work` (which enqueues on `stream`) takes;
    /// the wait for it observes the kernel time limit.
    pub fn time_ms(&self, stream: &CudaStream, work: impl FnOnce() -> Result<()>) -> Result<f64> {
        self.start.record(stream).during("cuEventRecord")?;
        work()?;
        self.stop.record(stream).during("cuEventRecord")?;
        self.watchdog.wait_for_event(&self.stop, "a timed sample")?;
        let ms = self.start.elapsed_ms(&self.stop).during("cuEventElapsedTime")?;
        Ok(ms as f64)
    }
}

//! An in-order command queue with profiling, the kernel launch, and the
//! suite's timing protocol measured with the queue's profiling counters.

use std::sync::Mutex;

use cl3::command_queue::{
    CL_QUEUE_PROFILING_ENABLE, create_command_queue, enqueue_nd_range_kernel, finish, flush, release_command_queue,
};
use cl3::types::{cl_command_queue, cl_event};

use super::error::{ClResult, ClStatusExt};
use super::{ClContext, ClEvent, ClKernel, KernelArg, NdRange, OpenClError};

/// The first and last command enqueued while [`ClQueue::time_ms`] runs.
#[derive(Default)]
struct TimedSpan {
    first: Option<ClEvent>,
    last: Option<ClEvent>,
}

/// An in-order `cl_command_queue` with `CL_QUEUE_PROFILING_ENABLE`, released on drop.
/// Every command enqueued through it (launches, transfers, fills) yields an
/// event, which [`time_ms`](Self::time_ms) uses and which is otherwise released at once.
pub struct ClQueue {
    queue: cl_command_queue,
    device: super::OpenClDevice,
    /// `Some` while `time_ms` runs.
    timing: Mutex<Option<TimedSpan>>,
}

// SAFETY: command queues may be used from any thread (OpenCL 1.1+); the
// Rust-side timing state is behind a Mutex.
unsafe impl Send for ClQueue {}
// SAFETY: as above.
unsafe impl Sync for ClQueue {}

impl ClQueue {
    /// An in-order queue on the context's device with profiling enabled
    /// (`clCreateCommandQueue`, which every OpenCL version since 1.0 exports).
    pub fn new(context: &ClContext) -> ClResult<Self> {
        // SAFETY: the device belongs to the context (ClContext::new made it so).
        let queue = unsafe { create_command_queue(context.raw(), context.device().id, CL_QUEUE_PROFILING_ENABLE) }
            .during("clCreateCommandQueue")?;
        Ok(Self {
            queue,
            device: context.device().clone(),
            timing: Mutex::new(None),
        })
    }

    pub fn device(&self) -> &super::OpenClDevice {
        &self.device
    }

    pub(crate) fn raw(&self) -> cl_command_queue {
        self.queue
    }

    /// Blocks until every command enqueued so far has completed (`clFinish`).
    pub fn finish(&self) -> ClResult<()> {
        finish(self.queue).during("clFinish")
    }

    /// Submits the enqueued commands to the device without waiting (`clFlush`).
    pub fn flush(&self) -> ClResult<()> {
        flush(self.queue).during("clFlush")
    }

    /// Takes ownership of the event of a command just enqueued: kept as the
    /// first or last of a timed span, else released.
    pub(crate) fn record(&self, event: cl_event) {
        let event = ClEvent::from_raw(event);
        let mut timing = self.timing.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(span) = timing.as_mut() {
            if span.first.is_none() {
                span.first = Some(event);
            } else {
                span.last = Some(event);
            }
        }
    }

    /// Launches `kernel` over `range` with `args` (one per kernel parameter, in order);
    /// a range without a local size leaves the work-group size to the runtime.
    ///
    /// Refuses, before enqueueing, a range OpenCL would reject and a
    /// work-group larger than the compiler allows this kernel on the device.
    ///
    /// # Safety
    /// `args` must match the kernel's parameter list in kind (buffer, image,
    /// __local size, scalar type), and every index the kernel computes over
    /// `range` must stay inside the buffers passed (the launchers' shape checks).
    pub unsafe fn launch(&self, kernel: &ClKernel, range: &NdRange, args: &[&dyn KernelArg]) -> ClResult<()> {
        if let Some(problem) = range.problem() {
            return Err(OpenClError::Invalid(format!(
                "refusing to launch {}: {problem}",
                kernel.name()
            )));
        }
        let allowed = kernel.resources().work_group_size;
        if let Some(size) = range.work_group_size().filter(|&size| size > allowed) {
            return Err(OpenClError::Invalid(format!(
                "refusing to launch {}: work-groups of {size} work-items, but the compiler allows at most {allowed} for it on {}",
                kernel.name(),
                self.device().name()
            )));
        }
        kernel.set_args(args)?;
        // NULL lets the runtime choose the work-group size.
        let local = range.local.as_ref().map_or(std::ptr::null(), |local| local.as_ptr());
        // SAFETY: the sizes point to `dimensions` valid entries (or local is NULL); the caller's contract
        // covers the arguments.
        let event = unsafe {
            enqueue_nd_range_kernel(
                self.queue,
                kernel.raw(),
                range.dimensions,
                std::ptr::null(),
                range.global.as_ptr(),
                local,
                0,
                std::ptr::null(),
            )
        }
        .map_err(|code| OpenClError::Call {
            call: "clEnqueueNDRangeKernel",
            code,
        })?;
        self.record(event);
        Ok(())
    }

    /// Milliseconds the device spent on what `enqueue` puts on this queue,
    /// measured with profiling events: from the START of the first command it
    /// enqueued to the END of the last one (in-order queue, so everything in
    /// between, gaps included, is inside the span, as with the CUDA events around
    /// the launches on the CUDA side). Waits for the commands to complete.
    /// Fails if `enqueue` enqueued nothing, or when nested.
    pub fn time_ms<E: From<OpenClError>>(&self, enqueue: impl FnOnce() -> Result<(), E>) -> Result<f64, E> {
        {
            let mut timing = self.timing.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if timing.is_some() {
                return Err(OpenClError::Invalid("ClQueue::time_ms does not nest".into()).into());
            }
            *timing = Some(TimedSpan::default());
        }
        let outcome = enqueue();
        let span = self
            .timing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
            .unwrap_or_default();
        outcome?;
        self.finish()?;
        let first = span
            .first
            .ok_or_else(|| OpenClError::Invalid("nothing was enqueued to time".into()))?;
        let start = first.start_ns()?;
        let end = span.last.as_ref().unwrap_or(&first).end_ns()?;
        if end < start {
            return Err(
                OpenClError::Invalid(format!("profiling counters went backwards ({start} ns to {end} ns)")).into(),
            );
        }
        Ok((end - start) as f64 / 1e6)
    }

    /// The suite's timing protocol (as `experiments::launch_timing` on the CUDA
    /// side): one warm-up call of `enqueue` (program, caches, clocks), then
    /// `samples` samples of `reps` calls each, timed with [`time_ms`](Self::time_ms);
    /// milliseconds per call, one figure per sample.
    pub fn time_per_launch<E: From<OpenClError>>(
        &self,
        samples: u32,
        reps: u32,
        mut enqueue: impl FnMut() -> Result<(), E>,
    ) -> Result<Vec<f64>, E> {
        if reps == 0 {
            return Err(OpenClError::Invalid("time_per_launch needs at least one repetition".into()).into());
        }
        enqueue()?;
        self.finish()?;
        (0..samples)
            .map(|_| {
                let ms = self.time_ms(|| (0..reps).try_for_each(|_| enqueue()))?;
                Ok(ms / reps as f64)
            })
            .collect()
    }
}

impl Drop for ClQueue {
    fn drop(&mut self) {
        // SAFETY: the queue is owned by this value and released once; commands still
        // queued complete first (OpenCL finishes a queue before deleting it).
        let _ = unsafe { release_command_queue(self.queue) };
    }
}

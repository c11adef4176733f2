//! An OpenCL event: completion of one enqueued command, and its profiling counters.

use cl3::event::{
    CL_PROFILING_COMMAND_END, CL_PROFILING_COMMAND_START, get_event_profiling_data, release_event, wait_for_events,
};
use cl3::types::cl_event;

use super::OpenClError;
use super::error::{ClResult, ClStatusExt};

/// A `cl_event`, released on drop.
pub struct ClEvent {
    event: cl_event,
}

// SAFETY: events may be waited for and queried from any thread.
unsafe impl Send for ClEvent {}
// SAFETY: as above; &self methods only query.
unsafe impl Sync for ClEvent {}

impl ClEvent {
    /// Takes ownership of an event returned by an enqueue call.
    pub(crate) fn from_raw(event: cl_event) -> Self {
        Self { event }
    }

    /// Blocks until the command has completed.
    pub fn wait(&self) -> ClResult<()> {
        wait_for_events(&[self.event]).during("clWaitForEvents")
    }

    /// When the command started running on the device, in device nanoseconds
    /// (the queue must have profiling enabled and the command must be complete).
    pub fn start_ns(&self) -> ClResult<u64> {
        self.profiling_ns(CL_PROFILING_COMMAND_START)
    }

    /// When the command finished on the device, in device nanoseconds.
    pub fn end_ns(&self) -> ClResult<u64> {
        self.profiling_ns(CL_PROFILING_COMMAND_END)
    }

    fn profiling_ns(&self, param: u32) -> ClResult<u64> {
        let bytes = get_event_profiling_data(self.event, param).during("clGetEventProfilingInfo")?;
        <[u8; 8]>::try_from(bytes.as_slice())
            .map(u64::from_ne_bytes)
            .map_err(|_| OpenClError::Invalid(format!("clGetEventProfilingInfo returned {} bytes", bytes.len())))
    }
}

impl Drop for ClEvent {
    fn drop(&mut self) {
        // SAFETY: the event is owned by this value and released once.
        let _ = unsafe { release_event(self.event) };
    }
}

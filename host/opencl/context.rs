//! An OpenCL context on one device.

use std::ptr;

use cl3::context::{CL_CONTEXT_PLATFORM, create_context, release_context};
use cl3::types::{cl_context, cl_context_properties};

use super::OpenClDevice;
use super::error::{ClResult, ClStatusExt};

/// A `cl_context` for one device, released on drop. Buffers, programs and
/// queues retain their context (OpenCL reference counting), so they may outlive it.
pub struct ClContext {
    context: cl_context,
    device: OpenClDevice,
}

// SAFETY: OpenCL contexts may be used from any thread (OpenCL 1.1+ thread safety).
unsafe impl Send for ClContext {}
// SAFETY: as above; no Rust-side state is mutated through &self.
unsafe impl Sync for ClContext {}

impl ClContext {
    /// A context holding `device` alone, on its own platform.
    pub fn new(device: &OpenClDevice) -> ClResult<Self> {
        let properties: [cl_context_properties; 3] = [
            CL_CONTEXT_PLATFORM as cl_context_properties,
            device.platform as cl_context_properties,
            0,
        ];
        let context =
            create_context(&[device.id], properties.as_ptr(), None, ptr::null_mut()).during("clCreateContext")?;
        Ok(Self {
            context,
            device: device.clone(),
        })
    }

    pub fn device(&self) -> &OpenClDevice {
        &self.device
    }

    pub(crate) fn raw(&self) -> cl_context {
        self.context
    }
}

impl Drop for ClContext {
    fn drop(&mut self) {
        // SAFETY: the context was created by this value and is released once.
        let _ = unsafe { release_context(self.context) };
    }
}

//! One OpenCL device: its handle and what it says about itself.

use cl3::types::{cl_device_id, cl_platform_id};

use super::OpenClDeviceInfo;

/// An OpenCL device found by [`OpenClRuntime`](super::OpenClRuntime). Root
/// devices live as long as the process (they are not reference counted), so
/// this is a plain handle; a [`ClContext`](super::ClContext) opens it.
#[derive(Clone, Debug)]
pub struct OpenClDevice {
    pub(crate) platform: cl_platform_id,
    pub(crate) id: cl_device_id,
    info: OpenClDeviceInfo,
}

// SAFETY: a root cl_device_id is a process-wide handle that every OpenCL call
// accepts from any thread (OpenCL 1.1+ API calls are thread-safe, clSetKernelArg
// aside, which does not involve device handles).
unsafe impl Send for OpenClDevice {}
// SAFETY: as above; the handle is never mutated.
unsafe impl Sync for OpenClDevice {}

impl OpenClDevice {
    pub(crate) fn new(platform: cl_platform_id, id: cl_device_id, info: OpenClDeviceInfo) -> Self {
        Self { platform, id, info }
    }

    pub fn info(&self) -> &OpenClDeviceInfo {
        &self.info
    }

    pub fn name(&self) -> &str {
        self.info.name.trim()
    }
}

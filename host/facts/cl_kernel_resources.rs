//! What the OpenCL compiler made of one kernel, as reports record it
//! (host/opencl/ fills it in).

use serde::{Deserialize, Serialize};

/// What the OpenCL compiler made of one kernel for the device (`clGetKernelWorkGroupInfo`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClKernelResources {
    /// The largest work-group this kernel can be launched with on the device
    /// (on NVIDIA, lower than the device's limit when registers run out).
    pub work_group_size: usize,
    /// Work-group sizes should be multiples of this (the warp size on NVIDIA).
    pub preferred_work_group_multiple: usize,
    /// __local memory the kernel uses: its static __local arrays plus the
    /// __local arguments set so far.
    pub local_memory_bytes: u64,
    /// Private memory per work-item (on NVIDIA: local memory, i.e. spills and stack).
    pub private_memory_bytes: u64,
}

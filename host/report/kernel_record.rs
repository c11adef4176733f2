use serde::{Deserialize, Serialize};

use crate::facts::{ClKernelResources, Implementation, KernelResources};

/// A kernel's resource use and occupancy at the block its launcher uses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelRecord {
    pub name: String,
    /// Rust, or a twin (reports before 0.2 list only Rust kernels).
    #[serde(default = "rust_implementation")]
    pub implementation: Implementation,
    /// The GPU whose JIT built it.
    #[serde(default)]
    pub device: usize,
    pub resources: KernelResources,
    pub block_threads: u32,
    /// Dynamic shared memory per block at that launch.
    #[serde(default)]
    pub dynamic_shared_bytes: u32,
    pub active_blocks_per_sm: i32,
    /// Resident threads / maximum resident threads per SM (0 where the runtime does not say: OpenCL).
    pub theoretical_occupancy: f64,
    /// What the OpenCL compiler reports instead (`clGetKernelWorkGroupInfo`), for OpenCL C twins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opencl: Option<ClKernelResources>,
}

fn rust_implementation() -> Implementation {
    Implementation::Rust
}

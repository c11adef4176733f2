//! What the CUDA driver's JIT made of one kernel, as reports record it
//! (host/gpu/ fills it in).

use serde::{Deserialize, Serialize};

/// What the driver's JIT made of one kernel (`cuFuncGetAttribute`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelResources {
    pub registers_per_thread: i32,
    /// Local memory per thread: register spills and stack.
    pub local_bytes_per_thread: i32,
    pub static_shared_bytes: i32,
    pub max_threads_per_block: i32,
    /// PTX ISA version the kernel was compiled from, as 10 × major + minor.
    pub ptx_version: i32,
    /// SASS architecture it was compiled to, as 10 × major + minor.
    pub binary_version: i32,
}

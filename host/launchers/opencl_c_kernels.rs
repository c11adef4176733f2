//! The kernels of the OpenCL C twins' program
//! ([`OPENCL_C_SOURCE`](crate::opencl::OPENCL_C_SOURCE)), as each family
//! declares them beside its OpenCL launcher (`OPENCL_C_KERNELS`). A kernel
//! joins its family's list there; a new family adds one line here, in the
//! order its source file joins the program.

use super::{
    constant_memory, divergence, global_memory, local_memory, matrix_vector, reduction, sgemm, shared_memory_banks,
    streams,
};

/// Every family with OpenCL C twins, in the order of their sources in the program.
const FAMILIES: [&[&str]; 9] = [
    global_memory::opencl::OPENCL_C_KERNELS,
    matrix_vector::opencl::OPENCL_C_KERNELS,
    sgemm::opencl::OPENCL_C_KERNELS,
    streams::OPENCL_C_KERNELS,
    divergence::opencl::OPENCL_C_KERNELS,
    shared_memory_banks::opencl::OPENCL_C_KERNELS,
    constant_memory::opencl::OPENCL_C_KERNELS,
    local_memory::opencl::OPENCL_C_KERNELS,
    reduction::opencl::OPENCL_C_KERNELS,
];

/// Every kernel of the OpenCL C twins' program, family by family.
pub fn opencl_c_kernels() -> Vec<&'static str> {
    FAMILIES.into_iter().flatten().copied().collect()
}

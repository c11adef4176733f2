//! The local-memory arrays of the guides' local-memory claim: the typed,
//! bounds-checked launcher ([`local_array`]) and its checks, the OpenCL C
//! twins' launcher ([`opencl`]), and the family's runners, one per
//! programming model ([`LocalArrayRunner`]).

mod cuda_runner;
pub mod opencl;
mod opencl_runner;
mod runner;

pub use cuda_runner::CudaLocalArrayRunner;
pub use opencl_runner::OpenClLocalArrayRunner;
pub use runner::{LocalArrayCase, LocalArrayRunner, local_array_runners};

use kernels_gpu::device::KernelSignature;
use kernels_gpu::launch_bounds::LAUNCH_BOUND_FOR_SPILLS;
use kernels_gpu::local_memory::{local_array_dynamic_params, local_array_registers_params, local_array_spilled_params};

use super::block_grid::block_grid;
use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the local-memory arrays: the module must define each (gathered with the other
/// families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &["local_array_registers", "local_array_dynamic", "local_array_spilled"];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    opencl_c_kernels: opencl::OPENCL_C_KERNELS,
    nominal_shape: Some(nominal_shape),
    memory_claims: true,
};

/// The block the local-memory experiment launches (and the kernel table shows).
pub const LOCAL_ARRAY_BLOCK_THREADS: u32 = 128;

/// One of the local-memory kernels (`kernels_gpu::local_memory`): the same
/// work, with the array in registers, in local memory, or partly spilled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocalArrayKernel {
    /// Indices known at compile time: the array is in registers.
    Registers,
    /// Indices rotated by a run-time shift: the array is in local memory.
    DynamicIndex,
    /// The registers version under a launch bound that makes ptxas spill.
    Spilled,
}

impl LocalArrayKernel {
    pub const ALL: [Self; 3] = [Self::Registers, Self::DynamicIndex, Self::Spilled];

    pub fn kernel(self) -> &'static str {
        match self {
            LocalArrayKernel::Registers => local_array_registers_params::NAME,
            LocalArrayKernel::DynamicIndex => local_array_dynamic_params::NAME,
            LocalArrayKernel::Spilled => local_array_spilled_params::NAME,
        }
    }

    /// The most threads a block may have (the spilled kernel's launch bound).
    pub fn max_block_threads(self) -> u32 {
        match self {
            LocalArrayKernel::Spilled => LAUNCH_BOUND_FOR_SPILLS.max_threads,
            _ => 1024,
        }
    }
}

/// Checks a local-array launch: `blocks` blocks of `block_threads` threads
/// (at most the kernel's limit), an output word per thread; only the
/// dynamic-index kernel takes a shift (the others would ignore it).
pub fn local_array_shape(
    kernel: LocalArrayKernel,
    shift: u32,
    (block_threads, blocks): (u32, u32),
    out_len: usize,
) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch {
        kernel: kernel.kernel(),
        reason,
    };
    let shape = block_grid(
        kernel.kernel(),
        (block_threads, blocks),
        kernel.max_block_threads(),
        false,
    )?;
    if shift != 0 && kernel != LocalArrayKernel::DynamicIndex {
        return Err(invalid(format!("shift {shift}: only the dynamic-index kernel has one")));
    }
    let threads = blocks as u64 * block_threads as u64;
    if (out_len as u64) < threads {
        return Err(invalid(format!("{threads} threads write past {out_len} output words")));
    }
    Ok(shape)
}

/// The shape a local-array kernel is reported with (occupancy, resources):
/// one block of [`LOCAL_ARRAY_BLOCK_THREADS`]; `None` for an entry of
/// another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    let local = LocalArrayKernel::ALL.into_iter().find(|l| l.kernel() == entry)?;
    let threads = LOCAL_ARRAY_BLOCK_THREADS;
    local_array_shape(local, 0, (threads, 1), threads as usize).ok()
}

/// Launches a local-array kernel: thread `t` of the grid writes
/// `reference::local_array(t, shift, rounds)` to `out[t]`.
pub fn local_array(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: LocalArrayKernel,
    (shift, rounds): (u32, u32),
    (block_threads, blocks): (u32, u32),
    out: &mut DeviceBuffer<u32>,
) -> Result<()> {
    let shape = local_array_shape(kernel, shift, (block_threads, blocks), out.len())?;
    let out = out.as_global_mut();
    match kernel {
        LocalArrayKernel::DynamicIndex => {
            // SAFETY: one output word per thread (shape check).
            unsafe { dut.launch::<local_array_dynamic_params>(implementation, shape, (shift, rounds, out)) }
        }
        LocalArrayKernel::Registers => {
            // SAFETY: one output word per thread (shape check).
            unsafe { dut.launch::<local_array_registers_params>(implementation, shape, (rounds, out)) }
        }
        LocalArrayKernel::Spilled => {
            // SAFETY: one output word per thread (shape check).
            unsafe { dut.launch::<local_array_spilled_params>(implementation, shape, (rounds, out)) }
        }
    }
}

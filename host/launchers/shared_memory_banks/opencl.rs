//! The bank-conflict kernels' OpenCL C twins (`host/opencl_c/shared_memory_banks.cl`):
//! the CUDA launcher's checks without the spans ([`bank_table_shape`]), the
//! same work-groups and grid, the table as a `__local` argument of the CUDA
//! launch's dynamic shared memory, launched on an OpenCL queue.

use kernels_gpu::device::{Param, ParamKind};

use super::{BankKernel, bank_table_shape};
use crate::error::Result;
use crate::launchers::opencl_nd_range::nd_range;
use crate::opencl::{ClBuffer, ClQueue, LocalMemory, OpenClTwins};

/// The OpenCL C twins of the bank-conflict kernels (`shared_memory_banks.cl`): kernels of the
/// twins' program (gathered with the other families' by
/// [`opencl_c_kernels`](fn@crate::launchers::opencl_c_kernels)), one under each Rust kernel's
/// entry name.
pub(in crate::launchers) const OPENCL_C_KERNELS: &[&str] = super::PTX_ENTRIES;

/// Every bank twin's parameters before its `__local` table: the Rust kernel's
/// without `spans` (OpenCL C has no SM clock to record them with).
pub const BANK_TWIN_PARAMS: &[Param] = &[
    Param {
        name: "stride",
        kind: ParamKind::U32,
    },
    Param {
        name: "rounds",
        kind: ParamKind::U32,
    },
    Param {
        name: "checksums",
        kind: ParamKind::Pointer,
    },
];

/// Launches the OpenCL C twin of `kernel`: `rounds` rounds of 32 accesses a
/// lane at `stride` (the tile's pitch, the permutation's multiplier) on
/// `groups` work-groups of `group_size`; the checksums land in `checksums` as
/// the CUDA launcher's do (`reference::bank_read_checksum` / `bank_write_checksum`).
pub fn bank_kernel(
    twins: &OpenClTwins,
    queue: &ClQueue,
    kernel: BankKernel,
    (stride, rounds): (u32, u32),
    (group_size, groups): (u32, u32),
    checksums: &mut ClBuffer<u32>,
) -> Result<()> {
    let shape = bank_table_shape(kernel, stride, (group_size, groups), checksums.len())?;
    let twin = twins.kernel_taking(kernel.kernel(), BANK_TWIN_PARAMS)?;
    let table = LocalMemory(shape.shared_bytes as usize);
    // SAFETY: (uint, uint, uint*, __local T*) is every bank twin's signature (kernel_taking checked the first
    // three); the shape check proved the stride inside the table, one checksum per work-item and the table's bytes.
    unsafe { queue.launch(twin, &nd_range(&shape), &[&stride, &rounds, &*checksums, &table])? };
    Ok(())
}

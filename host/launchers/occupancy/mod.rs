//! The occupancy family (Best Practices Guide §4.1, §4.4, §4.5): a copy and
//! a chase of dependent loads launched in any block size with unused dynamic
//! shared memory, their shape checks, typed CUDA launchers
//! ([`occupancy_copy`], [`occupancy_chase`]) and the sweep's shared-memory
//! levels ([`shared_bytes_for_resident_blocks`]), and the family's runners
//! ([`OccupancyRunner`], chosen by [`occupancy_runners`]: CUDA's only, as
//! OpenCL reports no occupancy).

mod cuda_runner;
mod runner;

pub use cuda_runner::CudaOccupancyRunner;
pub use runner::{OccupancyKernel, OccupancyRunner, occupancy_runners};

use kernels_gpu::device::KernelSignature;
use kernels_gpu::occupancy::{occupancy_chase_params, occupancy_copy_params};

use super::SlotRing;
use super::block_grid::block_grid;
use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the occupancy kernels: the module must define each (gathered with the other
/// families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &["occupancy_copy", "occupancy_chase"];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    nominal_shape: Some(nominal_shape),
    memory_claims: true,
    ..Family::NONE
};

/// The block of the occupancy experiment's shared-memory sweep (and the kernel table).
pub const OCCUPANCY_BLOCK_THREADS: u32 = 256;

/// `ceil(items / block_threads)` blocks of `block_threads` (1 to 1024) with
/// `shared_bytes` of dynamic shared memory: the occupancy kernels' grid,
/// one item per thread, the tail guarded inside.
fn one_item_per_thread(kernel: &'static str, items: u64, block_threads: u32, shared_bytes: u32) -> Result<LaunchShape> {
    let blocks = items.div_ceil(block_threads.max(1) as u64).min(u32::MAX as u64) as u32;
    let shape = block_grid(kernel, (block_threads, blocks), 1024, false)?;
    Ok(LaunchShape { shared_bytes, ..shape })
}

/// Checks an `occupancy_copy` launch of `n` floats (one a thread, any block
/// size from 1 to 1024) between buffers of `out_len` and `in_len`.
pub fn occupancy_copy_shape(
    n: u64,
    block_threads: u32,
    shared_bytes: u32,
    out_len: usize,
    in_len: usize,
) -> Result<LaunchShape> {
    if n > out_len.min(in_len) as u64 {
        return Err(Error::InvalidLaunch {
            kernel: "occupancy_copy",
            reason: format!("{n} floats do not fit buffers of {out_len} and {in_len}"),
        });
    }
    one_item_per_thread("occupancy_copy", n, block_threads, shared_bytes)
}

/// Launches `occupancy_copy`: `out[i] = inp[i]` for `i < n`, in blocks of
/// `block_threads`, each reserving `shared_bytes` of dynamic shared memory it
/// does not use (fewer blocks fit on an SM: `Kernel::max_active_blocks_per_sm`
/// says how many).
pub fn occupancy_copy(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    out: &mut DeviceBuffer<f32>,
    inp: &DeviceBuffer<f32>,
    n: u64,
    (block_threads, shared_bytes): (u32, u32),
) -> Result<()> {
    let shape = occupancy_copy_shape(n, block_threads, shared_bytes, out.len(), inp.len())?;
    let args = (out.as_global_mut(), inp.as_global(), n);
    // SAFETY: n fits both buffers, threads past it do nothing.
    unsafe { dut.launch::<occupancy_copy_params>(implementation, shape, args) }
}

/// Checks an `occupancy_chase` launch: `threads` threads (any block size
/// from 1 to 1024) each starting at its own slot of a ring of `ring_slots`,
/// one output word each.
pub fn occupancy_chase_shape(
    threads: u32,
    block_threads: u32,
    shared_bytes: u32,
    ring_slots: usize,
    out_len: usize,
) -> Result<LaunchShape> {
    if threads as usize > ring_slots || threads as usize > out_len {
        return Err(Error::InvalidLaunch {
            kernel: "occupancy_chase",
            reason: format!(
                "{threads} threads need as many ring slots and output words; there are {ring_slots} and {out_len}"
            ),
        });
    }
    one_item_per_thread("occupancy_chase", threads as u64, block_threads, shared_bytes)
}

/// The shape an occupancy kernel is reported with (occupancy, resources):
/// one block of [`OCCUPANCY_BLOCK_THREADS`] without the sweep's extra shared
/// memory; `None` for an entry of another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    let threads = OCCUPANCY_BLOCK_THREADS;
    if entry == occupancy_copy_params::NAME {
        return occupancy_copy_shape(threads as u64, threads, 0, threads as usize, threads as usize).ok();
    }
    if entry == occupancy_chase_params::NAME {
        return occupancy_chase_shape(threads, threads, 0, threads as usize, threads as usize).ok();
    }
    None
}

/// Launches `occupancy_chase`: thread `t < threads` follows `count` links of
/// `ring` from slot `t` and writes where it ends to `out[t]`
/// (`reference::follow_successors`), in blocks of `block_threads`, each
/// reserving `shared_bytes` of unused dynamic shared memory.
pub fn occupancy_chase(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    ring: &SlotRing,
    (threads, count): (u32, u32),
    (block_threads, shared_bytes): (u32, u32),
    out: &mut DeviceBuffer<u32>,
) -> Result<()> {
    let shape = occupancy_chase_shape(threads, block_threads, shared_bytes, ring.slots(), out.len())?;
    let args = (ring.links().as_global(), threads, count, out.as_global_mut());
    // SAFETY: threads <= ring slots and output words, and every link of the checked ring is a slot of it.
    unsafe { dut.launch::<occupancy_chase_params>(implementation, shape, args) }
}

/// For each number of resident blocks per SM from the most down to one, the
/// smallest dynamic shared memory per block (a multiple of `granule` bytes,
/// at most `max_shared_bytes`) at which `resident_blocks` (e.g.
/// `Kernel::max_active_blocks_per_sm` at the sweep's block size) reports it:
/// the occupancy sweep's points, `(blocks per SM, shared bytes)`, blocks
/// descending. Counts no shared size reaches are left out.
pub fn shared_bytes_for_resident_blocks(
    max_shared_bytes: u32,
    granule: u32,
    mut resident_blocks: impl FnMut(u32) -> Result<i32>,
) -> Result<Vec<(u32, u32)>> {
    if granule == 0 {
        return Err(Error::InvalidInput("a shared-memory granule of 0 bytes".into()));
    }
    let mut points: Vec<(u32, u32)> = Vec::new();
    let mut shared = 0u32;
    while shared <= max_shared_bytes {
        let blocks = resident_blocks(shared)?.max(0) as u32;
        if blocks > 0 && points.last().is_none_or(|&(last, _)| blocks < last) {
            points.push((blocks, shared));
        }
        if blocks <= 1 {
            break;
        }
        shared = match shared.checked_add(granule) {
            Some(next) => next,
            None => break,
        };
    }
    Ok(points)
}

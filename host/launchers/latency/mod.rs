//! The latency family (Best Practices Guide §5.2, §3.2.2, §3.2.6): the
//! single-thread chains `pointer_chase` (a ring of addresses in device, peer
//! or mapped host memory), `shared_pointer_chase` (a ring of slot indices in
//! shared memory) and `fma_latency` (dependent FMAs); their typed,
//! bounds-checked launchers and shape checks; and the family's runners, one
//! per programming model: [`LatencyRunner`] (the `latency` experiment's three
//! chains on one GPU, chosen by [`latency_runners`]) and [`LinkChaseRunner`]
//! (`link-latency`: rings in memory a GPU reaches over a link, chosen by
//! [`link_chase_runners`]). The kernels have CUDA C twins and no OpenCL C
//! twins yet: an OpenCL runner would join in those two functions.

mod cuda_link_runner;
mod cuda_runner;
mod link_runner;
mod runner;

pub use cuda_link_runner::CudaLinkChaseRunner;
pub use cuda_runner::CudaLatencyRunner;
pub use link_runner::{ChaseRing, LinkChaseRunner, RingMemory, link_chase_runners};
pub use runner::{LatencyRunner, latency_runners};

use kernels_gpu::device::{Dim3, GlobalPtr, KernelSignature};
use kernels_gpu::latency::{LATENCY_OUT_WORDS, fma_latency_params, pointer_chase_params, shared_pointer_chase_params};

use super::block_grid::block_grid;
use super::family::Family;
use super::{PointerRing, SlotRing};
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the latency chains: the module must define each (gathered with the other
/// families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &["pointer_chase", "shared_pointer_chase", "fma_latency"];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    nominal_shape: Some(nominal_shape),
    memory_claims: true,
    ..Family::NONE
};

/// The block that copies a ring into shared memory for `shared_pointer_chase` (thread 0 then chases).
pub const SHARED_CHASE_BLOCK_THREADS: u32 = 256;

/// One block of one thread: the shape of `pointer_chase` and `fma_latency`.
const ONE_THREAD: LaunchShape = LaunchShape {
    grid: Dim3::x(1),
    block: Dim3::x(1),
    shared_bytes: 0,
};

fn check_out(kernel: &'static str, out_len: usize) -> Result<()> {
    if out_len < LATENCY_OUT_WORDS {
        return Err(Error::InvalidLaunch {
            kernel,
            reason: format!("the output holds {out_len} words; {LATENCY_OUT_WORDS} are written"),
        });
    }
    Ok(())
}

/// Launches `pointer_chase` through `ring` from slot `start_slot`: `warmup`
/// untimed steps, then `count` timed ones. `out` receives the final link's
/// address (`ring.slot_address(reference::follow_successors(..))`), the SM
/// cycles and the nanoseconds of the timed steps.
pub fn pointer_chase(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    ring: &PointerRing,
    start_slot: u64,
    (warmup, count): (u32, u32),
    out: &mut DeviceBuffer<u64>,
) -> Result<()> {
    let start = ring.start(start_slot)?;
    // SAFETY: the ring was built by PointerRing::upload from checked successors: every link
    // reachable from one of its slots is the address of one of its slots.
    unsafe { pointer_chase_from(dut, implementation, start, (warmup, count), out) }
}

/// `pointer_chase` from any address the GPU can read: for rings in a peer
/// GPU's memory or in mapped host memory, which the caller lays out with
/// `pointer_ring_words` (the addresses being the ones the GPU sees).
///
/// # Safety
/// `start` and every address reachable from it in `warmup + count` steps
/// must be readable, 8-byte-aligned `u64`s for this GPU for the whole launch.
pub unsafe fn pointer_chase_from(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    start: GlobalPtr<u64>,
    (warmup, count): (u32, u32),
    out: &mut DeviceBuffer<u64>,
) -> Result<()> {
    check_out("pointer_chase", out.len())?;
    let args = (start, warmup, count, out.as_global_mut());
    // SAFETY: the ring is the caller's contract, the output was checked to hold LATENCY_OUT_WORDS words.
    unsafe { dut.launch::<pointer_chase_params>(implementation, ONE_THREAD, args) }
}

/// Checks a `shared_pointer_chase` launch: one block of `block_threads`
/// threads (1 to 1024) copies a ring of `slots` slots (their 4-byte links
/// must fit the block's dynamic shared memory, at most `max_shared_bytes`)
/// and chases it from `start < slots`; three output words.
pub fn shared_pointer_chase_shape(
    slots: usize,
    start: u32,
    block_threads: u32,
    max_shared_bytes: usize,
    out_len: usize,
) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch {
        kernel: "shared_pointer_chase",
        reason,
    };
    check_out("shared_pointer_chase", out_len)?;
    let shape = block_grid("shared_pointer_chase", (block_threads, 1), 1024, false)?;
    let bytes = slots.saturating_mul(4);
    if slots == 0 || bytes > max_shared_bytes {
        return Err(invalid(format!(
            "a ring of {slots} slots needs {bytes} bytes of shared memory; a block may have {max_shared_bytes}"
        )));
    }
    if start as usize >= slots {
        return Err(invalid(format!("start slot {start} of a {slots}-slot ring")));
    }
    Ok(LaunchShape {
        shared_bytes: bytes as u32,
        ..shape
    })
}

/// The shape a latency kernel is reported with (occupancy, resources): one
/// thread for the single-thread chains, the shared chase's block with a
/// 32 KiB ring (its largest); `None` for an entry of another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    if entry == pointer_chase_params::NAME || entry == fma_latency_params::NAME {
        return Some(LaunchShape {
            grid: Dim3::x(1),
            block: Dim3::x(1),
            shared_bytes: 0,
        });
    }
    if entry == shared_pointer_chase_params::NAME {
        return shared_pointer_chase_shape(8192, 0, SHARED_CHASE_BLOCK_THREADS, 32 << 10, 3).ok();
    }
    None
}

/// Launches `shared_pointer_chase` over `ring` (copied into the block's
/// shared memory by its `block_threads` threads) from slot `start`:
/// `out` receives the final slot (`reference::follow_successors`), cycles
/// and nanoseconds.
pub fn shared_pointer_chase(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    ring: &SlotRing,
    start: u32,
    (warmup, count): (u32, u32),
    block_threads: u32,
    out: &mut DeviceBuffer<u64>,
) -> Result<()> {
    let max_shared = dut.info().max_shared_memory_per_multiprocessor.max(0) as usize;
    let shape = shared_pointer_chase_shape(ring.slots(), start, block_threads, max_shared, out.len())?;
    let args = (
        ring.links().as_global(),
        ring.slots() as u32,
        start,
        warmup,
        count,
        out.as_global_mut(),
    );
    // SAFETY: the ring's links are checked to be below `slots`, start < slots, the shape gives
    // 4 * slots bytes of shared memory, the output holds LATENCY_OUT_WORDS words.
    unsafe { dut.launch::<shared_pointer_chase_params>(implementation, shape, args) }
}

/// Launches `fma_latency`: `count * FMA_LATENCY_UNROLL` dependent
/// `x ← fma(x, multiplier, addend)`; `out` receives the final `x`'s bits,
/// cycles and nanoseconds.
pub fn fma_latency(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    (x, multiplier, addend): (f32, f32, f32),
    count: u32,
    out: &mut DeviceBuffer<u64>,
) -> Result<()> {
    check_out("fma_latency", out.len())?;
    let args = (x, multiplier, addend, count, out.as_global_mut());
    // SAFETY: it writes LATENCY_OUT_WORDS words of out (checked).
    unsafe { dut.launch::<fma_latency_params>(implementation, ONE_THREAD, args) }
}

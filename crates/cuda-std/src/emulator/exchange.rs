//! The meeting points of warp and block operations in the emulator.
//!
//! A warp operation writes the lane's value into its warp's slot, meets the
//! other lanes at a `ptx_device::shfl_down_sync` (the emulator's warp
//! rendezvous, which reports lanes that never come and lanes waiting at
//! different call sites), reads every lane's slot, and meets them again
//! before any lane may overwrite its slot. Block operations do the same with
//! `ptx_device::sync_threads`. `#[track_caller]` all the way down, so a
//! fault names the kernel's line.

use std::sync::atomic::Ordering;

use super::launch_state::current;

/// Where the calling thread is in its block.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Position {
    /// Linear index in the block (x fastest).
    pub linear: u32,
    pub warp: usize,
    pub lane: u32,
    /// Lanes of this warp (fewer than 32 in a partial last warp).
    pub lanes: u32,
}

impl Position {
    /// The lanes of this warp as a mask.
    pub fn present_lanes(&self) -> u32 {
        if self.lanes >= 32 {
            u32::MAX
        } else {
            (1u32 << self.lanes) - 1
        }
    }
}

/// The calling thread's position.
pub(crate) fn position() -> Position {
    let (bx, by, bz) = (
        ptx_device::block_dim_x(),
        ptx_device::block_dim_y(),
        ptx_device::block_dim_z(),
    );
    let linear = ptx_device::thread_idx_x() + bx * (ptx_device::thread_idx_y() + by * ptx_device::thread_idx_z());
    let warp = linear / 32;
    Position {
        linear,
        warp: warp as usize,
        lane: linear % 32,
        lanes: (bx * by * bz - 32 * warp).min(32),
    }
}

/// Every lane's value of one warp operation.
pub(crate) struct WarpValues {
    pub lane: u32,
    lanes: u32,
    values: [u64; 32],
}

impl WarpValues {
    /// Lane `lane`'s value, if the warp has that lane.
    pub fn value_of(&self, lane: u32) -> Option<u64> {
        (lane < self.lanes).then(|| self.values[lane as usize])
    }

    /// The lanes of the warp.
    pub fn present_lanes(&self) -> u32 {
        if self.lanes >= 32 {
            u32::MAX
        } else {
            (1u32 << self.lanes) - 1
        }
    }

    /// Lanes whose value is non-zero.
    pub fn ballot(&self) -> u32 {
        self.lanes_matching(|value| value != 0)
    }

    /// Lanes whose value is `value`.
    pub fn lanes_holding(&self, value: u64) -> u32 {
        self.lanes_matching(|other| other == value)
    }

    fn lanes_matching(&self, test: impl Fn(u64) -> bool) -> u32 {
        (0..self.lanes)
            .filter(|&lane| test(self.values[lane as usize]))
            .fold(0, |mask, lane| mask | 1 << lane)
    }
}

/// Exchanges `value` with every lane of the calling warp. `mask` must hold
/// every lane of the warp (a panic, reported as a fault, otherwise): the
/// emulator's warp rendezvous is for whole warps.
#[track_caller]
pub(crate) fn warp(value: u64, mask: u32, operation: &str) -> WarpValues {
    let here = position();
    let present = here.present_lanes();
    if mask & present != present {
        panic!(
            "{operation} with mask {mask:#010x} leaves out lanes of this warp (its lanes: {present:#010x}); \
             the emulator runs warp operations over whole warps only"
        );
    }
    let launch = current();
    let slots = &launch.warps[here.warp].values;
    slots[here.lane as usize].store(value, Ordering::Relaxed);
    ptx_device::shfl_down_sync(0.0, 0); // everyone has written (the rendezvous orders memory)
    let values = std::array::from_fn(|lane| slots[lane].load(Ordering::Relaxed));
    ptx_device::shfl_down_sync(0.0, 0); // everyone has read: slots may be reused
    WarpValues {
        lane: here.lane,
        lanes: here.lanes,
        values,
    }
}

/// A barrier that counts the block's true predicates: (count, threads).
#[track_caller]
pub(crate) fn block_vote(predicate: bool) -> (u32, u32) {
    let here = position();
    let launch = current();
    launch.block_votes[here.linear as usize].store(predicate as u32, Ordering::Relaxed);
    ptx_device::sync_threads();
    let count = launch.block_votes.iter().map(|vote| vote.load(Ordering::Relaxed)).sum();
    ptx_device::sync_threads();
    (count, launch.block_votes.len() as u32)
}

//! What one emulated launch adds to `ptx-device`'s: block memory and meeting
//! points, reachable from its threads through a thread-local.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, AtomicU64};
use std::sync::{Arc, Mutex};

use super::LaunchConfig;
use super::block_memory::BlockMemory;

/// The emulator's most threads per block (larger shapes are refused by it before any thread runs).
const MAX_THREADS_PER_BLOCK: u64 = ptx_device::emulator::MAX_THREADS_PER_BLOCK;

/// One warp's slots for the values its lanes exchange.
pub(crate) struct WarpSlots {
    pub values: [AtomicU64; 32],
}

/// Per launch: the block's memory and every warp's and the block's slots.
pub(crate) struct LaunchState {
    pub memory: Mutex<BlockMemory>,
    pub warps: Vec<WarpSlots>,
    /// One predicate per thread of the block (`sync_threads_count/and/or`).
    pub block_votes: Vec<AtomicU32>,
}

impl LaunchState {
    pub fn new(config: LaunchConfig) -> Self {
        let threads = config.block.count();
        let threads = if threads <= MAX_THREADS_PER_BLOCK {
            threads as usize
        } else {
            0
        };
        Self {
            memory: Mutex::new(BlockMemory::new(config.shared_bytes)),
            warps: (0..threads.div_ceil(32))
                .map(|_| WarpSlots {
                    values: std::array::from_fn(|_| AtomicU64::new(0)),
                })
                .collect(),
            block_votes: (0..threads).map(|_| AtomicU32::new(0)).collect(),
        }
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<LaunchState>>> = const { RefCell::new(None) };
}

/// Makes `state` the calling emulated thread's launch (at the start of each of its blocks).
pub(crate) fn enter(state: &Arc<LaunchState>) {
    CURRENT.with(|current| {
        let mut current = current.borrow_mut();
        if !current.as_ref().is_some_and(|held| Arc::ptr_eq(held, state)) {
            *current = Some(state.clone());
        }
    });
}

/// The calling thread's launch; a panic (a fault of the launch) outside `cuda_std::emulator::launch`.
#[track_caller]
pub(crate) fn current() -> Arc<LaunchState> {
    CURRENT.with(|current| current.borrow().clone()).unwrap_or_else(|| {
        panic!(
            "cuda_std's shared memory and warp/block operations run in cuda_std::emulator::launch, \
             not in ptx_device's Emulator::launch"
        )
    })
}

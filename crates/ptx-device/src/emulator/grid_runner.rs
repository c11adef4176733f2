//! Runs a kernel over a grid: blocks in order, the threads of a block in parallel.

use std::cell::UnsafeCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier, Mutex};

use super::fault::{EmulatorError, Fault, FaultKind};
use super::memory_map::MemoryMap;
use super::rendezvous::Rendezvous;
use super::thread_context::{self, EmulatorAbort, ThreadContext};
use super::{LaunchConfig, MAX_THREADS_PER_BLOCK};
use crate::Dim3;

/// How many faults are kept for the error message.
const FAULTS_KEPT: usize = 8;
/// Stack of each emulated thread.
const THREAD_STACK_BYTES: usize = 512 * 1024;
/// Largest dynamic shared memory a block may ask for (Hopper's 227 KiB opt-in limit).
const MAX_SHARED_BYTES: usize = 227 * 1024;

/// What the threads of one launch share.
pub(crate) struct LaunchState {
    pub memory: MemoryMap,
    /// The block's `sync_threads` barrier.
    pub barrier: Rendezvous,
    /// One shuffle rendezvous per warp of the block.
    pub warps: Vec<Rendezvous>,
    pub shared_bytes: usize,
    /// The block's dynamic shared memory (16-byte aligned words).
    shared: UnsafeCell<Vec<u128>>,
    aborted: AtomicBool,
    faults: Mutex<(Vec<Fault>, usize)>,
}

// SAFETY: `shared` is only reset by the block leader while every other thread of the
// launch waits at the inter-block barrier; during a block, kernels access it through
// raw pointers exactly as GPU threads share shared memory.
unsafe impl Sync for LaunchState {}

impl LaunchState {
    pub fn shared_memory_base(&self) -> *mut u8 {
        // SAFETY: only the pointer is taken; the Vec is never resized during a launch.
        unsafe { (*self.shared.get()).as_mut_ptr() as *mut u8 }
    }

    pub fn record_fault(&self, block: Dim3, thread: Dim3, kind: FaultKind) {
        {
            let mut faults = self.faults.lock().unwrap_or_else(|p| p.into_inner());
            if faults.0.len() < FAULTS_KEPT {
                faults.0.push(Fault { block, thread, kind });
            }
            faults.1 += 1;
        }
        self.aborted.store(true, Ordering::SeqCst);
        self.barrier.abort();
        for warp in &self.warps {
            warp.abort();
        }
    }

    /// Lanes in warp `warp` of the block (the last warp may be partial).
    pub fn warp_lanes(&self, warp: usize) -> u32 {
        self.warps[warp].members()
    }

    fn poison_shared_memory(&self) {
        // SAFETY: called by the leader while all other threads wait at the inter-block barrier.
        let words = unsafe { &mut *self.shared.get() };
        words.fill(u128::MAX);
    }
}

fn validate(config: &LaunchConfig) -> Result<(), EmulatorError> {
    let LaunchConfig {
        grid,
        block,
        shared_bytes,
    } = *config;
    if grid.count() == 0 || block.count() == 0 {
        return Err(EmulatorError::InvalidConfig(format!(
            "grid {grid:?} and block {block:?} must have no zero extent"
        )));
    }
    if block.count() > MAX_THREADS_PER_BLOCK {
        return Err(EmulatorError::InvalidConfig(format!(
            "block of {} threads exceeds {MAX_THREADS_PER_BLOCK}",
            block.count()
        )));
    }
    if block.z > 64 || grid.y > 65535 || grid.z > 65535 || grid.x > i32::MAX as u32 {
        return Err(EmulatorError::InvalidConfig(format!(
            "grid {grid:?} or block {block:?} exceeds the hardware limits"
        )));
    }
    if shared_bytes > MAX_SHARED_BYTES {
        return Err(EmulatorError::InvalidConfig(format!(
            "{shared_bytes} B of dynamic shared memory exceeds {MAX_SHARED_BYTES} B"
        )));
    }
    Ok(())
}

fn unflatten(linear: u64, extent: Dim3) -> Dim3 {
    let x = extent.x as u64;
    let y = extent.y as u64;
    Dim3 {
        x: (linear % x) as u32,
        y: ((linear / x) % y) as u32,
        z: (linear / (x * y)) as u32,
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

pub(crate) fn run(memory: &MemoryMap, config: LaunchConfig, kernel: &(dyn Fn() + Sync)) -> Result<(), EmulatorError> {
    validate(&config)?;
    let threads = config.block.count() as u32;
    let launch = Arc::new(LaunchState {
        memory: memory.clone(),
        barrier: Rendezvous::block(threads),
        warps: (0..threads.div_ceil(32))
            .map(|w| Rendezvous::warp((threads - 32 * w).min(32)))
            .collect(),
        shared_bytes: config.shared_bytes,
        shared: UnsafeCell::new(vec![u128::MAX; config.shared_bytes.div_ceil(16)]),
        aborted: AtomicBool::new(false),
        faults: Mutex::new((Vec::new(), 0)),
    });
    let block_end = Barrier::new(threads as usize);
    let stop = AtomicBool::new(false);
    let blocks = config.grid.count();

    std::thread::scope(|scope| {
        for linear_thread in 0..threads {
            let launch = launch.clone();
            let block_end = &block_end;
            let stop = &stop;
            let thread_idx = unflatten(linear_thread as u64, config.block);
            std::thread::Builder::new()
                .name(format!("emu-thread-{linear_thread}"))
                .stack_size(THREAD_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    thread_context::install(Some(ThreadContext {
                        thread_idx,
                        block_idx: Dim3::x(0),
                        block_dim: config.block,
                        grid_dim: config.grid,
                        launch: launch.clone(),
                    }));
                    for linear_block in 0..blocks {
                        let block_idx = unflatten(linear_block, config.grid);
                        thread_context::set_block(block_idx);
                        let outcome = catch_unwind(AssertUnwindSafe(kernel));
                        match outcome {
                            Ok(()) => {
                                let warp = &launch.warps[linear_thread as usize / 32];
                                if let Err(kind) = launch.barrier.member_exit().and(warp.member_exit()) {
                                    launch.record_fault(block_idx, thread_idx, kind);
                                }
                            }
                            Err(payload) if payload.is::<EmulatorAbort>() => {}
                            Err(payload) => launch.record_fault(
                                block_idx,
                                thread_idx,
                                FaultKind::KernelPanic {
                                    message: panic_message(payload.as_ref()),
                                },
                            ),
                        }
                        // Every thread has finished this block. The leader resets the block's
                        // state and decides, for everyone, whether the launch stops here: a
                        // fault raised by a fast thread already in the next block must not make
                        // a slow thread leave this loop early.
                        if block_end.wait().is_leader() {
                            launch.barrier.reset_for_next_block();
                            for warp in &launch.warps {
                                warp.reset_for_next_block();
                            }
                            launch.poison_shared_memory();
                            stop.store(launch.aborted.load(Ordering::SeqCst), Ordering::SeqCst);
                        }
                        block_end.wait();
                        if stop.load(Ordering::SeqCst) {
                            break;
                        }
                    }
                    thread_context::install(None);
                })
                .expect("spawning an emulator thread");
        }
    });

    let faults = launch.faults.lock().unwrap_or_else(|p| p.into_inner());
    if faults.1 == 0 {
        Ok(())
    } else {
        Err(EmulatorError::Faults {
            first: faults.0.clone(),
            total: faults.1,
        })
    }
}

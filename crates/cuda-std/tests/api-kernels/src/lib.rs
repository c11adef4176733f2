//! One kernel per part of `cuda_std`'s API, written as Rust-CUDA users write
//! them, each storing what it observed so that the emulator tests can check
//! it and the PTX tests can look at what it became.
#![cfg_attr(target_os = "cuda", no_std)]
#![allow(clippy::missing_safety_doc, improper_ctypes_definitions)]

use core::sync::atomic::Ordering;

use cuda_std::atomic::{AtomicF32, BlockAtomicF32, SystemAtomicF64};
use cuda_std::prelude::*;
use cuda_std::warp::{self, WarpReductionOp};
use cuda_std::{GpuFloat, shared_array};

/// Threads per block the block-level kernels assume.
pub const BLOCK: usize = 64;

/// Every index function, eight words per thread: `index`, `index_1d`, the
/// 2-D and 3-D indices, `first`, `warp_size` and the linear thread number.
#[kernel]
pub unsafe fn indices(out: *mut u32) {
    let i = thread::index() as usize;
    let two = thread::index_2d();
    let three = thread::index_3d();
    let words = [
        thread::index(),
        thread::index_1d(),
        two.x,
        two.y,
        three.z,
        thread::first() as u32,
        thread::warp_size(),
        thread::block_dim().element_product(),
    ];
    for (k, word) in words.iter().enumerate() {
        unsafe { *out.add(8 * i + k) = *word };
    }
}

/// The barrier's reductions over `predicate[t] != 0`: count, and, or per block.
#[kernel]
pub unsafe fn barrier_votes(predicate: &[u32], out: *mut u32) {
    let t = thread::index_1d() as usize;
    let p = predicate[t];
    let count = thread::sync_threads_count(p);
    let all = thread::sync_threads_and(p);
    let any = thread::sync_threads_or(p);
    if thread::thread_idx_x() == 0 {
        let b = thread::block_idx_x() as usize;
        unsafe {
            *out.add(3 * b) = count;
            *out.add(3 * b + 1) = all;
            *out.add(3 * b + 2) = any;
        }
    }
    thread::device_fence();
    thread::grid_fence();
    thread::system_fence();
}

/// Shuffles of every mode and width 32 and 8, votes, matches and reductions:
/// twelve words per thread.
#[kernel]
pub unsafe fn warp_operations(input: &[u32], out: *mut u32) {
    let t = thread::index_1d() as usize;
    let v = input[t];
    let full = u32::MAX;
    let words = unsafe {
        [
            warp::warp_shuffle_down(full, v, 3, 32).0,
            warp::warp_shuffle_up(full, v, 2, 8).0,
            warp::warp_shuffle_idx(full, v, 5, 32).0,
            warp::warp_shuffle_xor(full, v, 1, 32).0,
            warp::warp_shuffle_down(full, v as f32, 1, 32).0.to_bits(),
            warp::warp_shuffle_down(full, (v as u64) << 33, 4, 32).0 as u32,
            warp::warp_vote_ballot(full, v % 3 == 0),
            warp::warp_vote_all(full, v < 1000) as u32 | (warp::warp_vote_any(full, v == 7) as u32) << 1,
            warp::warp_match_any(full, v % 4),
            warp::warp_match_all(full, v / 1000).unwrap_or(0),
            warp::warp_reduce(full, v, WarpReductionOp::Add),
            warp::warp_reduce(full, v as i32 - 20, WarpReductionOp::Min) as u32,
        ]
    };
    for (k, word) in words.iter().enumerate() {
        unsafe { *out.add(12 * t + k) = *word };
    }
    unsafe { warp::sync_warp(full) };
    let _ = (warp::lane_id(), warp::activemask());
}

/// Two shared arrays and the dynamic shared memory: each block rotates its
/// slice by one through the first, counts through the second and copies
/// through the third (`BLOCK` `f32`s of dynamic memory).
#[kernel]
pub unsafe fn shared_memory(input: &[f32], out: *mut f32) {
    let tile = shared_array![f32; BLOCK];
    let total = shared_array![u32; 1];
    let dynamic = cuda_std::shared::dynamic_shared_mem::<f32>();
    let t = thread::thread_idx_x() as usize;
    let base = thread::block_idx_x() as usize * BLOCK;
    unsafe {
        *tile.add(t) = input[base + t];
        *dynamic.add(t) = input[base + t] * 2.0;
        if t == 0 {
            *total = 0;
        }
    }
    thread::sync_threads();
    unsafe {
        core::sync::atomic::AtomicU32::from_ptr(total).fetch_add(1, Ordering::Relaxed);
    }
    thread::sync_threads();
    unsafe {
        let rotated = *tile.add((t + 1) % BLOCK) + *dynamic.add(t);
        *out.add(base + t) = rotated + *total as f32 + cuda_std::mem::dynamic_smem_size() as f32;
    }
}

/// Atomic floats at three scopes: `sums[0]` gathers every input, each
/// block's shared `BlockAtomicF32` its own, written to `sums[1 + block]`.
#[kernel]
pub unsafe fn atomics(input: &[f32], sums: &[AtomicF32], wide: &SystemAtomicF64) {
    let t = thread::index_1d() as usize;
    let x = input[t];
    sums[0].fetch_add(x, Ordering::Relaxed);
    wide.fetch_add(x as f64, Ordering::SeqCst);
    let block_sum = shared_array![BlockAtomicF32; 1];
    unsafe {
        if thread::thread_idx_x() == 0 {
            (*block_sum).store(0.0, Ordering::Relaxed);
        }
        thread::sync_threads();
        (*block_sum).fetch_add(x, Ordering::AcqRel);
        (*block_sum).fetch_sub(0.0, Ordering::Release);
        thread::sync_threads();
        if thread::thread_idx_x() == 0 {
            sums[1 + thread::block_idx_x() as usize].store((*block_sum).load(Ordering::Acquire), Ordering::SeqCst);
        }
    }
}

/// `GpuFloat` without libdevice: nine words per element.
#[kernel]
pub unsafe fn float_math(input: &[f32], out: *mut f32) {
    let i = thread::index_1d() as usize;
    if i < input.len() {
        let x = input[i];
        let words = [
            GpuFloat::floor(x),
            GpuFloat::round(x),
            GpuFloat::fract(x),
            GpuFloat::copysign(2.0, x),
            GpuFloat::mul_add(x, 3.0, 1.0),
            GpuFloat::powi(x, -3),
            GpuFloat::sqrt(GpuFloat::abs(x)),
            GpuFloat::exp(x),
            GpuFloat::sin(x),
        ];
        for (k, word) in words.iter().enumerate() {
            unsafe { *out.add(9 * i + k) = *word };
        }
    }
}

/// `println!` and `clock`: thread 0 prints one line (the GPU's console).
#[kernel]
pub unsafe fn hello(value: f32, cycles: *mut u64) {
    let start = cuda_std::misc::clock();
    if thread::first() {
        println!("hello from the GPU: {} and {}", value, thread::block_dim_x());
    }
    cuda_std::assert_ne!(value, f32::INFINITY);
    unsafe { *cycles = cuda_std::misc::clock() - start };
    cuda_std::misc::profiler_counter(3);
    thread::nanosleep(10);
}

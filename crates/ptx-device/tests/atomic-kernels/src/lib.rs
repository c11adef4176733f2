//! Kernels that exercise ptx-device's global float atomics, for its own
//! tests: the same source is built to PTX (tests/ptx_global_atomic.rs) and run
//! in the CPU emulator (tests/emulator_global_atomic.rs).
#![cfg_attr(target_arch = "nvptx64", no_std)]

use ptx_device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, kernel, thread_idx_x};

kernel! {
    /// Every thread adds `1 + i % 3` into bin `i % bin_count` with
    /// `red.global.add.f32`: many threads of many blocks contend for a few
    /// words. The sums are small integers, exact in `f32` in every order, so
    /// the result is exact however the additions interleave.
    ///
    /// Indexing: `i = blockIdx.x · blockDim.x + threadIdx.x`. Launch: any 1-D
    /// grid of 1-D blocks.
    ///
    /// # Safety
    /// `bin_count ≥ 1` and `bins` holds at least `bin_count` `f32`s.
    pub unsafe fn count_into_bins(bins: GlobalMutPtr<f32>, bin_count: u32) {
        let i = block_idx_x() * block_dim_x() + thread_idx_x();
        // SAFETY: i % bin_count < bin_count, inside `bins` (launch contract).
        unsafe { bins.red_add((i % bin_count) as isize, (1 + i % 3) as f32) };
    }
}

kernel! {
    /// Every thread adds 1 to `counter[0]` with `atom.global.add.f32` and
    /// stores the value it saw before into `tickets[i]`: each thread gets a
    /// distinct ticket, so the tickets are a permutation of `0 .. n`.
    ///
    /// Indexing: `i = blockIdx.x · blockDim.x + threadIdx.x`. Launch: a 1-D
    /// grid of 1-D blocks of at most 2^24 threads in all (exact integers).
    ///
    /// # Safety
    /// `counter` holds one `f32`; `tickets` holds grid × block `f32`s.
    pub unsafe fn take_tickets(tickets: GlobalMutPtr<f32>, counter: GlobalMutPtr<f32>) {
        let i = block_idx_x() * block_dim_x() + thread_idx_x();
        // SAFETY: element 0 of the one-element counter.
        let ticket = unsafe { counter.atomic_add(0, 1.0) };
        // SAFETY: i < grid × block, inside `tickets` (launch contract).
        unsafe { tickets.store(i as isize, ticket) };
    }
}

kernel! {
    /// Split-K's final step: block `b` adds partial row `b` into `sums` with
    /// `red.global.add.f32`, so with two blocks and a zeroed `sums` each
    /// element ends as `partials[i] + partials[n + i]`, bit for bit, in
    /// either order.
    ///
    /// Indexing: element `i = threadIdx.x` of partial row `blockIdx.x`.
    /// Launch: grid of (rows), block of (n).
    ///
    /// # Safety
    /// `sums` holds `blockDim.x` `f32`s; `partials` holds grid × block.
    pub unsafe fn add_partials(sums: GlobalMutPtr<f32>, partials: GlobalPtr<f32>) {
        let (i, n) = (thread_idx_x(), block_dim_x());
        let partial = (block_idx_x() * n + i) as isize;
        // SAFETY: i < n, inside `sums`; partial < grid × block, inside `partials` (launch contract).
        unsafe { sums.red_add(i as isize, partials.load(partial)) };
    }
}

//! The Best Practices Guide's §6.3 loop, `for (i = 0; i < n; i++) out[i] =
//! in[offset + stride*i];`, with four loop-counter types.
//!
//! Each grid-wide thread `t` runs the loop on its own column: it copies
//! `inp[offset + t + stride·i]` to `out[t + stride·i]` for `i` in `0..n`. With
//! `stride` equal to the number of threads the warps' accesses are coalesced,
//! so the loop's address arithmetic, not memory, is what the variants change.
//! Every index is computed in the counter's type and then converted to a
//! pointer offset, as C does.
//!
//! The guide's argument is about C: signed overflow is undefined, so the
//! compiler may widen `stride*i` to 64 bits and strength-reduce it into a
//! pointer increment; unsigned overflow wraps, so it may not. In Rust both
//! `i32` and `u32` arithmetic wrap (in release builds; debug builds panic),
//! so neither gets that licence; `usize` indices need no conversion at all,
//! and `i32` with `unchecked_*` arithmetic (undefined on overflow, like C's
//! `int`) gets C's licence back. `launchers::loop_counter_shape` in the host
//! crate proves that no index overflows its type, so all four copy the same
//! elements.
//!
//! **Launch** (all four): 1-D, blocks of `LOOP_COUNTER_BLOCK_THREADS`, any
//! number of blocks; `stride ≥ threads` keeps columns apart.
//!
//! **Expected**: the guide says signed counters are "slightly" faster than
//! unsigned; in Rust, `usize` and the unchecked `i32` should have the fewest
//! instructions per iteration (`ptx::loop_bodies` counts them), `u32` and the
//! wrapping `i32` a few more. Memory traffic is the same, so the difference
//! shows only where the loop is instruction-bound. To be measured.

use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

/// The calling thread's grid-wide index.
#[inline(always)]
fn grid_thread() -> u32 {
    block_idx_x() * block_dim_x() + thread_idx_x()
}

kernel! {
    /// The §6.3 loop with an `i32` counter and wrapping `i32` index arithmetic
    /// (Rust's `+` and `*` in release builds), sign-extended to a pointer offset.
    ///
    /// **Indexing**: thread `t` copies `inp[offset + t + stride·i]` to
    /// `out[t + stride·i]`, `i` in `0..n`. **Launch** and **expected**: see the module docs.
    ///
    /// # Safety
    /// Every index `offset + t + stride·(n − 1)` must fit an `i32` and lie inside
    /// `inp`, every `t + stride·(n − 1)` inside `out`, all non-negative.
    pub unsafe fn loop_counter_i32(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>, n: i32, offset: i32, stride: i32) {
        let t = grid_thread() as i32;
        let mut i: i32 = 0;
        while i < n {
            let o = t.wrapping_add(stride.wrapping_mul(i));
            let s = offset.wrapping_add(o);
            // SAFETY: the caller's contract: both indices are in bounds and did not wrap.
            unsafe { out.store(o as isize, inp.load(s as isize)) };
            i += 1;
        }
    }
}

kernel! {
    /// The §6.3 loop with a `u32` counter and wrapping `u32` index arithmetic,
    /// zero-extended to a pointer offset (C's `unsigned`).
    ///
    /// **Indexing**: as [`loop_counter_i32`]. **Launch** and **expected**: see the module docs.
    ///
    /// # Safety
    /// As [`loop_counter_i32`], with `u32` in place of `i32`.
    pub unsafe fn loop_counter_u32(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>, n: u32, offset: u32, stride: u32) {
        let t = grid_thread();
        let mut i: u32 = 0;
        while i < n {
            let o = t.wrapping_add(stride.wrapping_mul(i));
            let s = offset.wrapping_add(o);
            // SAFETY: the caller's contract: both indices are in bounds and did not wrap.
            unsafe { out.store(o as isize, inp.load(s as isize)) };
            i += 1;
        }
    }
}

kernel! {
    /// The §6.3 loop with a `usize` counter and `usize` index arithmetic (no
    /// conversion: indices are pointer-sized, as Rust slices index).
    ///
    /// **Indexing**: as [`loop_counter_i32`]. **Launch** and **expected**: see the module docs.
    ///
    /// # Safety
    /// As [`loop_counter_i32`], with `usize` in place of `i32`.
    pub unsafe fn loop_counter_usize(
        out: GlobalMutPtr<f32>,
        inp: GlobalPtr<f32>,
        n: usize,
        offset: usize,
        stride: usize,
    ) {
        let t = grid_thread() as usize;
        let mut i: usize = 0;
        while i < n {
            let o = t.wrapping_add(stride.wrapping_mul(i));
            let s = offset.wrapping_add(o);
            // SAFETY: the caller's contract: both indices are in bounds.
            unsafe { out.store(o as isize, inp.load(s as isize)) };
            i += 1;
        }
    }
}

kernel! {
    /// The §6.3 loop with an `i32` counter and *unchecked* `i32` arithmetic
    /// (`unchecked_add`/`unchecked_mul`: overflow is undefined behaviour, as
    /// for C's `int`), which lets the compiler widen and strength-reduce the
    /// index as the guide describes.
    ///
    /// **Indexing**: as [`loop_counter_i32`]. **Launch** and **expected**: see the module docs.
    ///
    /// # Safety
    /// As [`loop_counter_i32`]; an index that overflowed would be undefined
    /// behaviour here, not a wrapped value.
    pub unsafe fn loop_counter_i32_unchecked(
        out: GlobalMutPtr<f32>,
        inp: GlobalPtr<f32>,
        n: i32,
        offset: i32,
        stride: i32,
    ) {
        let t = grid_thread() as i32;
        let mut i: i32 = 0;
        while i < n {
            // SAFETY: the caller guarantees that no index overflows an i32.
            let (o, s) = unsafe {
                let o = t.unchecked_add(stride.unchecked_mul(i));
                (o, offset.unchecked_add(o))
            };
            // SAFETY: the caller's contract: both indices are in bounds.
            unsafe { out.store(o as isize, inp.load(s as isize)) };
            // SAFETY: i < n ≤ i32::MAX, so i + 1 does not overflow.
            i = unsafe { i.unchecked_add(1) };
        }
    }
}

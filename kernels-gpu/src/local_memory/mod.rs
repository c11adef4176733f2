//! Local memory: the Best Practices Guide's §3.2.3 and the OpenCL guide's
//! §3.1.2.2.
//!
//! The guides: automatic variables the compiler cannot keep in registers
//! (arrays indexed at run time, large structures, and whatever does not fit
//! the register budget) live in local memory, which is off-chip like global
//! memory (uncached on cc 1.x), so "local" does not mean fast; the PTX shows
//! it as `.local` variables read and written with `ld.local`/`st.local`.
//!
//! The three kernels run the same per-thread work over an array of
//! [`LOCAL_ARRAY_WORDS`] words ([`scramble_rounds`]): `local_array_registers`
//! with indices the compiler knows (the array lives in registers),
//! `local_array_dynamic` with the indices rotated by a run-time `shift`
//! (the array lives in local memory; with `shift = 0` both compute the same
//! result), and `local_array_spilled`, the registers version under a launch
//! bound (`launch_bounds.rs`: at most 1024 threads per block, one block per
//! SM, so 64 registers a thread) too tight for the array, so ptxas spills
//! part of it to local memory (the kernel's `CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES`).
//!
//! **Indexing**: one array per thread of a 1-D grid; thread `t` writes its
//! result to `out[t]`. **Launch**: any 1-D grid of 1-D blocks (the spilled
//! entry at most 1024 threads a block).

mod dynamic_index;
mod registers;
mod spilled;

pub use dynamic_index::{local_array_dynamic, local_array_dynamic_params};
pub use registers::{local_array_registers, local_array_registers_params};
pub use spilled::{local_array_spilled, local_array_spilled_params};

/// Words in each thread's array.
pub const LOCAL_ARRAY_WORDS: usize = 64;

/// The work all three kernels do for thread `thread`: fill the array, then
/// `rounds` times fold each word (at index `(i + shift) % WORDS`, `i` in
/// order) into a running value with a multiply-add and write the value back.
/// With `DYNAMIC = false` the shift is ignored (treated as 0), so every index
/// is a constant after unrolling.
#[inline(always)]
pub fn scramble_rounds<const DYNAMIC: bool>(thread: u32, shift: u32, rounds: u32) -> u32 {
    let mut words = [0u32; LOCAL_ARRAY_WORDS];
    for (i, word) in words.iter_mut().enumerate() {
        *word = thread.wrapping_mul(0x9e37_79b9).wrapping_add(i as u32);
    }
    let mut value = thread;
    for round in 0..rounds {
        for i in 0..LOCAL_ARRAY_WORDS {
            let index = if DYNAMIC {
                (i + shift as usize) % LOCAL_ARRAY_WORDS
            } else {
                i
            };
            value = value.wrapping_mul(31).wrapping_add(words[index]);
            words[index] = value ^ round;
        }
    }
    value
}

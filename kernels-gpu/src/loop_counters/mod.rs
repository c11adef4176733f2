//! Loop counters, signed against unsigned (Best Practices Guide §6.3).

mod strided_loop;

pub use strided_loop::{
    loop_counter_i32, loop_counter_i32_params, loop_counter_i32_unchecked, loop_counter_i32_unchecked_params,
    loop_counter_u32, loop_counter_u32_params, loop_counter_usize, loop_counter_usize_params,
};

/// Threads per block for the loop-counter kernels.
pub const LOOP_COUNTER_BLOCK_THREADS: u32 = 256;

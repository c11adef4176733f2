//! CPU reference implementations: what each kernel must produce, written as
//! plain loops or slice copies over the thread index, independent of the
//! device layer; the one tolerance rule for products; and the pure models
//! the memory experiments compare with (bank-conflict degree, latency
//! working sets and levels).

mod bank_conflict_degree;
mod block_tree_sum;
mod constant_memory;
mod divergence;
mod dot_error_bound;
mod fma_latency;
mod global_memory;
mod instruction_throughput;
mod latency_curve;
mod local_memory;
mod loop_counters;
mod math_error_bound;
mod math_function_exact;
mod math_sweep;
mod matrix_multiply;
mod matrix_vector;
mod particle_gravity;
mod particles;
mod pointer_chase;
mod shared_memory_banks;
mod streams;
mod texture_sampling;
mod ulp_error;
mod vector_add;

pub use bank_conflict_degree::{conflict_degree, strided_lane_addresses};
pub use block_tree_sum::block_tree_sums;
pub use constant_memory::{constant_chase_links, constant_chase_sum};
pub use divergence::{BranchLength, PathChoice, branch_reference, path_of, paths_reference};
pub use dot_error_bound::dot_error_bound;
pub use fma_latency::fma_latency;
pub use global_memory::{copy_prefix, offset_copy, permuted_copy, shift_copy, stride_copy, texture_shift_copy};
pub use instruction_throughput::{
    chain_outputs, f16x2_fma_throughput_reference, f32_throughput_reference, f64_fma_throughput_reference,
    f64_to_f16_bits, fma_f16x2_reference, i32_throughput_reference, u32_throughput_reference,
};
pub use latency_curve::{
    LATENCY_MAX_WORKING_SET, LATENCY_MIN_WORKING_SET, LatencyPlateau, MemoryLevel, latency_levels, latency_plateaus,
    latency_working_sets,
};
pub use local_memory::local_array;
pub use loop_counters::strided_loop;
pub use math_error_bound::{ErrorBound, cuda_library_bound, documented_bound};
pub use math_function_exact::math_function_exact;
pub use math_sweep::{ArgumentRange, Spacing, input_sweep, sweep_spacing};
pub use matrix_multiply::{matmul, matmul_aat, matmul_element, matmul_mismatch};
pub use matrix_vector::{matvec, matvec_mismatch};
pub use particle_gravity::gravity_step;
pub use particles::{
    FountainEmitter, fountain_step, fountain_step_on, host_emitter, particle_rows_mismatch, particle_step,
    run_particle_rows, run_particle_rows_on, run_particle_steps, simulate_particles, swarm_step,
};
pub use pointer_chase::{chase_successors, follow_successors};
pub use shared_memory_banks::{
    bank_read_checksum, bank_write_checksum, narrow_read_checksum, permuted_read_checksum, permuted_word,
    split_read_checksum, struct_read_checksum,
};
pub use streams::fma_chain;
pub use texture_sampling::{FILTER_ERROR_BOUND, FILTER_ROUNDING, texture_fetch_2d, tile_order};
pub use ulp_error::{ErrorStats, error_stats, f32_ulp_at, ulp_error};
pub use vector_add::vector_add;

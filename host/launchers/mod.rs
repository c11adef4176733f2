//! Typed launchers: one function per kernel, taking device buffers (which
//! carry their lengths) and proving before the launch that every index the
//! kernel will compute stays inside them.
//!
//! The shape checks are pure functions (`*_shape`) so they are tested without a GPU.

mod block_grid;
mod constant_memory;
mod diagnostics;
mod gemm;
mod global_copy;
mod guide_multiply;
mod latency;
mod local_memory;
mod matrix_vector;
mod nominal_shape;
mod occupancy;
mod overlap;
mod pointer_ring;
mod shared_memory_banks;
mod slot_ring;

pub use constant_memory::{ChaseTable, ConstantSpace, constant_chase, constant_chase_shape};
pub use diagnostics::spin_wait;
pub use gemm::{
    SgemmKernel, check_gemm_buffers, gemm_flops, hgemm_f16_storage, hgemm_f16_storage_shape, sgemm, sgemm_shape,
    whole_register_blocked_tiles,
};
pub use global_copy::{
    driver_copy, offset_copy, offset_copy_shape, shift_copy, shift_copy_shape, stride_copy, stride_copy_shape,
    texture_shift_copy, texture_shift_copy_shape, vector_copy, vector_copy_global,
};
pub use guide_multiply::{GuideMultiply, guide_multiply, guide_multiply_shape};
pub use latency::{fma_latency, pointer_chase, pointer_chase_from, shared_pointer_chase, shared_pointer_chase_shape};
pub use local_memory::{LocalArrayKernel, local_array, local_array_shape};
pub use matrix_vector::{MATVEC_BLOCK_THREADS, MatVecVersion, check_matvec_buffers, matvec, matvec_shape};
pub use nominal_shape::nominal_shape;
pub use occupancy::{
    occupancy_chase, occupancy_chase_shape, occupancy_copy, occupancy_copy_shape, shared_bytes_for_resident_blocks,
};
pub use overlap::fma_chain;
pub use pointer_ring::{PointerRing, pointer_ring_words};
pub use shared_memory_banks::{BankAccess, BankKernel, bank_kernel, bank_kernel_shape};
pub use slot_ring::{SlotRing, check_slot_links};

//! CPU reference implementations: what each kernel must produce, written as
//! plain loops or slice copies over the thread index, independent of the
//! device layer.

mod global_copy;
mod matrix_multiply;
mod matrix_vector;
mod overlap;
mod particles;

pub use global_copy::{copy_prefix, offset_copy, shift_copy, stride_copy, texture_shift_copy};
pub use matrix_multiply::{gemm_error_bound, matmul, matmul_aat, matmul_element, matmul_mismatch};
pub use matrix_vector::{MATVEC_RELATIVE_TOLERANCE, matvec, matvec_mismatch};
pub use overlap::fma_chain;
pub use particles::{fountain_step, particle_step, run_particle_steps, simulate_particles, swarm_step};

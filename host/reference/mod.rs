//! CPU reference implementations: what each kernel must produce, written as
//! plain loops or slice copies over the thread index, independent of the
//! device layer; and the one tolerance rule for products.

mod dot_error_bound;
mod global_memory;
mod matrix_multiply;
mod matrix_vector;
mod particles;
mod streams;

pub use dot_error_bound::dot_error_bound;
pub use global_memory::{copy_prefix, offset_copy, shift_copy, stride_copy, texture_shift_copy};
pub use matrix_multiply::{matmul, matmul_aat, matmul_element, matmul_mismatch};
pub use matrix_vector::{matvec, matvec_mismatch};
pub use particles::{fountain_step, particle_step, run_particle_steps, simulate_particles, swarm_step};
pub use streams::fma_chain;

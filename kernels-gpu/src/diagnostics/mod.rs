//! Kernels that test the host program rather than the GPU's memory system.

mod spin_wait;

pub use spin_wait::{spin_wait, spin_wait_params};

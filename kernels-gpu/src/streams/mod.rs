//! Kernels for the guide's host-side chapter (§3.1): work to overlap with transfers.

mod fma_chain;

pub use fma_chain::{FMA_CHAIN_A, FMA_CHAIN_B, fma_chain, fma_chain_params};

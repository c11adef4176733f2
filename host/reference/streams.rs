use kernels_gpu::streams::{FMA_CHAIN_A, FMA_CHAIN_B};

use super::fma_latency;

/// What `fma_chain` makes of one element: `x ← fma(x, A, B)`, `iterations`
/// times, each step rounded once (see [`fma_latency`]), so CPU and GPU agree
/// bit for bit.
pub fn fma_chain(x: f32, iterations: u32) -> f32 {
    fma_latency(x, FMA_CHAIN_A, FMA_CHAIN_B, iterations as u64)
}

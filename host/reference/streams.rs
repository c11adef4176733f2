use kernels_gpu::streams::{FMA_CHAIN_A, FMA_CHAIN_B};

/// What `fma_chain` makes of one element: `x ← fma(x, A, B)`, `iterations`
/// times, each step rounded once (`mul_add` is the IEEE fused multiply-add,
/// as the GPU's `fma.rn.f32`), so CPU and GPU agree bit for bit.
pub fn fma_chain(mut x: f32, iterations: u32) -> f32 {
    for _ in 0..iterations {
        x = x.mul_add(FMA_CHAIN_A, FMA_CHAIN_B);
    }
    x
}

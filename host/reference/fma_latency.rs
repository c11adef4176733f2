/// What `fma_latency` makes of `x`: `x ← fma(x, multiplier, addend)`, `fmas`
/// times, each step rounded once (`mul_add` is the IEEE fused multiply-add,
/// as the GPU's `fma.rn.f32`), so CPU and GPU agree bit for bit.
pub fn fma_latency(mut x: f32, multiplier: f32, addend: f32, fmas: u64) -> f32 {
    for _ in 0..fmas {
        x = x.mul_add(multiplier, addend);
    }
    x
}

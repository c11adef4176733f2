/// `a[i] + b[i]` for every `i` of the shorter of the two: what the vector
/// adds (`cuda_std_vecadd`, `ptx_device_vecadd`) write.
pub fn vector_add(a: &[f32], b: &[f32]) -> Vec<f32> {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

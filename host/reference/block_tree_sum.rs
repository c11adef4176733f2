/// One sum per block of `block` elements of `input` (the last block padded
/// with zeros), added in the order of the block sums' halving tree: at stride
/// `s` = block/2, block/4, …, 1, slot `t < s` becomes `slot[t] + slot[t + s]`.
/// The same additions in the same order as the kernels, so the sums agree bit
/// for bit. `block` must be a power of two.
pub fn block_tree_sums(input: &[f32], block: usize) -> Vec<f32> {
    assert!(block.is_power_of_two(), "the halving tree needs a power-of-two block");
    let mut tile = vec![0.0f32; block];
    input
        .chunks(block)
        .map(|chunk| {
            tile.fill(0.0);
            tile[..chunk.len()].copy_from_slice(chunk);
            let mut stride = block / 2;
            while stride > 0 {
                let (low, high) = tile.split_at_mut(stride);
                for (l, h) in low.iter_mut().zip(&high[..stride]) {
                    *l += *h;
                }
                stride /= 2;
            }
            tile[0]
        })
        .collect()
}

use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

/// The word of its warp's 32-word segment that lane `lane` reads in
/// [`permuted_copy`] at `key`: `(lane · (2·key + 1)) mod 32` XOR `key`. An
/// odd multiplier and an XOR both permute 0..32, so every word is read once;
/// key 0 is the identity (the in-order copy).
#[inline(always)]
pub fn segment_permutation(lane: u32, key: u32) -> u32 {
    let key = key & 31;
    (lane.wrapping_mul(2 * key + 1) & 31) ^ key
}

kernel! {
    /// Copies one `f32` per thread, each warp reading the 32 words of its own
    /// aligned 128-byte segment in a scrambled order and writing them in
    /// order: the Best Practices Guide's §3.2.1.1 remark that accesses
    /// permuted within a segment are still one transaction.
    ///
    /// **Demonstrates** that coalescing looks at which segments a warp
    /// touches, not at which lane asks for which word.
    ///
    /// **Indexing**: `xid = blockIdx.x * blockDim.x + threadIdx.x`, lane
    /// `l = xid mod 32`; writes `odata[xid]`, reads
    /// `idata[(xid − l) + ((l · (2·key + 1)) mod 32 XOR key)]`. Key 0 reads
    /// `idata[xid]`: the in-order copy with the same instructions. No bounds
    /// check inside: the launcher checks `grid * block <= len` and `0 <= key < 32`.
    ///
    /// **Launch**: 1-D grid of 1-D blocks of a multiple of 32 threads (the suite uses 256).
    ///
    /// **Expected**: on cc 1.0/1.1 a permuted half warp issued 16 serialized
    /// transactions; from cc 1.2 on, one. Today every key moves the same
    /// 32-byte sectors as the in-order copy: the same bandwidth.
    ///
    /// # Safety
    /// `grid * block` must be a multiple of 32 and at most the length of both
    /// buffers, and `0 <= key < 32` (`launchers::permuted_copy_shape` in the host crate checks this).
    pub unsafe fn permuted_copy(odata: GlobalMutPtr<f32>, idata: GlobalPtr<f32>, key: i32) {
        let xid = block_idx_x() * block_dim_x() + thread_idx_x();
        let lane = xid & 31;
        let source = (xid - lane) + segment_permutation(lane, key as u32);
        // SAFETY: the launcher checked grid * block <= len of both buffers; `source` stays in xid's 32-word segment.
        unsafe { odata.store(xid as isize, idata.load(source as isize)) };
    }
}

use crate::device::{GlobalMutPtr, TextureObject, block_dim_x, block_idx_x, tex1d_fetch_f32x4, thread_idx_x};

kernel! {
    /// Copies texel `t + shift` of a 1-D texture over `idata` to `odata[t]`:
    /// the guide's Listing 3.13 (`textureShiftCopy`, §3.2.4.1), with a texture
    /// object (`cuTexObjectCreate` over linear memory) in place of the
    /// long-removed texture reference bound with `cudaBindTexture`.
    ///
    /// **Demonstrates** reading misaligned data through the texture path.
    ///
    /// **Indexing**: `xid = blockIdx.x * blockDim.x + threadIdx.x`; fetches
    /// texel `xid + shift`, writes `xid`. A fetch past the texture returns 0,
    /// so only the write needs the launcher's bounds check.
    ///
    /// **Launch**: 1-D grid of 1-D blocks (the suite uses 256 threads).
    ///
    /// **Expected**: on cc 1.x textured reads kept the aligned bandwidth within
    /// a few percent at every shift. Since Maxwell the texture and L1 caches
    /// are one unit, so this path is no faster than plain loads (and can be a
    /// little slower): the guide's advice no longer buys anything.
    ///
    /// # Safety
    /// `grid * block <= len(odata)` (`launchers::texture_shift_copy_shape` checks this);
    /// `texture` must be a live texture object.
    pub unsafe fn texture_shift_copy(odata: GlobalMutPtr<f32>, texture: TextureObject, shift: i32) {
        let xid = (block_idx_x() * block_dim_x() + thread_idx_x()) as i32;
        let texel = tex1d_fetch_f32x4(texture, xid + shift);
        // SAFETY: the launcher checked grid * block <= len(odata).
        unsafe { odata.store(xid as isize, texel[0]) };
    }
}

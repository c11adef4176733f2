use crate::device::{
    GlobalMutPtr, GlobalPtr, TextureObject, WARP_SIZE, block_dim_x, block_idx_x, tex2d_f32x4, thread_idx_x,
};

/// The texel `(x, y)` that thread `gid` of a [`global_2d_tile_load`] or
/// [`texture_2d_tile_sample`] launch reads over an image `width` texels wide:
/// each warp takes one tile of `tile_width × (32 / tile_width)` texels, lanes
/// in row-major order inside it, and the tiles are dealt to the warps in
/// row-major order over the image. `tile_width` 32 is a row strip, 1 a
/// column walk, 8 and 4 compact 2-D blocks. Both `width` and `tile_width`
/// are powers of two (`tile_width ≤ 32 ≤ width`), so the mapping is shifts
/// and masks, not integer divisions that would cost as much as the loads.
#[inline(always)]
pub fn tile_texel(gid: u32, width: u32, tile_width: u32) -> (u32, u32) {
    let (warp, lane) = (gid / WARP_SIZE, gid % WARP_SIZE);
    let tile_log = tile_width.trailing_zeros();
    let tiles_per_row_log = width.trailing_zeros() - tile_log;
    let x = ((warp & ((1 << tiles_per_row_log) - 1)) << tile_log) | (lane & (tile_width - 1));
    let y = ((warp >> tiles_per_row_log) << (5 - tile_log)) | (lane >> tile_log);
    (x, y)
}

kernel! {
    /// Copies texel [`tile_texel`]`(t)` of the row-major `width`-wide image
    /// `idata` to `odata[t]` with plain read-only global loads
    /// (`ld.global.nc`, CUDA C's `__ldg`): the global-memory side of the
    /// guide's §3.2.4 claim that the texture cache favours warps whose reads
    /// are close together in 2-D.
    ///
    /// **Demonstrates** what one warp-tile shape (a 32×1 row strip, 8×4 or
    /// 4×8 blocks, a 1×32 column walk) costs through the L1 and L2 over a
    /// row-major array: a row strip is one 128-byte line a warp, a 2-D block
    /// touches `32 / tile_width` lines and a column walk 32.
    ///
    /// **Indexing**: `t = blockIdx.x * blockDim.x + threadIdx.x`; reads
    /// `idata[y * width + x]` with `(x, y) = tile_texel(t, width,
    /// tile_width)`; writes `odata[t]` (the writes are always coalesced).
    ///
    /// **Launch**: 1-D grid of 1-D blocks (the suite uses 256 threads), one
    /// thread per texel of a `width × height` image.
    ///
    /// **Expected**: on cc 1.x only a row strip coalesced and everything else
    /// was uncached. Since Fermi the L1/L2 catch the neighbouring warps'
    /// reuse of each line, so the blocks cost little; the column walk, 32
    /// lines per warp request, is the slow one.
    ///
    /// # Safety
    /// `tile_width` is a power of two ≤ 32, `width` a power of two ≥ 32,
    /// the image's height a multiple of `32 / tile_width`, `grid * block` is the
    /// image's texel count and at most `len(odata)` and `len(idata)`
    /// (`launchers::texture_2d_tile_shape` checks this); nothing writes
    /// `idata` during the launch.
    pub unsafe fn global_2d_tile_load(odata: GlobalMutPtr<u32>, idata: GlobalPtr<u32>, width: u32, tile_width: u32) {
        let gid = block_idx_x() * block_dim_x() + thread_idx_x();
        let (x, y) = tile_texel(gid, width, tile_width);
        // SAFETY: the launcher checked the tiles cover exactly the image, which fits both buffers.
        unsafe { odata.store(gid as isize, idata.load_read_only((y * width + x) as isize)) };
    }
}

kernel! {
    /// Samples a 2-D texture at `((x + offset_x) * scale_x, (y + offset_y) *
    /// scale_y)` for texel [`tile_texel`]`(t)` and writes the sample to
    /// `odata[t]`: the texture side of the guide's §3.2.4 2-D-locality claim
    /// and, with the texture object's modes, Table 3.4's features.
    ///
    /// **Demonstrates** one kernel for every row of Table 3.4: the texture
    /// object, not the code, picks point sampling or linear filtering,
    /// unnormalized or normalized coordinates (`scale` 1 or `1 / width`),
    /// clamp or wrap addressing; offsets past the image exercise the
    /// addressing mode, offsets with a fraction of .3 the filter's weights.
    ///
    /// **Indexing**: `t = blockIdx.x * blockDim.x + threadIdx.x`; `(x, y) =
    /// tile_texel(t, width, tile_width)`; writes `odata[t]`. A coordinate
    /// outside the texture is resolved by its addressing mode, never a fault.
    ///
    /// **Launch**: 1-D grid of 1-D blocks (the suite uses 256 threads), one
    /// thread per texel of a `width × height` image.
    ///
    /// **Expected**: the guide presents filtering, normalized coordinates and
    /// the addressing modes as hardware features of the fetch, at no cost to
    /// speak of. On a CUDA array (block-linear, 2-D tiled) a column walk
    /// reads about as fast as a row strip, unlike plain loads over a
    /// row-major array. Since Maxwell the texture and L1 caches are one
    /// unit, so a point-sampled fetch is no faster than `ld.global.nc` where
    /// both read the same lines.
    ///
    /// # Safety
    /// `tile_width` is a power of two ≤ 32, `width` a power of two ≥ 32,
    /// the image's height a multiple of `32 / tile_width`, `grid * block` is the
    /// image's texel count and at most `len(odata)`
    /// (`launchers::texture_2d_tile_shape` checks this); `texture` must be a
    /// live one-channel `f32` texture object.
    #[allow(clippy::too_many_arguments)] // the sampling position's four floats, as the CUDA C twin takes them
    pub unsafe fn texture_2d_tile_sample(
        odata: GlobalMutPtr<f32>,
        texture: TextureObject,
        width: u32,
        tile_width: u32,
        offset_x: f32,
        offset_y: f32,
        scale_x: f32,
        scale_y: f32,
    ) {
        let gid = block_idx_x() * block_dim_x() + thread_idx_x();
        let (x, y) = tile_texel(gid, width, tile_width);
        let u = (x as f32 + offset_x) * scale_x;
        let v = (y as f32 + offset_y) * scale_y;
        let sample = tex2d_f32x4(texture, u, v);
        // SAFETY: the launcher checked grid * block <= len(odata).
        unsafe { odata.store(gid as isize, sample[0]) };
    }
}

use crate::device::{GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, thread_idx_x};

kernel! {
    /// Copies `idata[t + shift]` to `odata[t]`: misaligned reads, aligned
    /// writes. The guide's Listing 3.12 (`shiftCopy`, §3.2.4.1).
    ///
    /// **Demonstrates** that only the loads pay for misalignment: the stores
    /// are always fully coalesced.
    ///
    /// **Indexing**: `xid = blockIdx.x * blockDim.x + threadIdx.x`; reads
    /// `xid + shift`, writes `xid`. No bounds check inside, as in the listing.
    ///
    /// **Launch**: 1-D grid of 1-D blocks (the suite uses 256 threads).
    ///
    /// **Expected**: on cc 1.x a shift that is neither 0 nor a multiple of 16
    /// made the loads uncoalesced (cc ≤ 1.1) or wasteful (cc 1.2/1.3), and the
    /// texture path (`texture_shift_copy`) recovered the aligned figure. Today
    /// the L1/L2 caches absorb the misalignment: expect the same few-percent
    /// cost as `offset_copy`, or less, since only the reads are shifted.
    ///
    /// # Safety
    /// `grid * block <= len(odata)` and `grid * block + shift <= len(idata)`,
    /// `shift >= 0` (`launchers::shift_copy_shape` checks this).
    pub unsafe fn shift_copy(odata: GlobalMutPtr<f32>, idata: GlobalPtr<f32>, shift: i32) {
        let xid = (block_idx_x() * block_dim_x() + thread_idx_x()) as i32;
        // SAFETY: the launcher checked both index ranges.
        unsafe { odata.store(xid as isize, idata.load((xid + shift) as isize)) };
    }
}

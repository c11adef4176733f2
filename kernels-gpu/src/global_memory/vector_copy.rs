use crate::device::{F32x4, GlobalMutPtr, GlobalPtr, block_dim_x, block_idx_x, grid_dim_x, thread_idx_x};

/// The most waves of blocks `vector_copy` is launched with (see its docs).
pub const VECTOR_COPY_MAX_WAVES: u32 = 1024;

kernel! {
    /// Copies `n` `f32`s the way one should today: 128-bit vector accesses
    /// (one `ld.global.v4`/`st.global.v4` per 16 bytes), a grid-stride loop
    /// that is correct for any grid, and a scalar tail. This is the suite's
    /// copy ceiling written in Rust.
    ///
    /// **Indexing**: thread `g = blockIdx.x * blockDim.x + threadIdx.x` copies
    /// vectors `g, g + G, g + 2G, ...` (`G` = threads in the grid), i.e.
    /// elements `4v..4v+4`; the first `n mod 4` threads copy the trailing scalars.
    ///
    /// **Launch**: 1-D blocks of 256 threads; `min(ceil(n/4 / 256), SMs ×
    /// resident blocks per SM × VECTOR_COPY_MAX_WAVES)` blocks — the grid
    /// is derived from the SM count and capped, and the loop covers whatever
    /// the cap leaves. Measured on an H200 (480 MiB buffers): one wave of
    /// blocks reached 0.92× of `cuMemcpyDtoD`, 8 waves 0.96×, 64 waves 0.99×,
    /// about one vector per thread 1.00×; an unrolled, tiled variant with four
    /// loads in flight per thread did no better (0.89–0.92×). Many short-lived
    /// blocks beat few long-lived ones here.
    ///
    /// **Expected**: on par with the driver's device-to-device copy; no cc 1.x
    /// counterpart (the guide's copies move one `float` per thread).
    ///
    /// **Across GPUs** (`peer`, `peer-copy-limits`, `host-links`): the same
    /// kernel copies between GPUs under peer access and to or from mapped host
    /// memory, since it only takes pointers. Measured on four H200 behind
    /// NVSwitch (18 NVLinks each, 478 GB/s per direction on paper), GPU 0 → 1,
    /// 1 GiB, against the source's copy engine at 397 GB/s:
    /// - *blocks in flight*: a persistent grid of ¼ block of 256 threads per
    ///   SM pulls 120 GB/s, ½ 235, 1 364, 2 370, 4 373, 8 374; pushing reaches
    ///   325 with ¼ (a store is posted and forgotten, while every remote load
    ///   waits a round trip of about 980 ns, `link-latency`), then 366–370;
    /// - *the default launch* (many short blocks): pull 375, push 374;
    /// - *both GPUs' SMs at once*, the source pushing half while the
    ///   destination pulls the other half: 376; both copy engines, half each: 395.
    ///
    /// So once every SM has a block, neither more loads or stores in flight,
    /// nor the direction, nor a second GPU's SMs move more: SM traffic tops
    /// out at 0.945× of the copy engine on the link itself, not in the SMs
    /// (the CUDA C twin the same, 367–368 GB/s at 64 MiB on every pair of the
    /// four). Over PCIe (mapped host memory) the kernel reaches 0.93× (reads)
    /// and 0.95× (writes) of the copy engines.
    ///
    /// *Why 0.945*: NVIDIA's NCCL developers state that SM requests carry at
    /// most 128 bytes of data per NVLink packet and copy engines 256
    /// (NVIDIA/nccl-tests issue 149). With one 16-byte header flit per packet
    /// (our assumption), the link carries 128 / 144 = 0.889 useful bytes per
    /// byte for SMs and 256 / 272 = 0.941 for the engines: a ratio of 0.944,
    /// the 0.945 measured. No choice of blocks or direction changes the packet
    /// size of a load or store, and bulk copies by the Tensor Memory
    /// Accelerator do not either: on two H100 joined by NV18 (GPU 1 → 0,
    /// 1 GiB, copy engine 397 GB/s) `gpu-checks/tma_peer_copy.cu` measured
    /// `cp.async.bulk` through shared memory (8–64 KB chunks, 3–8 stages, one
    /// or two blocks per SM) at 373.6–375.0 GB/s, 0.940–0.943× of the engine
    /// pulling and pushing, beside an `int4` SM copy at 374.5 pulling (0.943×)
    /// and 370 pushing. The Tensor Memory Accelerator is an SM unit and its
    /// requests travel as SM requests: no SM-issued copy reaches the copy
    /// engine on NVLink, so the engine is the route for bulk peer copies and
    /// this kernel the one for copies fused with work.
    ///
    /// # Safety
    /// Both pointers must be 16-byte aligned and point to at least `n` `f32`s
    /// (`launchers::vector_copy` checks this).
    pub unsafe fn vector_copy(out: GlobalMutPtr<f32>, inp: GlobalPtr<f32>, n: u64) {
        let out4: GlobalMutPtr<F32x4> = out.cast();
        let inp4: GlobalPtr<F32x4> = inp.cast();
        let vectors = n / 4;
        let first = block_idx_x() as u64 * block_dim_x() as u64 + thread_idx_x() as u64;
        let step = grid_dim_x() as u64 * block_dim_x() as u64;
        let mut v = first;
        while v < vectors {
            // SAFETY: v < vectors = n / 4, so the 16 bytes at 16v lie inside both buffers.
            unsafe { out4.store(v as isize, inp4.load(v as isize)) };
            v += step;
        }
        if first < n % 4 {
            let i = (vectors * 4 + first) as isize;
            // SAFETY: i < n.
            unsafe { out.store(i, inp.load(i)) };
        }
    }
}

use super::register_blocked::{AddPartialTile, Tile128x64, register_blocked_guarded_edges};
use crate::device::{GlobalMutPtr, GlobalPtr};

kernel! {
    /// Split-K on the 128 × 64 tile: [`sgemm_register_blocked_128x64_guarded_edges`](super::sgemm_register_blocked_128x64_guarded_edges)
    /// with `k` divided among `gridDim.z` blocks per tile of `C`, each adding
    /// its partial tile into `C` with `red.global.add.f32`
    /// ([`GlobalMutPtr::red_add`]).
    ///
    /// **Demonstrates** split-K, the way GEMM libraries fill a GPU when `C`
    /// has too few tiles: at 1024³ the 128 × 64 tile makes 128 blocks, one
    /// on each of 128 of an H100's 132 SMs, where the launch bound fits two
    /// (8 warps on an SM, two per scheduler, to hide shared-memory and
    /// barrier latency). Two splits make 256 blocks over half of `k` each:
    /// the same work per SM in one wave, with twice the warps resident. What
    /// it costs: `C` zeroed before the launch (the host's memset, in the same
    /// stream and the same timed launch sequence) and one atomic addition per
    /// element per split in place of one store (`REDG`, resolved at L2).
    ///
    /// **Indexing**: block `(bx, by, z)` computes the partial product of the
    /// tile `C[128·by ..][64·bx ..]` over `k` in `split_k_span(k, 16, z,
    /// gridDim.z)`: the `ceil(k / 16)` tiles of 16 dealt out in contiguous
    /// runs of `ceil(tiles / gridDim.z)`, split `z` taking run `z` (only the
    /// last nonempty run may end in a partial tile; a split past the last
    /// tile adds zeros). Within its span a block runs as in
    /// `sgemm_register_blocked_128x64_guarded_edges`: wholly inside `C`, the
    /// unguarded loop two tiles a trip (`float4` loads where `k` and `n` are
    /// multiples of 4); across an edge, the guarded loop. Threads own the
    /// outputs of [`sgemm_register_blocked_128x64`](super::sgemm_register_blocked_128x64)
    /// and add each into `C` (`red.global.add.f32`, guarded at the edges).
    ///
    /// **Order of the additions**: every element of `C` receives one partial
    /// per split, in whatever order the blocks finish. With two splits into a
    /// zeroed `C` the result is bit for bit independent of that order
    /// (`0 + a + b == 0 + b + a`: adding to zero is exact and the addition
    /// commutative), hence deterministic, and equal to `a + b` of the two
    /// partial sums (each in increasing `k` order, as the unsplit kernels
    /// sum); it is not bit for bit the unsplit product, which rounds one sum
    /// over all of `k`. With more than two splits the sum depends on the order
    /// and may change from run to run in its last bits; the host only ever
    /// launches two. `red.add.f32` flushes subnormal inputs and results to
    /// zero (sm_90 SASS: `REDG.E.ADD.F32.FTZ.RN`), which a plain store does
    /// not: a partial or sum below 2^-126 in magnitude becomes a signed zero.
    ///
    /// **Launch**: 1-D blocks of [`SGEMM_THREADS`](super::SGEMM_THREADS) (256)
    /// threads, a grid of `(ceil(n / 64), ceil(m / 128), splits)`,
    /// `SGEMM_TILE_128X64.shared_bytes()` (25 088 B) of dynamic shared
    /// memory; `C` holding zeros before the launch. The host launches it as a
    /// series of its own (`SgemmKernel::RegisterBlockedSplitK`, two splits at
    /// every size; `host/launchers/sgemm/tile_choice.rs`), and its launcher
    /// zeroes `C` itself. The register-blocked series never runs it (below).
    ///
    /// **Expected**: at 1024³ on an H100, four warps per scheduler instead of
    /// two for the same FMAs per SM, so more of the shared-memory and barrier
    /// latency hidden, against the zeroing (4 MB, about 2 µs of a 66 µs
    /// product) and twice the atomic additions into `C` (2 M `REDG`s, about
    /// 1.5% of the bytes the blocks load); a gain where latency, not issue,
    /// limits the unsplit kernel (it ran 0.871 of cuBLAS there).
    ///
    /// **Measured** on an H100, 2026-11-26, beside the unsplit launch in the
    /// same run (`docs/measured/h100-2026-11-26/sgemm-split-k-reduction`;
    /// a second run within 1%): at 1024³ this entry ran 30.2 TFLOP/s (its
    /// CUDA C twin 30.9), the unsplit 128 × 64 `_whole_tiles` launch 32.9:
    /// Rust / cuBLAS 0.803 split, 0.876 unsplit, split / unsplit 0.917. At
    /// the sizes the unsplit series runs on 128 × 128 tiles it loses more:
    /// 0.822 (2048³), 0.797 (4095³), 0.847 (4096³), 0.871 (8192³), where
    /// every SM already has two or more blocks. The doubled warps did not pay for the
    /// zeroing and the atomic additions on that GPU at that size; that is a
    /// measurement, not a rule for other GPUs or shapes. So the
    /// register-blocked series went back to the unsplit launch (128 × 64 at
    /// 1024³, by the tile rule), and this entry runs as its own series beside
    /// it, so that each run shows on its GPU what split-K costs or gains
    /// (the sgemm experiment's "split-K Rust / register-blocked Rust" ratio).
    ///
    /// # Safety
    /// `a`: `m * k`, `b`: `k * n`, `c`: `m * n` floats, each 16-byte aligned;
    /// the launch shape above, with `c` zeroed (or holding what the product
    /// is to be added to) before the launch, and no other access to `c`
    /// during it.
    pub unsafe fn sgemm_register_blocked_128x64_split_k(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { register_blocked_guarded_edges::<f32, Tile128x64, AddPartialTile>(a, b, c, m, n, k) }
    }
}

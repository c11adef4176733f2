use super::register_blocked::{
    Guarded, StoreTile, Tile128x64, Tile128x128, WholeTiles, register_blocked, register_blocked_guarded_edges,
};
use crate::device::{GlobalMutPtr, GlobalPtr};

kernel! {
    /// A high-performance SGEMM: block tiling, 8 × 8 register blocking per
    /// thread, double-buffered shared memory and 128-bit accesses — the
    /// design of the fast CUDA C SGEMMs (and of cuBLAS's pre-tensor-core kernels).
    ///
    /// **Demonstrates** raising arithmetic intensity step by step past the
    /// guide's tiled kernel: a 128 × 128 block tile of `C` per 256 threads,
    /// each thread accumulating an 8 × 8 block in registers, so one k-step
    /// costs a thread four `float4` shared-memory loads for 64 FMAs (the guide's
    /// kernel: two loads per FMA). `A`'s tile is stored transposed
    /// (`As[kk][row]`, padded to `BM + 4` floats) so both fragments are
    /// contiguous `float4`s; a thread's 8 rows and 8 columns are two strips of 4
    /// half a tile apart, which keeps the `float4` reads of a warp conflict-free.
    /// Global loads are one `float4` of `A` and one of `B` per thread and tile,
    /// issued before the current tile's FMAs and stored into the other shared
    /// buffer after them (one barrier per tile). Rows of `A` (`k % 4 == 0`), of
    /// `B` and `C` (`n % 4 == 0`) that start 16-byte aligned are accessed as
    /// `float4`; otherwise, uniformly for the whole launch, as single floats.
    ///
    /// **Indexing**: block `(bx, by)` computes `C[128·by ..][128·bx ..]` (128 × 128);
    /// thread `t` (`tx = t % 16`, `ty = t / 16`) owns rows `128·by + 4·ty + {0..4, 64..68}`
    /// and columns `128·bx + 4·tx + {0..4, 64..68}`; it stages `A[row t/2][4·(t%2) ..][..4]`
    /// and `B[k t/32][4·(t%32) ..][..4]` of each 128 × 8 / 8 × 128 tile pair.
    ///
    /// **Launch**: 1-D blocks of [`SGEMM_THREADS`](super::SGEMM_THREADS) (256) threads,
    /// a grid of `(ceil(n / SGEMM_BN), ceil(m / SGEMM_BM))`,
    /// [`sgemm_shared_bytes`](super::sgemm_shared_bytes) (16 640 B) of dynamic shared memory.
    ///
    /// **Expected**: compute-bound at large sizes; small or skinny problems
    /// have too few blocks to fill the GPU, which is why the host runs
    /// [`sgemm_register_blocked_128x64`] where that tile leaves the busiest SM
    /// less work (`host/launchers/sgemm/tile_choice.rs`; on an H100, 1024³).
    /// Unbounded, ptxas gives this entry 157 registers at sm_90 (one block per
    /// SM); on sm_90 the host adds the [`crate::launch_bounds`] `.maxntid 256,
    /// 1, 1` / `.minnctapersm 2` (CUDA C's `__launch_bounds__(256, 2)`), which
    /// fits it in 128 registers without spills, two blocks per SM. Shapes made
    /// of whole tiles take [`sgemm_register_blocked_whole_tiles`], all others
    /// [`sgemm_register_blocked_guarded_edges`] (this loop for the edge blocks
    /// only); this fully guarded entry is the reference the self-test and the
    /// emulator tests hold both to, bit for bit.
    ///
    /// What limits the register-blocked SGEMM, per size of the `sgemm`
    /// experiment (H100 SXM, 132 SMs; "before": one run of 2026-11-25, every
    /// size on the 128 × 128 tile, its whole-tile entry spilling 40 bytes
    /// under the driver's JIT; "after": `gpu-checks/sgemm_tiles.sh` on another
    /// H100 on 2026-11-26, the `_guarded_edges` build, published as
    /// `docs/measured/h100-2026-11-26/sgemm-guarded-edges`):
    ///
    /// | m = n = k | tile, entry, blocks | before: TFLOP/s, / cuBLAS, / CUDA C | after | what limits it |
    /// |---:|---|---|---|---|
    /// | 1024 | 128 × 64, `_128x64_whole_tiles`, 128 | 19.3, 0.536, 0.945 (64 blocks) | 32.8, 0.871, 0.992 | before: 64 blocks on 132 SMs, half the GPU idle; after: one block (8 warps) on 128 SMs, two warps per scheduler to hide shared-memory and barrier latency; not yet profiled (`NCU=1 gpu-checks/sgemm_tiles.sh`) |
    /// | 2048 | 128 × 128, `_whole_tiles`, 256 | 43.1, 0.867, 0.966 | 44.0, 0.874, 0.964 | a single wave (264 slots of two blocks per SM); per-SM issue and latency as at 4096³ |
    /// | 4095 | 128 × 128, `_guarded_edges` (before: guarded), 1024 | 40.2, 0.820, 0.954; 2026-11-26: 0.822, 0.961 | 45.1, 0.923, 1.042 | before: every block guarded, one tile per trip with run-time stage offsets (SASS: 663 instructions per tile, 0.772 FFMA); after: the 961 blocks inside `C` run the whole-tile loop float by float (1167 per two tiles, 0.877 FFMA, against 1165 and 0.879 at 4096³), the 63 edge blocks the guarded one; rows not 16-byte aligned: 8 scalar global loads a tile instead of 2 `LDG.128`; two aligned `LDG.128` and a shift instead were tried and measured slower (Rust 30.1, CUDA C 33.8 TFLOP/s, 0.613 of cuBLAS; H100, 2026-11-26) |
    /// | 4096 | 128 × 128, `_whole_tiles`, 1024 | 44.7, 0.864, 0.972 | 45.6, 0.883, 0.970 | issue and latency: per tile 512 FFMAs among about 600 instructions (32 `LDS.128`, staging, addresses), so issue alone caps it near 85% of the FP32 peak; four warps per scheduler (two blocks of 128 registers) and a barrier every 8 `k` steps; not yet profiled (`NCU=1 gpu-checks/sgemm_tiles.sh`) |
    /// | 8192 | 128 × 128, `_whole_tiles`, 4096 | 45.2, 0.877, 0.975 | 46.5, 0.903, 0.970 | as 4096³ |
    ///
    /// The ratios to cuBLAS are of the same run; cuBLAS SGEMM ran 36.0, 49.7,
    /// 49.1, 51.7 and 51.5 TFLOP/s before and 37.7, 50.3, 48.8, 51.6 and 51.6
    /// after (about 77% of the FP32 peak at 1980 MHz from 2048³). At 4095³ the
    /// CUDA C twin (0.885 of cuBLAS) is now the slower: its `_guarded_edges`
    /// cases are `__noinline__` functions that ptxas inlines again, and its
    /// inside loop issues 1187 instructions per two tiles against Rust's 1167.
    ///
    /// Split-K at 1024³: [`sgemm_register_blocked_128x64_split_k`](super::sgemm_register_blocked_128x64_split_k)
    /// runs two blocks per 128 × 64 tile, each over half of `k` (256 blocks,
    /// two per SM, twice the warps to hide latency), adding into a `C` the
    /// launcher zeroes first with `red.global.add.f32`. With two partials the
    /// sum does not depend on their order (0 + a + b = 0 + b + a exactly).
    /// Zeroing 4 MB costs about 2 µs of a 69 µs product. Measured on an H100
    /// in one run beside the unsplit launch (2026-11-26): 30.2 TFLOP/s in
    /// Rust (CUDA C 30.9) against 32.9 for the unsplit `_whole_tiles` launch,
    /// Rust / cuBLAS 0.803 against 0.876: 0.917 of the unsplit speed. So this series runs 1024³
    /// unsplit, and split-K is a series of its own at every size
    /// (`host/launchers/sgemm/tile_choice.rs`), its cost or gain on each run's
    /// GPU in the experiment's "split-K Rust / register-blocked Rust" ratio.
    ///
    /// Ruled out from the SASS (ptxas 13, sm_90, under the launch bound):
    /// local memory and spills (none in any entry, Rust or CUDA C); narrow
    /// accesses on the whole-tile path (`LDG.128`, `LDS.128`, `STS.128` for
    /// `B`, `STG.128`); shared-memory bank conflicts (a warp's transposing
    /// stores of `A` cover 16 rows × 2 `k` strips, rows 4 banks apart; its
    /// fragment loads read 2 distinct `float4`s of `A`, broadcast, and 16
    /// contiguous ones of `B`, the minimum two wavefronts); and the grid's
    /// fill from 2048³ (the busiest SM has about 3% more blocks than the
    /// average). What remains is per-SM: issue slots and stalls on shared
    /// memory and barriers, which `gpu-checks/sgemm_tiles.sh` with `NCU=1`
    /// measures at 1024³ and 4096³.
    ///
    /// # Safety
    /// `a`: `m * k`, `b`: `k * n`, `c`: `m * n` floats, each 16-byte aligned; the launch shape above.
    pub unsafe fn sgemm_register_blocked(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { register_blocked::<f32, Tile128x128, Guarded, StoreTile>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// [`sgemm_register_blocked`] for problems made of whole tiles: `m` and
    /// `n` multiples of 128, `k` a multiple of 8 (so every row is 16-byte
    /// aligned too).
    ///
    /// **Demonstrates** what a kernel gains when it may assume the shape, as
    /// libraries do by choosing among kernels: no edge guards, no scalar
    /// fallback, and the tile loop unrolled 2x so that the two shared-memory
    /// stages sit at constant offsets instead of `stage * STAGE`. The smaller
    /// guard-free body is what lets ptxas take the 2x unroll within 128
    /// registers; in the guarded kernel the same unroll gained nothing. The
    /// prefetch past the last tile reloads the last tile (never multiplied)
    /// rather than skipping its loads under a branch: the branch kept its
    /// predicate and the zeros' registers alive across the FMAs, and ptxas
    /// spilled 40 bytes of loop-invariant values (ptxas 13 and the CUDA 13.0
    /// JIT), reloaded four times per two tiles; without it, the loop body is
    /// straight-line and fits in 128 registers with no spills (ptxas 13).
    ///
    /// **Indexing** and **Launch**: as [`sgemm_register_blocked`]; the host
    /// picks this entry whenever the shape allows and the rule picks the
    /// 128 × 128 tile (on an H100: 2048³, 4096³, 8192³).
    ///
    /// **Expected**: on an H100 with the branching prefetch, 44.5 TFLOP/s at
    /// 4096³ and 45.1 at 8192³: 0.86-0.88 of cuBLAS SGEMM (FP32), 0.97 of its
    /// CUDA C twin (41.2 TFLOP/s, 0.80, before this entry); the same ratios on
    /// an H200; 0.75 of cuBLAS without the launch bounds (157 registers, one
    /// block per SM). Without the spills, in the run of 2026-11-26
    /// (`docs/measured/h100-2026-11-26/sgemm-split-k-reduction`): 44.0 TFLOP/s
    /// at 2048³, 45.5 at 4096³, 46.2 at 8192³, 0.878 / 0.883 / 0.897 of
    /// cuBLAS and 0.961 / 0.970 / 0.971 of the CUDA C twin.
    ///
    /// # Safety
    /// As [`sgemm_register_blocked`], and the multiples above.
    pub unsafe fn sgemm_register_blocked_whole_tiles(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { register_blocked::<f32, Tile128x128, WholeTiles, StoreTile>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// [`sgemm_register_blocked`] with a 128 × 64 block tile
    /// ([`SGEMM_TILE_128X64`](super::SGEMM_TILE_128X64)): the same 256
    /// threads, each accumulating 8 × 4 outputs, `k` staged 16 deep.
    ///
    /// **Demonstrates** choosing the tile by problem size, as libraries do:
    /// 128 × 128 tiles give a 1024² `C` only 64 blocks, half of an H100's 132
    /// SMs idle (0.52 of cuBLAS at 1024³); this tile gives 128. Per `k` step a
    /// thread reads two `float4`s of `A` and one of `B` from shared memory for
    /// 32 FMAs (3 loads per 32, against 4 per 64), and stages two `float4`s of
    /// `A` (two 8-deep halves of its row) and one of `B` per tile; a barrier
    /// still covers 512 FMAs a thread. The transposing `A` stores stay
    /// conflict-free: a warp's 32 threads write 16 rows × 2 strips.
    ///
    /// **Indexing**: block `(bx, by)` computes `C[128·by ..][64·bx ..]` (128 × 64);
    /// thread `t` (`tx = t % 16`, `ty = t / 16`) owns rows `128·by + 4·ty + {0..4, 64..68}`
    /// and columns `64·bx + 4·tx + {0..4}`; it stages `A[row t/2][4·(t%2) + {0, 8} ..][..4]`
    /// and `B[k t/16][4·(t%16) ..][..4]` of each 128 × 16 / 16 × 64 tile pair.
    ///
    /// **Launch**: 1-D blocks of [`SGEMM_THREADS`](super::SGEMM_THREADS) (256) threads,
    /// a grid of `(ceil(n / 64), ceil(m / 128))`, `SGEMM_TILE_128X64.shared_bytes()`
    /// (25 088 B) of dynamic shared memory. The host picks this tile by the rule in
    /// `host/launchers/sgemm/tile_choice.rs` (at 1024³ on an H100, unsplit;
    /// 128 × 128 from 2048³); the split-K series runs it in two along `k` at
    /// every size: [`sgemm_register_blocked_128x64_split_k`](super::sgemm_register_blocked_128x64_split_k).
    ///
    /// **Expected**: where it is chosen, the busiest SM has half the work it
    /// has with 128 × 128 tiles, at somewhat lower efficiency per FMA (more
    /// shared loads and staging per FMA). Measured on an H100 at 1024³
    /// (2026-11-26, `_whole_tiles`): 32.9 TFLOP/s, 0.876 of cuBLAS SGEMM (37.6)
    /// and 0.992 of the CUDA C twin, where the 128 × 128 tile (64 blocks) ran
    /// 0.536 of cuBLAS. Not profiled with ncu at this tile yet.
    ///
    /// # Safety
    /// As [`sgemm_register_blocked`], with this tile's launch shape.
    pub unsafe fn sgemm_register_blocked_128x64(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { register_blocked::<f32, Tile128x64, Guarded, StoreTile>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// [`sgemm_register_blocked_128x64`] for problems made of whole tiles:
    /// `m` a multiple of 128, `n` of 64 and `k` of 16. No edge guards, two
    /// tiles per trip of the main loop, as
    /// [`sgemm_register_blocked_whole_tiles`] is to [`sgemm_register_blocked`].
    ///
    /// **Indexing** and **Launch**: as [`sgemm_register_blocked_128x64`]; the
    /// host picks this entry whenever the shape allows.
    ///
    /// **Expected**: see [`sgemm_register_blocked_128x64`] (the
    /// register-blocked series runs 1024³ through this entry, never split: the
    /// split-K launch,
    /// [`sgemm_register_blocked_128x64_split_k`](super::sgemm_register_blocked_128x64_split_k),
    /// ran 0.917 of its speed there on an H100 and runs as its own series).
    ///
    /// # Safety
    /// As [`sgemm_register_blocked_128x64`], and the multiples above.
    pub unsafe fn sgemm_register_blocked_128x64_whole_tiles(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { register_blocked::<f32, Tile128x64, WholeTiles, StoreTile>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// [`sgemm_register_blocked`] with guards only where a block crosses an
    /// edge of `C`: the entry for every shape not made of whole tiles.
    ///
    /// **Demonstrates** paying for the edges only at the edges. A block
    /// wholly inside `C` (at 4095³, 961 of the 1024 blocks) runs the
    /// whole-tile loop over its whole `k` tiles: no guards, two tiles per
    /// trip with constant stage offsets, `float4` loads where `k` and `n` are
    /// multiples of 4 and float-by-float ones otherwise; then the partial last
    /// `k` tile, if any, guarded in `k` and not overlapped. A block crossing
    /// the last row or column of `C` runs [`sgemm_register_blocked`]'s
    /// guarded loop. The test is per block, so no warp diverges. One entry,
    /// not an interior launch plus edge launches: on one stream a second
    /// launch cannot start until the first has drained, so the 63 edge blocks
    /// of 4095³ would run as a wave of their own after the 961 interior ones
    /// (ceil(961 / 264) + 1 = 5 block times on an H100, two blocks per SM,
    /// against ceil(1024 / 264) = 4 in one launch).
    ///
    /// **Indexing**: as [`sgemm_register_blocked`]; the block's `k` loop
    /// runs `floor(k / 8)` whole tiles, two per trip, then one partial tile.
    ///
    /// **Launch**: as [`sgemm_register_blocked`]; the host picks this entry
    /// for the 128 × 128 tile whenever the shape is not made of whole tiles.
    ///
    /// **Expected**: at 4095³ near the whole-tile entry at 4096³ (the inside
    /// loop is the same but for 8 scalar loads a tile in place of 2 `float4`s):
    /// 45.1 TFLOP/s, 0.925 of cuBLAS and 1.044 of the CUDA C twin, where the
    /// fully guarded entry ran 0.822 of cuBLAS (H100, 2026-11-26). SASS (ptxas 13, sm_90, under
    /// the launch bound `.maxntid 256` / `.minnctapersm 2`): 128 registers, no
    /// spills; per two `k` tiles (1024 FFMAs a thread) the inside loops run
    /// 1167 instructions, 0.877 FFMA, float by float (16 `LDG.E`) and with
    /// `float4`s (4 `LDG.E.128`) alike, where [`sgemm_register_blocked_whole_tiles`]
    /// runs 1165 (0.879) and the guarded loop 2 × 663 (0.772); the guarded
    /// loop inside this entry is 651 instructions a tile. The CUDA C twin
    /// (NVRTC's compiler, the same ptxas): 128 registers, no spills, 1187
    /// (0.863) float by float and 1175 (0.871) with `float4`s, where its
    /// whole-tile entry runs 1153 (0.888).
    ///
    /// # Safety
    /// As [`sgemm_register_blocked`].
    pub unsafe fn sgemm_register_blocked_guarded_edges(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { register_blocked_guarded_edges::<f32, Tile128x128, StoreTile>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// [`sgemm_register_blocked_guarded_edges`] on the 128 × 64 tile: blocks
    /// wholly inside `C` run [`sgemm_register_blocked_128x64_whole_tiles`]'s
    /// loop over their whole `k` tiles (16 deep) and one guarded partial
    /// tile, blocks crossing an edge [`sgemm_register_blocked_128x64`]'s.
    ///
    /// **Indexing** and **Launch**: as [`sgemm_register_blocked_128x64`];
    /// the host picks this entry for the 128 × 64 tile whenever the shape is
    /// not made of whole tiles.
    ///
    /// **Expected**: as [`sgemm_register_blocked_guarded_edges`] is to the
    /// 128 × 128 tile (none of the experiment's sizes runs it on an H100).
    /// SASS (ptxas 13, sm_90, launch bound): 119 registers, no spills; per two
    /// 16-deep tiles the inside loops run 1200 instructions (0.853 FFMA) float
    /// by float and 1214 (0.843) with `float4`s, as
    /// [`sgemm_register_blocked_128x64_whole_tiles`] (1214); the CUDA C twin
    /// 1201 and 1183 (its whole-tile entry 1187), 117 registers.
    ///
    /// # Safety
    /// As [`sgemm_register_blocked_128x64`].
    pub unsafe fn sgemm_register_blocked_128x64_guarded_edges(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { register_blocked_guarded_edges::<f32, Tile128x64, StoreTile>(a, b, c, m, n, k) }
    }
}

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
    /// buffer after them (one barrier per tile). The fragments are
    /// double-buffered in registers too: each k step's FMAs come after the
    /// next step's shared-memory loads, and a tile's last step after the next
    /// tile is stored, the barrier passed and its first fragments requested, so
    /// no warp waits on a shared-memory load after the barrier. Rows of `A` (`k % 4 == 0`), of
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
    /// experiment (H100 SXM, 132 SMs, 1980 MHz; TFLOP/s, then / cuBLAS SGEMM
    /// and / the CUDA C twin of the same run). "Before": the full run of
    /// 266b596 (`docs/measured/h100-2026-11-26/full-final`), two stages
    /// through registers, fragments read just before their FMAs; "after": the
    /// full run of bdcc630 (`full-sgemm-pipelined`), fragments double-buffered
    /// across the barrier; two more `run --only sgemm` of the same code on
    /// another H100 gave 0.929–0.932, 0.929–0.936, 0.909–0.910, 0.929–0.930
    /// and 0.934–0.940 of cuBLAS. The stall figures are ncu's
    /// (`--clock-control none`, `gpu-checks/sgemm_stalls.sh`): cycles a warp
    /// waits per issued instruction, by reason (`sgemm-stalls.txt` before,
    /// `sgemm-stalls-pipelined.txt` after).
    ///
    /// | m = n = k | tile, entry, blocks | before | after | what limits it (after) |
    /// |---:|---|---|---|---|
    /// | 1024 | 128 × 64, `_128x64_whole_tiles`, 128 | 32.9, 0.873, 0.996 | 35.1, 0.935, 1.019 | latency: one block (8 warps) on 128 of 132 SMs, two warps per scheduler; issue 60% of cycles, 3.31 cycles per instruction of which 0.46 waiting on the global loads (one tile ahead is not enough here), 0.37 on shared memory, 0.25 at the barrier |
    /// | 2048 | 128 × 128, `_whole_tiles`, 256 | 44.0, 0.875, 0.961 | 46.8, 0.930, 1.031 | as 4096³, in a single wave (264 slots of two blocks per SM) |
    /// | 4095 | 128 × 128, `_guarded_edges`, 1024 | 45.1, 0.917, 1.043 | 44.4, 0.911, 0.981 | as 4096³ for the 961 blocks inside `C`, but float by float: rows not 16-byte aligned take 8 scalar global loads a tile instead of 2 `LDG.128`; the 63 edge blocks run the guarded loop (one tile a trip, run-time stage offsets) |
    /// | 4096 | 128 × 128, `_whole_tiles`, 1024 | 45.6, 0.883, 0.970 | 48.2, 0.936, 1.035 | issue: 82% of cycles issue (before 77%), 4.67 cycles per instruction (4.75): 1 issuing, 2.23 ready but not selected, 0.60 dispatch, 0.38 barrier (0.55), 0.23 shared memory (0.40); the loop is 0.905 FFMA (1024 of 1131 SASS instructions per two tiles), so 0.82 × 0.905 = 74% of the FP32 peak, as measured (72%) |
    /// | 8192 | 128 × 128, `_whole_tiles`, 4096 | 46.3, 0.891, 0.971 | 48.4, 0.940, 1.030 | as 4096³ |
    ///
    /// cuBLAS SGEMM ran 37.7, 50.3, 49.1, 51.6 and 51.9 TFLOP/s before and
    /// 37.6, 50.3, 48.8, 51.5 and 51.5 after (about 77% of the FP32 peak from
    /// 2048³). What chose the change (`gpu-checks/sgemm_variants.cu`,
    /// `docs/measured/h100-2026-11-26/sgemm-variants.txt`): in CUDA C, the
    /// same design with fragments double-buffered ran 0.94 of cuBLAS from
    /// 2048³ where the twin ran 0.90, while a three-stage `cp.async`
    /// pipeline in cuBLAS's own shape (128 × 64 × 8, 128 threads) ran only
    /// 0.76–0.80: cuBLAS's lead is not the asynchronous copies. What the port
    /// needed is in the body's comments (`register_blocked.rs`): addresses as
    /// a register plus an immediate, per-thread load pointers, an
    /// unconditional pair loop; each was measured. Toward 0.95 and past it:
    /// fewer non-FFMA instructions per tile (8 × 16 per thread halves the
    /// shared loads per FMA, at about 170 registers and one block per SM) and,
    /// at 1024³, loads more than one tile ahead.
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
    /// local memory and spills (none in any Rust entry; the CUDA C twin's
    /// fully guarded `sgemm_register_blocked` and `hgemm_f16_storage` spill
    /// 16 bytes, its other entries none); narrow
    /// accesses on the whole-tile path (`LDG.128`, `LDS.128`, `STS.128` for
    /// `B`, `STG.128`); shared-memory bank conflicts (a warp's transposing
    /// stores of `A` cover 16 rows × 2 `k` strips, rows 4 banks apart; its
    /// fragment loads read 2 distinct `float4`s of `A`, broadcast, and 16
    /// contiguous ones of `B`, the minimum two wavefronts); and the grid's
    /// fill from 2048³ (the busiest SM has about 3% more blocks than the
    /// average). What remains is per-SM: issue slots (from 2048³) and
    /// latency (1024³), in the table above.
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
    /// cuBLAS and 0.961 / 0.970 / 0.971 of the CUDA C twin. With the
    /// fragments double-buffered (`full-sgemm-pipelined`): 46.8, 48.2 and
    /// 48.4 TFLOP/s, 0.930 / 0.936 / 0.940 of cuBLAS, 1.031 / 1.035 / 1.030
    /// of the twin.
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
    /// 0.536 of cuBLAS; with fragments double-buffered (`full-sgemm-pipelined`):
    /// 35.1 TFLOP/s, 0.935 of cuBLAS, 1.019 of the twin. What limits it there
    /// (ncu): latency, two warps per scheduler (see [`sgemm_register_blocked`]'s table).
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
    /// loop is the same but for 8 scalar loads a tile in place of 2 `float4`s).
    /// With two stages and fragments read just before their FMAs: 45.1
    /// TFLOP/s, 0.925 of cuBLAS and 1.044 of the CUDA C twin, where the fully
    /// guarded entry ran 0.822 of cuBLAS (H100, 2026-11-26); with fragments
    /// double-buffered (`full-sgemm-pipelined`): 44.4 TFLOP/s, 0.911 of
    /// cuBLAS and 0.981 of the twin, the one size the change did not speed
    /// up (the whole-tile entry, whose loop its inside blocks run, gained 5–6%).
    /// SASS (ptxas 13, sm_90, under the launch bound `.maxntid 256` /
    /// `.minnctapersm 2`): 128 registers, no spills; per two `k` tiles (1024
    /// FFMAs a thread) the inside loops run 1140 instructions float by float
    /// (0.898 FFMA, 16 `LDG.E`) and 1129 with `float4`s (0.907), where
    /// [`sgemm_register_blocked_whole_tiles`] runs 1131 (0.905); the guarded
    /// loop runs 645 a tile (0.794). The CUDA C twin (NVRTC's compiler, the
    /// same ptxas): 1147 float by float, 1134 with `float4`s, 673 guarded; its
    /// whole-tile entry 1126.
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

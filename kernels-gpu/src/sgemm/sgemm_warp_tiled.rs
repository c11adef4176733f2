use super::warp_tiled::{WarpTile128x128, warp_tiled};
use crate::device::{GlobalMutPtr, GlobalPtr};

kernel! {
    /// A warp-tiled SGEMM: the register-blocked design
    /// ([`sgemm_register_blocked`](super::sgemm_register_blocked)) with a
    /// level of tiling between the block and the thread, as the fastest
    /// hand-written CUDA SGEMMs (the "warptiling" kernels) and CUTLASS's SIMT
    /// kernels have it.
    ///
    /// **Demonstrates** spending fewer instructions per FMA. The block tile is
    /// 128 × 128 of `C`, staged 16 deep in `k` ([`SGEMM_WARP_TILE_128X128`](super::SGEMM_WARP_TILE_128X128)):
    /// one barrier, two `LDG.128` of `A`, two of `B`, eight transposing
    /// `STS.32` of `A` and two `STS.128` of `B` per thread for 1024 FMAs,
    /// where the register-blocked kernel's 8-deep tile pays the staging for
    /// 512. Each of the 8 warps owns a 64 × 32 warp tile and each lane 8 × 8
    /// outputs as 2 × 2 sub-tiles of 4 × 4, the sub-tiles 32 rows and 16
    /// columns apart; per `k` step a lane still reads four `float4`s from
    /// shared memory for 64 FMAs, but a warp's `A` reads are 8 contiguous
    /// `float4`s (each broadcast to 4 lanes) and its `B` reads 4: one
    /// shared-memory wavefront per load instead of the register-blocked
    /// kernel's two for `B`. `A`'s tile is stored transposed and padded
    /// (`As[kk][row]`, 132 floats a row), two threads a row, so a warp's
    /// transposing stores hit 32 distinct banks. Loads of the next tile are
    /// issued before this tile's FMAs and stored into the other of two
    /// shared stages after them; the stage offset alternates at run time in
    /// one register (every shared access is that register plus a constant),
    /// so the tile loop is not unrolled: 1024 FFMAs a trip.
    ///
    /// **Indexing**: block `(bx, by)` computes `C[128·by ..][128·bx ..]`;
    /// thread `t`, warp `w = t / 32`, lane `l = t % 32` owns rows
    /// `128·by + 64·(w / 4) + 4·(l / 4) + {0..4} + {0, 32}` and columns
    /// `128·bx + 32·(w % 4) + 4·(l % 4) + {0..4} + {0, 16}`; it stages
    /// `A[row t/2][4·(t%2) + {0, 8} ..][..4]` and `B[k t/32 + {0, 8}][4·(t%32) ..][..4]`
    /// of each 128 × 16 / 16 × 128 tile pair.
    ///
    /// **Launch**: 1-D blocks of `SGEMM_WARP_TILE_128X128.threads()` (256) threads,
    /// a grid of `SGEMM_WARP_TILE_128X128.grid(m, n)` = `(ceil(n / 128), ceil(m / 128))`,
    /// `SGEMM_WARP_TILE_128X128.shared_bytes()` (33 280 B) of dynamic shared memory;
    /// the host adds the launch bound `.maxntid 256` / `.minnctapersm 2` on sm_90
    /// ([`crate::launch_bounds`]), two blocks per SM. Any `m, n, k ≥ 1`; shapes made of
    /// whole tiles take [`sgemm_warp_tiled_whole_tiles`].
    ///
    /// **Expected**: see [`sgemm_warp_tiled_whole_tiles`] (SASS instruction
    /// mix, and the measurements against cuBLAS and the register-blocked kernel).
    ///
    /// # Safety
    /// `a`: `m * k`, `b`: `k * n`, `c`: `m * n` floats, each 16-byte aligned; the launch shape above.
    pub unsafe fn sgemm_warp_tiled(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { warp_tiled::<WarpTile128x128, false>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// [`sgemm_warp_tiled`] for problems made of whole tiles: `m` and `n`
    /// multiples of 128, `k` of 16. No edge guards, `LDG.128` and `STG.128`
    /// throughout; the prefetch past the last tile reloads the last tile
    /// (never multiplied) instead of skipping its loads under a branch.
    ///
    /// **Indexing** and **Launch**: as [`sgemm_warp_tiled`].
    ///
    /// **Expected**: issue-bound like the register-blocked kernel, with
    /// fewer instructions that are not FFMAs. SASS of the tile loop (ptxas 13,
    /// sm_90, under the launch bound; static instructions of the loop body,
    /// per k step of 64 FFMAs a thread):
    ///
    /// | entry | FFMAs a trip | non-FFMA per k step | of which `LDS.128` | FFMA share | registers, spills |
    /// |---|---:|---:|---:|---:|---|
    /// | `sgemm_register_blocked_whole_tiles`, Rust | 1024 (2 tiles of 8) | 8.81 | 4 | 0.879 | 128, none |
    /// | `sgemm_warp_tiled_whole_tiles`, Rust | 1024 (1 tile of 16) | 7.19 | 4 | 0.899 | 127, none |
    /// | `sgemm_register_blocked_whole_tiles`, CUDA C | 1024 | 8.06 | 4 | 0.888 | 126, none |
    /// | `sgemm_warp_tiled_whole_tiles`, CUDA C | 1024 | 7.94 | 4 | 0.890 | 128, 4 B |
    ///
    /// Per 16 k steps the new Rust loop has 64 `LDS.128`, 4 `LDG.128`, 8
    /// `STS`, 2 `STS.128`, one barrier and 36 integer, move and branch
    /// instructions (the old one: 61, and two barriers). The guarded entry
    /// (both its `float4` and float-by-float paths in one loop) is 18.75 per
    /// k step in Rust (17.56 in CUDA C) against 18.88 for
    /// `sgemm_register_blocked`, and spills 44 B under the bound (CUDA C 44 B);
    /// it runs only where the shape is not made of whole tiles (4095³).
    /// Besides the issue slots, a warp's shared-memory reads take 4
    /// wavefronts per k step instead of 6, and a barrier comes every 1024
    /// FFMAs instead of 512. At 1024³ the 128 × 128 tile leaves half of an
    /// H100's SMs idle (64 blocks), as the register-blocked kernel's did
    /// before its 128 × 64 tile: this series is for 2048³ and up.
    /// Measured on an H100 (2026-11-26): 38.5 TFLOP/s at 4095³, 0.790 of
    /// cuBLAS (the register-blocked guarded-edges entry: 0.925), and 1.004
    /// of its CUDA C twin.
    ///
    /// # Safety
    /// As [`sgemm_warp_tiled`], and the multiples above.
    pub unsafe fn sgemm_warp_tiled_whole_tiles(a: GlobalPtr<f32>, b: GlobalPtr<f32>, c: GlobalMutPtr<f32>, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { warp_tiled::<WarpTile128x128, true>(a, b, c, m, n, k) }
    }
}

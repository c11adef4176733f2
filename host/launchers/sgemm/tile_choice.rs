//! Which block tile the register-blocked SGEMM runs for a problem, and the
//! entry that runs it; and the split-K launch of the 128 × 64 tile, its own
//! series beside it: the same choice for the Rust kernels and their CUDA C
//! twins, so the two are always compared on the same configuration.
//!
//! # The rule
//!
//! For each tile `t` of [`REGISTER_BLOCKED_TILES`] (largest first), a grid of
//! `blocks(t) = ceil(m / BM) · ceil(n / BN)` blocks on `sm_count` SMs leaves
//! the busiest SM `ceil(blocks(t) / sm_count)` blocks of `BM · BN` outputs
//! each (`k` is the same for every tile). Its cost is that work divided by the
//! tile's relative efficiency per FMA ([`TileChoice::efficiency`]); the tile
//! of least cost wins, ties going to the larger tile. The tile rule uses
//! `m`, `n` and the SM count; `k` decides between the `_guarded_edges` entry
//! and the `_whole_tiles` one. The register-blocked series never splits `k`
//! ([`register_blocked_plan`]).
//!
//! # Split-K, its own series
//!
//! The register-blocked entries run under a launch bound of two blocks per SM
//! on sm_90 (`kernels-gpu/src/launch_bounds.rs`), and one block of 8 warps
//! may have too few warps to hide an SM's shared-memory and barrier latency.
//! The 128 × 64 tile has a split-K entry ([`TileChoice::split_k_entry`]):
//! [`SPLIT_K_SPLITS`] (two) blocks per tile of `C`, each over its part of the
//! `k` tiles, their partial tiles added into `C`, which the launcher zeroes
//! first in the same stream (the memset is part of every timed launch). Only
//! two splits, ever: two partials added into zero give the same bits in
//! either order, more would not (see the kernel's docs).
//!
//! It was the register-blocked series' launch where the rule's grid gave no
//! SM a second block (1024³ on an H100: 128 blocks of 128 × 64 made 256). It
//! is not any more, because on an H100 it lost there: measured 2026-11-26
//! beside the unsplit launch in the same run (a second run within 1%), the
//! split-K launch at 1024³ ran 30.2 TFLOP/s in Rust (its CUDA C twin 30.9),
//! the unsplit 128 × 64 `_whole_tiles` launch 32.9: Rust / cuBLAS 0.803 split
//! against 0.876 unsplit, 0.917 of the unsplit speed; from 2048³, where every
//! SM already has two or more blocks, 0.797–0.871 of it. ncu (clocks
//! unlocked; `docs/measured/h100-2026-11-26/sgemm-split-k-reduction/ncu.txt`)
//! says why at 1024³: unsplit, 8 warps per SM (12.5% occupancy) leave no warp
//! eligible in 39% of cycles and the issue slots 57% busy (latency); split,
//! twice the warps (22.5%) each wait 5.9 cycles per instruction instead of
//! 3.3, and issue stays at 55%, with the memory pipes as busy (66%) as
//! before: the second block shares the first's shared-memory and L1 path
//! rather than filling its stalls. From 2048³ the unsplit kernel issues in
//! 77% of slots (IPC 3.2 of 4; 4095³ and 4096³), so issue, with 0.88 of
//! instructions FFMA, is what limits it there. That is one GPU:
//! the doubled warps per SM did not pay for the zeroing and the atomic additions
//! there, which says nothing of other GPUs or shapes. Where the cycles go at
//! 4096³ (ncu's stall reasons per issued instruction,
//! `docs/measured/h100-2026-11-26/sgemm-stalls.txt`): 4.75 cycles between a
//! warp's instructions, of which 1 issuing and 2.02 ready but not selected
//! (4 warps a scheduler), 0.55 at the barrier, 0.55 in dispatch and 0.40
//! waiting on shared-memory loads. What cuBLAS runs instead at 1024³ (the
//! same file): `sm80_xmma_gemm_f32f32_..._tilesize128x64x8_stage3_warpsize2x2x1_ffma`,
//! 128 blocks of 128 threads with 224 registers each (one block, 4 warps, per
//! SM: 6.25% occupancy), three shared-memory stages (sm_80's `cp.async`,
//! which this suite's sm_75 PTX cannot state), issue slots 66% busy where the
//! Rust kernel's 8 warps keep them 57% busy: it hides latency by
//! instructions in flight per warp, not by warps. (Not by `cp.async` itself:
//! a three-stage `cp.async` kernel in that shape ran 0.76–0.80 of cuBLAS in
//! CUDA C, `docs/measured/h100-2026-11-26/sgemm-variants.txt`. Since bdcc630
//! the register-blocked body keeps more in flight per warp by
//! double-buffering its fragments across the barrier: 0.930–0.940 of cuBLAS
//! at every size but 4095³ (0.911), issue 82% busy at 4096³ and the barrier
//! and shared-memory stalls down from 0.55 and 0.40 cycles per instruction to
//! 0.38 and 0.23, `sgemm-stalls-pipelined.txt`; at 1024³ one tile of
//! prefetch leaves 0.46 cycles per instruction waiting on global loads.) So split-K runs as its
//! own series ([`SPLIT_K_PLAN`], `SgemmKernel::RegisterBlockedSplitK`): the
//! 128 × 64 tile in two at every size, so that every run shows, beside the
//! unsplit kernel, what split-K costs or gains on that GPU. The experiment
//! measures it where each split gets at least [`SPLIT_K_MIN_TILES`] `k`
//! tiles ([`split_k_deep_enough`]: `k > 240` on the 128 × 64 × 16 tile), so
//! that the zeroing and the atomic additions stay small against the loop;
//! the launcher itself runs any shape.
//!
//! # The entry
//!
//! A shape made of whole tiles runs the `_whole_tiles` entry (no guards); any
//! other the `_guarded_edges` one, whose blocks inside `C` run the same
//! unguarded loop over their whole `k` tiles and whose edge blocks run the
//! fully guarded one. The fully guarded entry ([`TileChoice::entry`]) stays
//! for the self-test and the tests, as the reference the other two must
//! agree with bit for bit.
//!
//! On an H100 (132 SMs), square products: 1024³ makes 64 blocks of 128 × 128
//! (cost 16384) or 128 of 128 × 64 (cost 8192 / 0.9 ≈ 9102): 128 × 64,
//! through `sgemm_register_blocked_128x64_whole_tiles`, unsplit (the split-K
//! series runs the same tile in two: 256 blocks, two on each of 128 SMs, 32
//! `k` tiles each). From 2048³ the 128 × 128 tile already gives every SM its
//! share (2048³: 256 blocks, 2 for the busiest SM, cost 32768 against 4 ·
//! 8192 / 0.9 for 128 × 64), so it stays (2048³ to 8192³: 256 to 4096
//! blocks, more than one per SM).
//!
//! The efficiency of 128 × 64 (0.9) is an estimate, not a measurement: it
//! reads 3 `float4`s from shared memory per 32 FMAs where 128 × 128 reads 4
//! per 64, and stages 1.5 times the global bytes per FMA. It only decides
//! close calls (where the larger tile's busiest SM has at most 10% more work);
//! of the experiment's sizes, 1024³ halves the busiest SM's work with 128 ×
//! 64; 2048³–4096³ give it the same work either way, and 8192³ 1.6% less
//! with 128 × 64 (63 narrow blocks against 32 large ones), which the
//! estimate does not count as a gain.

use kernels_gpu::sgemm::{SGEMM_TILE_128X64, SGEMM_TILE_128X128, SgemmTile};

/// One register-blocked configuration the launchers may choose, with its entries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileChoice {
    pub tile: SgemmTile,
    /// The fully guarded entry (any shape): every load and store of every block guarded.
    pub entry: &'static str,
    /// The entry the launchers run for shapes not made of whole tiles: guards
    /// only in the blocks that cross an edge of `C` (any shape).
    pub guarded_edges_entry: &'static str,
    /// The entry for problems made of whole tiles ([`SgemmTile::whole_tiles`]).
    pub whole_tiles_entry: &'static str,
    /// The split-K entry (any shape; its grid `gridDim.z` splits deep, `C`
    /// zeroed first), where the tile has one.
    pub split_k_entry: Option<&'static str>,
    /// Work per FMA relative to the 128 × 128 tile (1.0); see the module docs.
    pub efficiency: f64,
}

/// The register-blocked configurations, largest tile first.
pub const REGISTER_BLOCKED_TILES: [TileChoice; 2] = [
    TileChoice {
        tile: SGEMM_TILE_128X128,
        entry: "sgemm_register_blocked",
        guarded_edges_entry: "sgemm_register_blocked_guarded_edges",
        whole_tiles_entry: "sgemm_register_blocked_whole_tiles",
        split_k_entry: None,
        efficiency: 1.0,
    },
    TileChoice {
        tile: SGEMM_TILE_128X64,
        entry: "sgemm_register_blocked_128x64",
        guarded_edges_entry: "sgemm_register_blocked_128x64_guarded_edges",
        whole_tiles_entry: "sgemm_register_blocked_128x64_whole_tiles",
        split_k_entry: Some("sgemm_register_blocked_128x64_split_k"),
        efficiency: 0.9,
    },
];

impl TileChoice {
    /// Blocks of the grid for an `m × n` `C`.
    pub fn blocks(&self, (m, n): (u32, u32)) -> u64 {
        let (x, y) = self.tile.grid(m, n);
        x as u64 * y as u64
    }

    /// The busiest SM's outputs over the tile's efficiency (the rule's cost).
    pub fn cost(&self, (m, n): (u32, u32), sm_count: u32) -> f64 {
        let per_sm = self.blocks((m, n)).div_ceil(sm_count.max(1) as u64);
        (per_sm * self.tile.rows as u64 * self.tile.cols as u64) as f64 / self.efficiency
    }

    /// The entry the launchers run for an `m × n × k` product: `_whole_tiles`
    /// where the shape allows, `_guarded_edges` otherwise.
    pub fn entry_for(&self, (m, n, k): (u32, u32, u32)) -> &'static str {
        if self.tile.whole_tiles(m, n, k) {
            self.whole_tiles_entry
        } else {
            self.guarded_edges_entry
        }
    }

    /// Every entry of this tile that may run an `m × n × k` product: the
    /// fully guarded one, the `_guarded_edges` one, `_whole_tiles` where
    /// the shape allows, and the split-K one where the tile has it (what the
    /// self-test runs).
    pub fn entries_for(&self, (m, n, k): (u32, u32, u32)) -> Vec<&'static str> {
        let mut entries = vec![self.entry, self.guarded_edges_entry];
        if self.tile.whole_tiles(m, n, k) {
            entries.push(self.whole_tiles_entry);
        }
        entries.extend(self.split_k_entry);
        entries
    }

    /// The blocks per tile of `C` (`gridDim.z`) `entry` of this tile runs with:
    /// [`SPLIT_K_SPLITS`] for the split-K entry, 1 for the others.
    pub fn splits_of(&self, entry: &str) -> u32 {
        if self.split_k_entry == Some(entry) {
            SPLIT_K_SPLITS
        } else {
            1
        }
    }

    /// `m × n` with the block tile, e.g. "128 × 64".
    pub fn label(&self) -> String {
        format!("{} × {}", self.tile.rows, self.tile.cols)
    }
}

/// The blocks per tile of `C` of a split-K launch: two, the one count whose
/// sum does not depend on the order of the additions (see the module docs).
pub const SPLIT_K_SPLITS: u32 = 2;

/// The fewest `k` tiles a split must get for the experiment to measure the
/// split-K series ([`split_k_deep_enough`]).
pub const SPLIT_K_MIN_TILES: u32 = 8;

/// A register-blocked launch: the tile and how many blocks share each tile of
/// `C` along `k` (1: unsplit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RegisterBlockedPlan {
    pub choice: TileChoice,
    /// Blocks per tile of `C` (`gridDim.z`): 1, or [`SPLIT_K_SPLITS`] with the split-K entry.
    pub splits: u32,
}

impl RegisterBlockedPlan {
    /// The entry the launchers run for an `m × n × k` product: the split-K
    /// one when split, otherwise [`TileChoice::entry_for`].
    pub fn entry(&self, dims: (u32, u32, u32)) -> &'static str {
        match self.choice.split_k_entry {
            Some(entry) if self.splits > 1 => entry,
            _ => self.choice.entry_for(dims),
        }
    }

    /// The grid `(x, y, z)` for an `m × n` `C`: the tile's, `splits` deep.
    pub fn grid(&self, (m, n): (u32, u32)) -> (u32, u32, u32) {
        let (x, y) = self.choice.tile.grid(m, n);
        (x, y, self.splits)
    }

    /// Blocks of the grid, every split counted.
    pub fn blocks(&self, (m, n): (u32, u32)) -> u64 {
        self.choice.blocks((m, n)) * self.splits as u64
    }

    /// The tile, and the splits where `k` is split, e.g. "128 × 64, split-K 2".
    pub fn label(&self) -> String {
        if self.splits > 1 {
            format!("{}, split-K {}", self.choice.label(), self.splits)
        } else {
            self.choice.label()
        }
    }
}

/// The register-blocked series' launch for an `m × n × k` product on a GPU
/// of `sm_count` SMs: the tile of [`register_blocked_tile`], never split
/// (split-K lost at 1024³ on an H100, where it used to split: the module
/// docs; it runs as its own series, [`SPLIT_K_PLAN`]).
pub fn register_blocked_plan(dims: (u32, u32, u32), sm_count: u32) -> RegisterBlockedPlan {
    RegisterBlockedPlan {
        choice: register_blocked_tile(dims, sm_count),
        splits: 1,
    }
}

/// The split-K series' launch at every shape: the 128 × 64 tile (the one
/// with a split-K entry) in [`SPLIT_K_SPLITS`] along `k`, whatever the SM count.
pub const SPLIT_K_PLAN: RegisterBlockedPlan = RegisterBlockedPlan {
    choice: REGISTER_BLOCKED_TILES[1],
    splits: SPLIT_K_SPLITS,
};

/// Whether `k` gives each split of [`SPLIT_K_PLAN`] at least
/// [`SPLIT_K_MIN_TILES`] `k` tiles: where the experiment measures the
/// split-K series (`k > 240` on the 128 × 64 × 16 tile).
pub fn split_k_deep_enough(k: u32) -> bool {
    k.div_ceil(SPLIT_K_PLAN.choice.tile.depth) >= SPLIT_K_PLAN.splits * SPLIT_K_MIN_TILES
}

/// The register-blocked tile for an `m × n × k` product on a GPU of
/// `sm_count` SMs, by the rule in the module docs.
pub fn register_blocked_tile((m, n, _k): (u32, u32, u32), sm_count: u32) -> TileChoice {
    let mut best = REGISTER_BLOCKED_TILES[0];
    for choice in &REGISTER_BLOCKED_TILES[1..] {
        if choice.cost((m, n), sm_count) < best.cost((m, n), sm_count) {
            best = *choice;
        }
    }
    best
}

/// The configuration one of whose entries is `entry`.
pub fn register_blocked_tile_of_entry(entry: &str) -> Option<TileChoice> {
    REGISTER_BLOCKED_TILES.into_iter().find(|c| {
        c.entry == entry
            || c.guarded_edges_entry == entry
            || c.whole_tiles_entry == entry
            || c.split_k_entry == Some(entry)
    })
}

/// Whether `entry` adds its blocks' partial tiles into `C` (a split-K entry),
/// so that `C` must hold zeros before each launch.
pub fn adds_into_c(entry: &str) -> bool {
    REGISTER_BLOCKED_TILES.iter().any(|c| c.split_k_entry == Some(entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_k_plan_is_the_tile_with_a_split_k_entry() {
        assert!(SPLIT_K_PLAN.choice.split_k_entry.is_some());
        assert_eq!(SPLIT_K_PLAN.entry((1, 1, 1)), "sgemm_register_blocked_128x64_split_k");
    }
}

//! Which block tile the register-blocked SGEMM runs for a problem, and the
//! entry that runs it: the same choice for the Rust kernels and their CUDA C
//! twins, so the two are always compared on the same configuration.
//!
//! # The rule
//!
//! For each tile `t` of [`REGISTER_BLOCKED_TILES`] (largest first), a grid of
//! `blocks(t) = ceil(m / BM) · ceil(n / BN)` blocks on `sm_count` SMs leaves
//! the busiest SM `ceil(blocks(t) / sm_count)` blocks of `BM · BN` outputs
//! each (`k` is the same for every tile). Its cost is that work divided by the
//! tile's relative efficiency per FMA ([`TileChoice::efficiency`]); the tile
//! of least cost wins, ties going to the larger tile. The rule uses `m`, `n`
//! and the SM count; `k` only decides between the `_guarded_edges` entry and
//! the `_whole_tiles` one.
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
//! (cost 16384) or 128 of 128 × 64 (cost 8192 / 0.9 ≈ 9102): 128 × 64. From
//! 2048³ the 128 × 128 tile already gives every SM its share (2048³: 256
//! blocks, 2 for the busiest SM, cost 32768 against 4 · 8192 / 0.9 for 128 ×
//! 64), so it stays.
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
        efficiency: 1.0,
    },
    TileChoice {
        tile: SGEMM_TILE_128X64,
        entry: "sgemm_register_blocked_128x64",
        guarded_edges_entry: "sgemm_register_blocked_128x64_guarded_edges",
        whole_tiles_entry: "sgemm_register_blocked_128x64_whole_tiles",
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
    /// fully guarded one, the `_guarded_edges` one, and `_whole_tiles` where
    /// the shape allows (what the self-test runs).
    pub fn entries_for(&self, (m, n, k): (u32, u32, u32)) -> Vec<&'static str> {
        let mut entries = vec![self.entry, self.guarded_edges_entry];
        if self.tile.whole_tiles(m, n, k) {
            entries.push(self.whole_tiles_entry);
        }
        entries
    }

    /// `m × n` with the block tile, e.g. "128 × 64".
    pub fn label(&self) -> String {
        format!("{} × {}", self.tile.rows, self.tile.cols)
    }
}

/// The register-blocked configuration for an `m × n × k` product on a GPU of
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
    REGISTER_BLOCKED_TILES
        .into_iter()
        .find(|c| c.entry == entry || c.guarded_edges_entry == entry || c.whole_tiles_entry == entry)
}

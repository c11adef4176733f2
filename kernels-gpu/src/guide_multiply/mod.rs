//! Shared-memory matrix multiplies of the CUDA C Best Practices Guide,
//! §3.2.2.2–3.2.2.3 (Listings 3.7–3.11), with `TILE_DIM = 32` (the warp
//! size, as the guide advises for cc ≥ 2.x).
//!
//! `C = AB` with `A` of `M × TILE_DIM` and `B` of `TILE_DIM × N`; `C = AAᵀ`
//! with `A` of `M × TILE_DIM`. All row-major `f32`. **Launch** for every
//! kernel: blocks of `TILE_DIM × TILE_DIM` threads, a grid of
//! `(N / TILE_DIM, M / TILE_DIM)` blocks (`(M / TILE_DIM, M / TILE_DIM)` for
//! `AAᵀ`), so `M` and `N` must be multiples of `TILE_DIM`; dynamic shared
//! memory as each kernel states. No bounds checks inside, as in the guide:
//! the host launcher proves the shapes.
//!
//! Accumulation uses FMA, as nvcc contracts the listings' `sum += a * b`.

mod coalesced_multiply;
mod coalesced_multiply_aat;
mod coalesced_multiply_aat_padded;
mod shared_ab_multiply;
mod simple_multiply;
mod simple_multiply_aat;

pub use coalesced_multiply::{coalesced_multiply, coalesced_multiply_params};
pub use coalesced_multiply_aat::{coalesced_multiply_aat, coalesced_multiply_aat_params};
pub use coalesced_multiply_aat_padded::{coalesced_multiply_aat_padded, coalesced_multiply_aat_padded_params};
pub use shared_ab_multiply::{shared_ab_multiply, shared_ab_multiply_params};
pub use simple_multiply::{simple_multiply, simple_multiply_params};
pub use simple_multiply_aat::{simple_multiply_aat, simple_multiply_aat_params};

use crate::device::{SharedPtr, dynamic_shared_memory};

/// Tile edge: the warp size.
pub const TILE_DIM: u32 = 32;

/// Floats in one unpadded tile.
pub(crate) const TILE_FLOATS: usize = (TILE_DIM * TILE_DIM) as usize;

/// Bytes of dynamic shared memory for `tiles` tiles of `TILE_DIM × pitch` floats.
pub const fn tile_bytes(tiles: usize, pitch: usize) -> usize {
    tiles * TILE_DIM as usize * pitch * 4
}

/// A `TILE_DIM × pitch` row-major tile of floats in dynamic shared memory
/// (`__shared__ float tile[TILE_DIM][pitch]` in CUDA C); `pitch = TILE_DIM + 1`
/// is the padded tile that avoids bank conflicts on column access.
#[derive(Clone, Copy)]
pub(crate) struct SharedTile {
    base: SharedPtr<f32>,
    pitch: usize,
}

impl SharedTile {
    /// The tile that starts `first` floats into the launch's dynamic shared memory.
    #[inline(always)]
    pub fn at(first: usize, pitch: usize) -> Self {
        let base = dynamic_shared_memory::<f32>().offset_elems(first);
        Self { base, pitch }
    }

    /// `tile[row][col]`.
    ///
    /// # Safety
    /// `row < TILE_DIM`, `col < pitch`, and the launch has the tile's shared memory.
    #[inline(always)]
    #[track_caller]
    pub unsafe fn load(self, row: u32, col: u32) -> f32 {
        // SAFETY: forwarded contract.
        unsafe { self.base.load(row as usize * self.pitch + col as usize) }
    }

    /// `tile[row][col] = value`.
    ///
    /// # Safety
    /// As [`load`](Self::load).
    #[inline(always)]
    #[track_caller]
    pub unsafe fn store(self, row: u32, col: u32, value: f32) {
        // SAFETY: forwarded contract.
        unsafe { self.base.store(row as usize * self.pitch + col as usize, value) }
    }
}

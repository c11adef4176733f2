//! The notes' all-pairs "gravity" swarm: every particle sums a pull from
//! every other particle, on far fewer particles than the fountain.

use crate::device::{
    F32x4, GlobalMutPtr, GlobalPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, dynamic_shared_memory, fma,
    sync_threads, thread_idx_x, thread_idx_y,
};

/// Distances are scaled by this before the pull `1/d` per axis.
pub const GRAVITY_SCALE: f32 = 1000.0;
/// A scaled distance of at most this (per axis) pulls nothing (the particle itself, close neighbours).
pub const GRAVITY_NEAR: f32 = 0.1;
/// The position moves by this times the velocity each step.
pub const GRAVITY_STEP: f32 = 0.0000001;
/// Colour component of an axis whose velocity is positive; otherwise [`GRAVITY_DIM`].
pub const GRAVITY_BRIGHT: f32 = 1.0;
/// Colour component of an axis whose velocity is zero or negative.
pub const GRAVITY_DIM: f32 = 0.4;

/// The pull of a particle at `other` on one at `me`, added to `pull` (per
/// axis: `1/d` for the scaled difference `d = 1000·(other − me)` unless `|d| <= 0.1`).
#[inline(always)]
fn add_pull(pull: &mut [f32; 3], me: [f32; 4], other: [f32; 4]) {
    for k in 0..3 {
        let d = GRAVITY_SCALE * (other[k] - me[k]);
        if d.abs() > GRAVITY_NEAR {
            pull[k] += 1.0 / d;
        }
    }
}

/// Writes particle `i`'s new velocity (`state[i] = (0, v)`), colour and
/// position from its summed `pull`.
///
/// # Safety
/// `i < n`, `state` holds `n` and `vertices` `2·n` float4s.
#[inline(always)]
unsafe fn finish(
    vertices: GlobalMutPtr<F32x4>,
    state: GlobalMutPtr<F32x4>,
    n: u32,
    i: u32,
    me: [f32; 4],
    pull: [f32; 3],
) {
    // SAFETY: i < n <= len(state).
    let [_, vx, vy, vz] = unsafe { state.load(i as isize) }.to_array();
    let v = [pull[0] + vx, pull[1] + vy, pull[2] + vz];
    let tint = |c: f32| if c > 0.0 { GRAVITY_BRIGHT } else { GRAVITY_DIM };
    let moved = [
        fma(GRAVITY_STEP, v[0], me[0]),
        fma(GRAVITY_STEP, v[1], me[1]),
        fma(GRAVITY_STEP, v[2], me[2]),
    ];
    // SAFETY: i < n <= len(state); n + i < 2·n <= len(vertices).
    unsafe {
        state.store(i as isize, F32x4::from_array([0.0, v[0], v[1], v[2]]));
        vertices.store(
            (n + i) as isize,
            F32x4::from_array([tint(v[0]), tint(v[1]), tint(v[2]), 1.0]),
        );
        vertices.store(i as isize, F32x4::from_array([moved[0], moved[1], moved[2], 1.0]));
    }
}

kernel! {
    /// One step of the notes' all-pairs swarm, unoptimised as they wrote it:
    /// each thread walks every particle's position in global memory, adds a
    /// pull of `1/d` per axis for the scaled difference
    /// `d = 1000·(p_j − p_i)` (none where `|d| <= 0.1`, so not from itself),
    /// adds the sum to its velocity, moves by `1e-7` of the velocity and
    /// colours itself by the velocity's signs.
    ///
    /// **Fix**: the notes read and overwrite the same position buffer in one
    /// launch, so a particle's pull depends on whether the other blocks have
    /// already moved: a race. Here the positions are read from `positions`
    /// (the previous step's vertex buffer) and written to `vertices` (the
    /// host swaps the two each step).
    ///
    /// **Demonstrates** an O(n²) step: n = 4096 particles make 16.7 million
    /// pulls per step, each thread's loop a chain of dependent adds with an
    /// IEEE division per axis, every thread of a warp reading the same
    /// position (a broadcast from the cache).
    ///
    /// **Indexing**: 2-D grid of 2-D blocks, `i = y·width + x`, guarded
    /// edges; the loop over `j = 0 .. width·height` in order.
    ///
    /// **Launch**: `ceil(width/bx) × ceil(height/by)` blocks of `bx × by`, any shape.
    ///
    /// **Expected**: the notes give no figure ("most definitely not
    /// optimized"); their lecture recommends staging data in shared-memory
    /// tiles. On a current GPU the repeated positions hit L1, so the loop is
    /// bound by its division and add latencies: to be measured against
    /// [`particle_gravity_tiled`].
    ///
    /// # Safety
    /// `positions` holds `width·height` float4s, `vertices` `2·width·height`,
    /// `state` `width·height`; `positions` does not overlap `vertices`, and
    /// `2·width·height` fits a `u32`.
    pub unsafe fn particle_gravity(
        positions: GlobalPtr<F32x4>,
        vertices: GlobalMutPtr<F32x4>,
        state: GlobalMutPtr<F32x4>,
        width: u32,
        height: u32,
    ) {
        let x = block_idx_x() * block_dim_x() + thread_idx_x();
        let y = block_idx_y() * block_dim_y() + thread_idx_y();
        if x >= width || y >= height {
            return;
        }
        let n = width * height;
        let i = y * width + x;
        let mut pull = [0.0f32; 3];
        for j in 0..n {
            // SAFETY: i, j < n <= len(positions).
            let (me, other) = unsafe { (positions.load(i as isize), positions.load(j as isize)) };
            add_pull(&mut pull, me.to_array(), other.to_array());
        }
        // SAFETY: i < n = width·height <= len(positions).
        let me = unsafe { positions.load(i as isize) }.to_array();
        // SAFETY: i < n and the buffers' lengths as the contract says.
        unsafe { finish(vertices, state, n, i, me, pull) };
    }
}

kernel! {
    /// [`particle_gravity`] with the positions staged in shared memory, one
    /// block-sized tile at a time: each thread copies one position into the
    /// tile, the block waits, every thread sums the pulls of the whole tile
    /// from shared memory, the block waits again, and so on. The pulls are
    /// added in the same order `j = 0, 1, …`, so the result is the naive
    /// kernel's bit for bit.
    ///
    /// **Demonstrates** the notes' advice for global data: partition it into
    /// tiles that fit shared memory, compute on the tile, write the results
    /// back (the classic n-body tiling).
    ///
    /// **Indexing**: as [`particle_gravity`]; tile slot
    /// `threadIdx.y·blockDim.x + threadIdx.x` holds position `t·T + slot` of
    /// tile `t` (`T = bx·by`). Threads past the edge load and wait but write nothing.
    ///
    /// **Launch**: as [`particle_gravity`], with `16·bx·by` bytes of dynamic shared memory.
    ///
    /// **Expected**: tiling helps (the notes give no figure). On a current
    /// GPU the naive kernel's loads already come from L1 as broadcasts, so
    /// the gain is smaller than on the notes' cache-less G80: to be measured.
    ///
    /// # Safety
    /// As [`particle_gravity`], and the launch provides `16·bx·by` bytes of shared memory.
    pub unsafe fn particle_gravity_tiled(
        positions: GlobalPtr<F32x4>,
        vertices: GlobalMutPtr<F32x4>,
        state: GlobalMutPtr<F32x4>,
        width: u32,
        height: u32,
    ) {
        let tile = dynamic_shared_memory::<F32x4>();
        let (tx, ty) = (thread_idx_x(), thread_idx_y());
        let threads = block_dim_x() * block_dim_y();
        let slot = ty * block_dim_x() + tx;
        let x = block_idx_x() * block_dim_x() + tx;
        let y = block_idx_y() * block_dim_y() + ty;
        let inside = x < width && y < height;
        let n = width * height;
        let i = if inside { y * width + x } else { 0 };
        // SAFETY: i < n <= len(positions) (0 for threads outside, which only load it).
        let me = unsafe { positions.load(i as isize) }.to_array();
        let mut pull = [0.0f32; 3];
        let mut first = 0u32;
        while first < n {
            let count = threads.min(n - first);
            if slot < count {
                // SAFETY: first + slot < n <= len(positions); slot < threads, the tile's length.
                unsafe { tile.store(slot as usize, positions.load((first + slot) as isize)) };
            }
            sync_threads();
            for k in 0..count {
                // SAFETY: k < count <= threads; slot k was written before the barrier.
                let other = unsafe { tile.load(k as usize) };
                add_pull(&mut pull, me, other.to_array());
            }
            sync_threads();
            first += count;
        }
        if inside {
            // SAFETY: i < n and the buffers' lengths as the contract says.
            unsafe { finish(vertices, state, n, i, me, pull) };
        }
    }
}

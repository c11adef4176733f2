//! The notes' last tuning step: the state staged in a block-sized tile of
//! shared memory, with and without barriers.

use super::{age_colour, fountain_motion};
use crate::device::{
    F32x4, GlobalMutPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, dynamic_shared_memory, sync_threads,
    thread_idx_x, thread_idx_y,
};

/// Shared memory a staged fountain launch needs: one float4 per thread.
pub const fn staged_tile_bytes(block_threads: u32) -> u32 {
    block_threads * 16
}

/// One staged step; `barriers` puts a `__syncthreads` after the tile is
/// filled and after it is updated (the two kernels differ only in that).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn staged_step(
    vertices: GlobalMutPtr<F32x4>,
    state: GlobalMutPtr<F32x4>,
    (width, height): (u32, u32),
    max_age: f32,
    emitter_angle: f32,
    frame: u32,
    barriers: bool,
) {
    let tile = dynamic_shared_memory::<F32x4>();
    let (tx, ty) = (thread_idx_x(), thread_idx_y());
    let slot = (ty * block_dim_x() + tx) as usize;
    let x = block_idx_x() * block_dim_x() + tx;
    let y = block_idx_y() * block_dim_y() + ty;
    // Threads past the edge stay to the barriers but touch no memory.
    let inside = x < width && y < height;
    let i = y.wrapping_mul(width).wrapping_add(x);
    if inside {
        // SAFETY: i < width·height <= len(state); slot < threads per block, the tile's length (launch's shared bytes).
        unsafe { tile.store(slot, state.load(i as isize)) };
    }
    if barriers {
        sync_threads();
    }
    if inside {
        // SAFETY: slot < the tile's length; this thread wrote it above. i < width·height <= len(vertices).
        let (particle, position) = unsafe { (tile.load(slot), vertices.load(i as isize)) };
        let (particle, position) = fountain_motion(
            (x, y, i),
            (width, height),
            max_age,
            emitter_angle,
            frame,
            particle,
            position,
        );
        // SAFETY: as above; width·height + i < 2·width·height <= len(vertices) (launcher's check).
        unsafe {
            tile.store(slot, particle);
            vertices.store(
                (width * height + i) as isize,
                age_colour(particle.to_array()[0], max_age),
            );
            vertices.store(i as isize, position);
        }
    }
    if barriers {
        sync_threads();
    }
    if inside {
        // SAFETY: as above.
        unsafe { state.store(i as isize, tile.load(slot)) };
    }
}

kernel! {
    /// The fountain with its state staged in shared memory, as the notes'
    /// last step did: a `bx × by` tile of float4 (their `BLOCK_DIM ×
    /// BLOCK_DIM`) in dynamic shared memory; each thread copies its
    /// particle's state into the tile, updates it there and copies it back
    /// to global memory from the tile. The position is read once into
    /// registers ([`fountain_motion`](super::fountain_motion)).
    ///
    /// **Demonstrates** the notes' shared-memory staging (1515 fps with the
    /// copy in, 1530 with the write-back through the tile, on a 9600 GT,
    /// 16 × 16 blocks) and their remark that registers should do as well:
    /// no thread reads another's slot, so the tile is a detour.
    ///
    /// **Indexing**: as [`particle_fountain`](super::particle_fountain);
    /// tile slot `threadIdx.y·blockDim.x + threadIdx.x`.
    ///
    /// **Launch**: `ceil(width/bx) × ceil(height/by)` blocks of `bx × by`,
    /// any shape, with [`staged_tile_bytes`]`(bx·by)` bytes of dynamic shared memory.
    ///
    /// **Expected**: the notes: 1530 fps against 730 for the naive kernel,
    /// a little above the register version. On a current GPU the extra
    /// shared-memory round trip costs a few instructions per particle beside
    /// 80 bytes of DRAM traffic: no measurable gain expected.
    ///
    /// # Safety
    /// As [`particle_fountain`](super::particle_fountain), and the launch
    /// provides [`staged_tile_bytes`]`(bx·by)` bytes of shared memory.
    pub unsafe fn particle_fountain_staged(
        vertices: GlobalMutPtr<F32x4>,
        state: GlobalMutPtr<F32x4>,
        width: u32,
        height: u32,
        max_age: f32,
        emitter_angle: f32,
        frame: u32,
    ) {
        // SAFETY: forwarded contract.
        unsafe { staged_step(vertices, state, (width, height), max_age, emitter_angle, frame, false) }
    }
}

kernel! {
    /// [`particle_fountain_staged`] with a `__syncthreads` after filling the
    /// tile and another before writing it back, as the notes tried: correct
    /// without them (each thread touches only its own slot), so the barriers
    /// are pure cost.
    ///
    /// **Demonstrates** the notes' finding that the barriers only cost
    /// about 1%.
    ///
    /// **Indexing**, **Launch**: as [`particle_fountain_staged`]; threads past
    /// the grid's edge stay for the barriers.
    ///
    /// **Expected**: the notes: about 1% slower than without. On a current
    /// GPU two barriers per 16 × 16 block, against a step bound by memory or
    /// by the launch: a cost within the noise.
    ///
    /// # Safety
    /// As [`particle_fountain_staged`].
    pub unsafe fn particle_fountain_staged_synced(
        vertices: GlobalMutPtr<F32x4>,
        state: GlobalMutPtr<F32x4>,
        width: u32,
        height: u32,
        max_age: f32,
        emitter_angle: f32,
        frame: u32,
    ) {
        // SAFETY: forwarded contract.
        unsafe { staged_step(vertices, state, (width, height), max_age, emitter_angle, frame, true) }
    }
}

use super::{
    FOUNTAIN_BOUNCE, FOUNTAIN_EMITTER_RADIUS, FOUNTAIN_GRAVITY, FOUNTAIN_SPREAD, FOUNTAIN_TABLE_HALF_WIDTH,
    FOUNTAIN_UP_RANDOM, FOUNTAIN_UP_SPEED, particle_uniform,
};
use crate::device::{
    F32x4, GlobalMutPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, cos_approx, fma, sin_approx, thread_idx_x,
    thread_idx_y,
};

kernel! {
    /// One fountain step as the notes' first version wrote it, before any
    /// tuning: the state is a `float *` (four floats per particle at
    /// `4·i .. 4·i + 3`) read and written one float at a time, the position
    /// read back from the vertex buffer one component at a time wherever it
    /// is used, and the table top tested as the square `|x| < 5 && |z| < 5`
    /// with two `fabs` and a third condition.
    ///
    /// **Demonstrates** the starting point of the notes' tuning (their 730
    /// fps on a 9600 GT): every access is a 4-byte load or store whose warp
    /// touches a 16-byte stride, and because the two buffers may alias, each
    /// store to the state forces the position components to be loaded again.
    /// Two departures from the notes, so that its results are checkable bit
    /// for bit: the emitter is placed with the fast sine and cosine as in
    /// every fountain here (the notes' `sin(time)/5.0`; they found the
    /// trigonometry "takes up no time": it runs only at a rebirth), and the
    /// colour is computed as [`age_colour`](super::age_colour) rounds it
    /// (alpha written too). The position goes out as one float4 store, as in the notes.
    ///
    /// **Indexing**: 2-D grid of 2-D blocks, `i = y·width + x`, guarded
    /// edges; state floats at `state[4·i + k]`, position components at
    /// float `4·i + k` of the vertex buffer, colour at float4 `width·height + i`.
    ///
    /// **Launch**: `ceil(width/bx) × ceil(height/by)` blocks of `bx × by`, any shape.
    ///
    /// **Expected**: the notes went from 730 fps with this kernel to 1530
    /// with the tuned one (2.1×), float4 state being the biggest step. On a
    /// current GPU the L1 cache gathers the strided 4-byte accesses into the
    /// same sectors a float4 access reads, so the DRAM traffic is the same;
    /// what remains is more load and store instructions: to be measured.
    ///
    /// # Safety
    /// As [`particle_fountain`](super::particle_fountain): `vertices` holds
    /// `2·width·height` float4s (16-byte aligned), `state` `4·width·height`
    /// floats, and `2·width·height` fits a `u32`.
    pub unsafe fn particle_fountain_naive(
        vertices: GlobalMutPtr<F32x4>,
        state: GlobalMutPtr<f32>,
        width: u32,
        height: u32,
        max_age: f32,
        emitter_angle: f32,
        frame: u32,
    ) {
        let x = block_idx_x() * block_dim_x() + thread_idx_x();
        let y = block_idx_y() * block_dim_y() + thread_idx_y();
        if x >= width || y >= height {
            return;
        }
        let i = y * width + x;
        let a = (4 * i) as isize;
        let pos = vertices.cast::<f32>();
        let colour = (4 * (width * height + i)) as isize;
        // SAFETY (every access below): x < width and y < height, so 4·i + 3 < 4·width·height <= len(state) and
        // <= floats of the positions; the colour's floats 4·(width·height + i) + k < 8·width·height (launcher's check).
        unsafe {
            if state.load(a) >= max_age {
                state.store(a, 0.0);
                state.store(a + 1, FOUNTAIN_SPREAD * (x as f32 / width as f32 - 0.5));
                state.store(a + 2, fma(FOUNTAIN_UP_RANDOM, particle_uniform(i, frame, 0), FOUNTAIN_UP_SPEED));
                state.store(a + 3, FOUNTAIN_SPREAD * (y as f32 / height as f32 - 0.5));
                pos.store(a, FOUNTAIN_EMITTER_RADIUS * sin_approx(emitter_angle));
                pos.store(a + 1, 0.0);
                pos.store(a + 2, FOUNTAIN_EMITTER_RADIUS * cos_approx(emitter_angle));
            }
            let new_x = pos.load(a) + state.load(a + 1);
            let new_y = pos.load(a + 1) + state.load(a + 2);
            let new_z = pos.load(a + 2) + state.load(a + 3);
            state.store(a, state.load(a) + 1.0);
            state.store(a + 2, state.load(a + 2) - FOUNTAIN_GRAVITY);
            if new_y <= 0.0
                && pos.load(a).abs() < FOUNTAIN_TABLE_HALF_WIDTH
                && pos.load(a + 2).abs() < FOUNTAIN_TABLE_HALF_WIDTH
            {
                state.store(a + 2, FOUNTAIN_BOUNCE * state.load(a + 2));
            }
            pos.store(colour, 1.0);
            pos.store(colour + 1, fma(-0.5, state.load(a) / max_age, 1.0));
            pos.store(colour + 2, 1.0 - state.load(a) / max_age);
            pos.store(colour + 3, 1.0);
            vertices.store(i as isize, F32x4::from_array([new_x, new_y, new_z, 1.0]));
        }
    }
}

use super::{
    FOUNTAIN_BOUNCE, FOUNTAIN_EMITTER_RADIUS, FOUNTAIN_GRAVITY, FOUNTAIN_SPREAD, FOUNTAIN_TABLE_HALF_WIDTH,
    FOUNTAIN_UP_RANDOM, FOUNTAIN_UP_SPEED, age_colour, particle_uniform,
};
use crate::device::{
    F32x4, GlobalMutPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, cos_approx, fma, sin_approx, thread_idx_x,
    thread_idx_y,
};

kernel! {
    /// The notes' first tuning step on
    /// [`particle_fountain_naive`](super::particle_fountain_naive): the state
    /// becomes a `float4 *`, read once into registers with one 16-byte load
    /// and written once with one 16-byte store. Everything else is left as
    /// the first version had it: the position read back from the vertex
    /// buffer one component at a time where it is used, the square table
    /// top tested with two `fabs`.
    ///
    /// **Demonstrates** what the notes call their biggest improvement, float4
    /// particle data, alone: the naive kernel's eight scalar state loads and
    /// up to nine scalar stores become one vector load and one vector store
    /// (in the PTX rustc writes, the load comes out as 4 + 8 + 4 bytes, the
    /// parts used on each path; the store stays one 16-byte store).
    ///
    /// **Indexing**: as the naive kernel: `i = y·width + x`, guarded edges,
    /// state at float4 `i`, position components at floats `4·i + k` of the
    /// vertex buffer, colour at float4 `width·height + i`.
    ///
    /// **Launch**: `ceil(width/bx) × ceil(height/by)` blocks of `bx × by`, any shape.
    ///
    /// **Expected**: the notes give no separate figure for this step, only
    /// that it was the largest of their gains (730 → 1530 fps in all). On a
    /// current GPU both versions move the same sectors; the gain is the
    /// instructions saved: to be measured.
    ///
    /// # Safety
    /// As [`particle_fountain`](super::particle_fountain).
    pub unsafe fn particle_fountain_float4_state(
        vertices: GlobalMutPtr<F32x4>,
        state: GlobalMutPtr<F32x4>,
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
        // SAFETY (every access below): x < width and y < height, so i < width·height <= len(state), the position
        // floats 4·i + k < 4·width·height and the colour index width·height + i < 2·width·height (launcher's check).
        unsafe {
            let [mut age, mut vx, mut vy, mut vz] = state.load(i as isize).to_array();
            if age >= max_age {
                age = 0.0;
                vx = FOUNTAIN_SPREAD * (x as f32 / width as f32 - 0.5);
                vy = fma(FOUNTAIN_UP_RANDOM, particle_uniform(i, frame, 0), FOUNTAIN_UP_SPEED);
                vz = FOUNTAIN_SPREAD * (y as f32 / height as f32 - 0.5);
                pos.store(a, FOUNTAIN_EMITTER_RADIUS * sin_approx(emitter_angle));
                pos.store(a + 1, 0.0);
                pos.store(a + 2, FOUNTAIN_EMITTER_RADIUS * cos_approx(emitter_angle));
            }
            let moved = F32x4::from_array([pos.load(a) + vx, pos.load(a + 1) + vy, pos.load(a + 2) + vz, 1.0]);
            age += 1.0;
            vy -= FOUNTAIN_GRAVITY;
            if moved.to_array()[1] <= 0.0
                && pos.load(a).abs() < FOUNTAIN_TABLE_HALF_WIDTH
                && pos.load(a + 2).abs() < FOUNTAIN_TABLE_HALF_WIDTH
            {
                vy *= FOUNTAIN_BOUNCE;
            }
            state.store(i as isize, F32x4::from_array([age, vx, vy, vz]));
            vertices.store((width * height + i) as isize, age_colour(age, max_age));
            vertices.store(i as isize, moved);
        }
    }
}

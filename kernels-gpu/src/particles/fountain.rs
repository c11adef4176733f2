use super::{age_colour, fountain_motion};
use crate::device::{
    F32x4, GlobalMutPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, thread_idx_x, thread_idx_y,
};

/// Speed added to `vy` each step, downwards (per step²).
pub const FOUNTAIN_GRAVITY: f32 = 0.0001;
/// Factor applied to `vy` when a particle hits the table top.
pub const FOUNTAIN_BOUNCE: f32 = -0.2;
/// The table top is the disc `x² + z² < 25` in the plane `y = 0`.
pub const FOUNTAIN_TABLE_RADIUS_SQUARED: f32 = 25.0;
/// The notes' first kernel tested the square `|x| < 5 && |z| < 5` instead.
pub const FOUNTAIN_TABLE_HALF_WIDTH: f32 = 5.0;
/// Horizontal speed range: a particle at grid column `x` leaves with
/// `vx = 0.02·(x/width − ½)`, likewise `vz` from its row.
pub const FOUNTAIN_SPREAD: f32 = 0.02;
/// Least upward speed at birth.
pub const FOUNTAIN_UP_SPEED: f32 = 0.015;
/// Random part of the upward speed: `vy = 0.015 + 0.01·u`, `u` in `[0, 1)`.
pub const FOUNTAIN_UP_RANDOM: f32 = 0.01;
/// The emitter circles the origin at this radius, in the table's plane.
pub const FOUNTAIN_EMITTER_RADIUS: f32 = 0.2;

kernel! {
    /// One step of the notes' fountain (the `float4` version of their
    /// kernel): each particle ages by one step; one that has reached
    /// `max_age` is born again at the emitter, which circles the origin
    /// (`0.2·(sin a, 0, cos a)` for `emitter_angle = a`), with a horizontal
    /// velocity set by its place in the particle grid and a random upward
    /// one; it moves by its velocity, falls under gravity, bounces (losing
    /// 80% of its speed) when it reaches the table top, and takes its colour
    /// from its age (white, yellow, red).
    ///
    /// **Demonstrates** the notes' interop kernel: positions and colours
    /// written straight into the vertex buffer OpenGL draws, per-particle
    /// state in a second buffer, one `float4` load or store per access, and
    /// the fast `__sinf`/`__cosf` ([`sin_approx`], [`cos_approx`]).
    ///
    /// **Indexing**: 2-D grid of 2-D blocks, `x`, `y` from block and thread
    /// indices, particle `i = y·width + x`, guarded edges (see
    /// [`crate::particles`]); positions at `vertices[i]`, colours at
    /// `vertices[width·height + i]`, state at `state[i]`. The random upward
    /// speed is [`particle_uniform`]`(i, frame, 0)`.
    ///
    /// **Launch**: `ceil(width/bx) × ceil(height/by)` blocks of `bx × by`
    /// threads, any shape. The notes used 256 × 256 particles in 16 × 16
    /// blocks.
    ///
    /// **Expected**: the notes measured frame rates, not kernel times: on
    /// their GPU every shape from 4 × 4 to 256 × 1 gave about 75 fps (the
    /// display's limit), 1 × 256 61 fps and 1 × 1 49 fps; on a 9600 GT the
    /// tuned version ran at 1530 fps against 730 for the first one. On a
    /// current GPU the 65 536 particles move 5 MiB per step, a few
    /// microseconds at full bandwidth, so the frame time is the map, unmap,
    /// draw and read-back around the kernel; shapes with fewer than 32
    /// threads per block waste lanes of every warp, and 1 × N blocks make
    /// each warp's accesses strided by the row length: to be measured.
    ///
    /// # Safety
    /// `vertices` must hold `2·width·height` and `state` `width·height`
    /// `float4`s, 16-byte aligned, and `2·width·height` must fit a `u32`
    /// (`launchers::particle_shape` in the host crate checks this).
    /// `emitter_angle` should lie in `[-π, π]`, where the fast sine's error is bounded.
    pub unsafe fn particle_fountain(
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
        let colour_index = width * height + i;
        // SAFETY: x < width and y < height, so i < width·height <= len(state) (launcher's check).
        let particle = unsafe { state.load(i as isize) };
        // SAFETY: as above, i < width·height <= len(vertices).
        let position = unsafe { vertices.load(i as isize) };
        let (particle, position) =
            fountain_motion((x, y, i), (width, height), max_age, emitter_angle, frame, particle, position);
        let age = particle.to_array()[0];
        // SAFETY: i < width·height <= len(state).
        unsafe { state.store(i as isize, particle) };
        // SAFETY: width·height + i < 2·width·height <= len(vertices), and the sum fits a u32 (launcher's check).
        unsafe { vertices.store(colour_index as isize, age_colour(age, max_age)) };
        // SAFETY: i < len(vertices).
        unsafe { vertices.store(i as isize, position) };
    }
}

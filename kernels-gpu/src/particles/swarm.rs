use super::{age_colour, particle_uniform};
use crate::device::{
    F32x4, GlobalMutPtr, block_dim_x, block_dim_y, block_idx_x, block_idx_y, fma, sqrt, thread_idx_x, thread_idx_y,
};

/// Speed gained per step towards the target (per step², whatever the distance).
pub const SWARM_PULL: f32 = 0.000005;
/// A new particle starts at `target + 2·r³` per axis, `r` uniform in `[-½, ½)`.
pub const SWARM_SPAWN_OFFSET: f32 = 2.0;
/// ... with velocity `0.001·r³` per axis.
pub const SWARM_SPAWN_SPEED: f32 = 0.001;

kernel! {
    /// One step of the notes' swarm: every particle steers towards a target
    /// whose position the host passes each step: it gains
    /// [`SWARM_PULL`] of speed per step along the direction to the target,
    /// so the swarm overshoots, turns and follows the target around. A
    /// particle that has reached `max_age` is born again near the target
    /// (offset `2·r³` per axis, velocity `0.001·r³`, `r` uniform in
    /// `[-½, ½)`), so new particles cluster at the target and old ones trail
    /// behind it. Colour by age as in the fountain.
    ///
    /// The notes divide by the distance to the target unguarded; a particle
    /// exactly on the target (distance 0) gets no pull here instead of NaN.
    ///
    /// **Demonstrates** the same interop data flow as the fountain with
    /// per-step input from the host (the target) and a square root and a
    /// division per particle; the notes' version kept the state as a
    /// `float *` and read the position back from the vertex buffer several
    /// times, this one loads each `float4` once.
    ///
    /// **Indexing**: as [`particle_fountain`](super::particle_fountain):
    /// 2-D grid of 2-D blocks, `i = y·width + x`, guarded edges. Random
    /// numbers [`particle_uniform`]`(i, frame, s)` for axes `s = 0, 1, 2`.
    ///
    /// **Launch**: `ceil(width/bx) × ceil(height/by)` blocks of `bx × by`, any shape.
    ///
    /// **Expected**: like the fountain, 80 bytes per particle per step;
    /// the notes give no frame rates for it: to be measured.
    ///
    /// # Safety
    /// As [`particle_fountain`](super::particle_fountain): `vertices` holds
    /// `2·width·height` `float4`s, `state` `width·height`, and
    /// `2·width·height` fits a `u32`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn particle_swarm(
        vertices: GlobalMutPtr<F32x4>,
        state: GlobalMutPtr<F32x4>,
        width: u32,
        height: u32,
        max_age: f32,
        target_x: f32,
        target_y: f32,
        target_z: f32,
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
        let [mut age, mut vx, mut vy, mut vz] = unsafe { state.load(i as isize) }.to_array();
        // SAFETY: as above, i < width·height <= len(vertices).
        let [mut px, mut py, mut pz, _] = unsafe { vertices.load(i as isize) }.to_array();
        if age >= max_age {
            let rx = particle_uniform(i, frame, 0) - 0.5;
            let ry = particle_uniform(i, frame, 1) - 0.5;
            let rz = particle_uniform(i, frame, 2) - 0.5;
            let (cx, cy, cz) = (rx * rx * rx, ry * ry * ry, rz * rz * rz);
            age = 0.0;
            vx = SWARM_SPAWN_SPEED * cx;
            vy = SWARM_SPAWN_SPEED * cy;
            vz = SWARM_SPAWN_SPEED * cz;
            px = target_x + SWARM_SPAWN_OFFSET * cx;
            py = target_y + SWARM_SPAWN_OFFSET * cy;
            pz = target_z + SWARM_SPAWN_OFFSET * cz;
        }
        age += 1.0;
        let (dx, dy, dz) = (target_x - px, target_y - py, target_z - pz);
        let distance = sqrt(fma(dz, dz, fma(dy, dy, dx * dx)));
        if distance > 0.0 {
            vx += SWARM_PULL * dx / distance;
            vy += SWARM_PULL * dy / distance;
            vz += SWARM_PULL * dz / distance;
        }
        let position = F32x4::from_array([px + vx, py + vy, pz + vz, 1.0]);
        // SAFETY: i < width·height <= len(state).
        unsafe { state.store(i as isize, F32x4::from_array([age, vx, vy, vz])) };
        // SAFETY: width·height + i < 2·width·height <= len(vertices), and the sum fits a u32 (launcher's check).
        unsafe { vertices.store(colour_index as isize, age_colour(age, max_age)) };
        // SAFETY: i < len(vertices).
        unsafe { vertices.store(i as isize, position) };
    }
}

use super::particle_uniform;
use super::{
    FOUNTAIN_BOUNCE, FOUNTAIN_EMITTER_RADIUS, FOUNTAIN_GRAVITY, FOUNTAIN_SPREAD, FOUNTAIN_TABLE_RADIUS_SQUARED,
    FOUNTAIN_UP_RANDOM, FOUNTAIN_UP_SPEED,
};
use crate::device::{F32x4, cos_approx, fma, sin_approx};

/// Where particle `i` at `(x, y)` of a `width × height` grid is after one
/// fountain step, from its state `(age, vx, vy, vz)` and position, both
/// already in registers: its new state and position (`w = 1`). The tuned
/// kernels' arithmetic, shared by every kernel that reads the particle once
/// ([`particle_fountain`](super::particle_fountain) and the staged ones):
/// rebirth at the emitter, move, age, gravity, a bounce on the table's disc.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn fountain_motion(
    (x, y, i): (u32, u32, u32),
    (width, height): (u32, u32),
    max_age: f32,
    emitter_angle: f32,
    frame: u32,
    state: F32x4,
    position: F32x4,
) -> (F32x4, F32x4) {
    let [mut age, mut vx, mut vy, mut vz] = state.to_array();
    let [mut px, mut py, mut pz, _] = position.to_array();
    if age >= max_age {
        age = 0.0;
        vx = FOUNTAIN_SPREAD * (x as f32 / width as f32 - 0.5);
        vy = fma(FOUNTAIN_UP_RANDOM, particle_uniform(i, frame, 0), FOUNTAIN_UP_SPEED);
        vz = FOUNTAIN_SPREAD * (y as f32 / height as f32 - 0.5);
        px = FOUNTAIN_EMITTER_RADIUS * sin_approx(emitter_angle);
        py = 0.0;
        pz = FOUNTAIN_EMITTER_RADIUS * cos_approx(emitter_angle);
    }
    let moved = F32x4::from_array([px + vx, py + vy, pz + vz, 1.0]);
    age += 1.0;
    vy -= FOUNTAIN_GRAVITY;
    if moved.to_array()[1] <= 0.0 && fma(px, px, pz * pz) < FOUNTAIN_TABLE_RADIUS_SQUARED {
        vy *= FOUNTAIN_BOUNCE;
    }
    (F32x4::from_array([age, vx, vy, vz]), moved)
}

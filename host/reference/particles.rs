//! What one step of `particle_fountain` / `particle_swarm` does, as plain
//! loops over the particle grid, and whole runs of steps for checkpoint
//! comparisons.
//!
//! Written from the notes' description, not from the kernels: its own
//! random-number hash (the same published function), its own indexing. The
//! arithmetic is rounded as the kernels round it (each multiply, add and
//! divide in `f32`, the products the kernels fuse as `f32::mul_add`), so the
//! emulator matches it bit for bit; on the GPU only the fountain's emitter
//! position differs, by the fast sine's and cosine's error (see
//! `kernels_gpu::device::sin_approx`).

use crate::error::Result;
use crate::particle_scene::{ParticleGrid, ParticleState, ParticleSystem, StepInputs, check_max_age, initial_state};

/// The hash behind the random numbers: the "lowbias32" xorshift-multiply mixer.
fn lowbias32(mut x: u32) -> u32 {
    x = (x ^ (x >> 16)).wrapping_mul(0x7feb_352d);
    x = (x ^ (x >> 15)).wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

/// Uniform in `[0, 1)` on a `2^-24` grid for (particle, frame, stream);
/// four streams per frame.
fn random_unit(particle: u32, frame: u32, stream: u32) -> f32 {
    let frame_key = lowbias32(frame.wrapping_mul(4).wrapping_add(stream));
    let bits = lowbias32(particle ^ frame_key);
    (bits >> 8) as f32 / 16_777_216.0
}

/// `(1, 1 − c/2, 1 − c, 1)` for `c = age / max_age`.
fn colour_for_age(age: f32, max_age: f32) -> [f32; 4] {
    let c = age / max_age;
    [1.0, (-0.5f32).mul_add(c, 1.0), 1.0 - c, 1.0]
}

/// One step of the fountain over every particle of `state`.
pub fn fountain_step(state: &mut ParticleState, max_age: u32, emitter_angle: f32, frame: u32) {
    let max_age = max_age as f32;
    let (width, height) = (state.grid.width, state.grid.height);
    let n = state.grid.particles();
    for row in 0..height {
        for column in 0..width {
            let p = (row * width + column) as usize;
            let mut s = [
                state.state[4 * p],
                state.state[4 * p + 1],
                state.state[4 * p + 2],
                state.state[4 * p + 3],
            ];
            let mut old = [
                state.vertices[4 * p],
                state.vertices[4 * p + 1],
                state.vertices[4 * p + 2],
            ];
            if s[0] >= max_age {
                s[0] = 0.0;
                s[1] = 0.02 * (column as f32 / width as f32 - 0.5);
                s[2] = 0.01f32.mul_add(random_unit(p as u32, frame, 0), 0.015);
                s[3] = 0.02 * (row as f32 / height as f32 - 0.5);
                old = [0.2 * emitter_angle.sin(), 0.0, 0.2 * emitter_angle.cos()];
            }
            let new = [old[0] + s[1], old[1] + s[2], old[2] + s[3]];
            s[0] += 1.0;
            s[2] -= 0.0001;
            let over_table = old[0].mul_add(old[0], old[2] * old[2]) < 25.0;
            if new[1] <= 0.0 && over_table {
                s[2] *= -0.2;
            }
            state.state[4 * p..4 * p + 4].copy_from_slice(&s);
            state.vertices[4 * (n + p)..4 * (n + p) + 4].copy_from_slice(&colour_for_age(s[0], max_age));
            state.vertices[4 * p..4 * p + 4].copy_from_slice(&[new[0], new[1], new[2], 1.0]);
        }
    }
}

/// One step of the swarm towards `target` over every particle of `state`.
pub fn swarm_step(state: &mut ParticleState, max_age: u32, target: [f32; 3], frame: u32) {
    let max_age = max_age as f32;
    let n = state.grid.particles();
    for p in 0..n {
        let mut age = state.state[4 * p];
        let mut velocity = [state.state[4 * p + 1], state.state[4 * p + 2], state.state[4 * p + 3]];
        let mut position = [
            state.vertices[4 * p],
            state.vertices[4 * p + 1],
            state.vertices[4 * p + 2],
        ];
        if age >= max_age {
            age = 0.0;
            for axis in 0..3 {
                let r = random_unit(p as u32, frame, axis as u32) - 0.5;
                let cube = r * r * r;
                velocity[axis] = 0.001 * cube;
                position[axis] = target[axis] + 2.0 * cube;
            }
        }
        age += 1.0;
        let d = [
            target[0] - position[0],
            target[1] - position[1],
            target[2] - position[2],
        ];
        let distance = d[2].mul_add(d[2], d[1].mul_add(d[1], d[0] * d[0])).sqrt();
        if distance > 0.0 {
            for axis in 0..3 {
                velocity[axis] += 0.000005 * d[axis] / distance;
            }
        }
        state.state[4 * p..4 * p + 4].copy_from_slice(&[age, velocity[0], velocity[1], velocity[2]]);
        state.vertices[4 * (n + p)..4 * (n + p) + 4].copy_from_slice(&colour_for_age(age, max_age));
        state.vertices[4 * p..4 * p + 4].copy_from_slice(&[
            position[0] + velocity[0],
            position[1] + velocity[1],
            position[2] + velocity[2],
            1.0,
        ]);
    }
}

/// One step with the given inputs (fountain or swarm).
pub fn particle_step(state: &mut ParticleState, max_age: u32, inputs: StepInputs) {
    match inputs {
        StepInputs::Fountain { emitter_angle, frame } => fountain_step(state, max_age, emitter_angle, frame),
        StepInputs::Swarm { target, frame } => swarm_step(state, max_age, target, frame),
    }
}

/// Runs the steps of frames `first_frame .. first_frame + steps` on `state`
/// with the scene's inputs ([`ParticleSystem::inputs`]) and returns it: a
/// checkpoint to compare a GPU run with.
pub fn run_particle_steps(
    system: ParticleSystem,
    mut state: ParticleState,
    max_age: u32,
    first_frame: u32,
    steps: u32,
) -> ParticleState {
    for frame in first_frame..first_frame + steps {
        particle_step(&mut state, max_age, system.inputs(frame));
    }
    state
}

/// The scene's initial state after `steps` steps (frames `0..steps`).
pub fn simulate_particles(
    system: ParticleSystem,
    grid: ParticleGrid,
    max_age: u32,
    steps: u32,
) -> Result<ParticleState> {
    check_max_age(max_age)?;
    Ok(run_particle_steps(
        system,
        initial_state(system, grid, max_age)?,
        max_age,
        0,
        steps,
    ))
}

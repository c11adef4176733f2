//! What one step of `particle_fountain` / `particle_swarm` does, as plain
//! loops over the particle grid, and whole runs of steps for checkpoint
//! comparisons.
//!
//! Written from the notes' description, not from the kernels: its own
//! random-number hash (the same published function), its own indexing. The
//! arithmetic is rounded as the kernels round it (each multiply, add and
//! divide in `f32`, the products the kernels fuse as `f32::mul_add`), so the
//! emulator matches it bit for bit. On the GPU only the fountain's emitter
//! position differs, by the fast sine's and cosine's error (see
//! `kernels_gpu::device::sin_approx`); given the emitter positions the GPU
//! used ([`FountainEmitter::Measured`]), a GPU run matches it bit for bit too.
//!
//! Every particle is independent of the others, so a run can be simulated
//! for some rows of a grid alone ([`run_particle_rows`]).

use std::ops::Range;

use crate::error::{Error, Result};
use crate::particle_scene::{
    ParticleGrid, ParticleRows, ParticleState, ParticleSystem, StepInputs, TableTop, check_max_age, initial_state,
};

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

/// Where the fountain's emitter sits, `(x, z)` in the table's plane, in each frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FountainEmitter<'a> {
    /// `0.2·(sin a, cos a)` from the host's sine and cosine of the frame's
    /// emitter angle (what the emulator's fast sine and cosine give).
    HostTrig,
    /// As the GPU placed it (its fast sine and cosine) in frames
    /// `0..positions.len()`, measured by a probe launch.
    Measured(&'a [[f32; 2]]),
}

impl FountainEmitter<'_> {
    /// The emitter position in `frame`, whose emitter angle is `angle`;
    /// `None` for a frame a measured path does not cover.
    pub fn at(&self, frame: u32, angle: f32) -> Option<[f32; 2]> {
        match self {
            Self::HostTrig => Some(host_emitter(angle)),
            Self::Measured(positions) => positions.get(frame as usize).copied(),
        }
    }
}

/// The emitter at `0.2·(sin a, cos a)` with the host's sine and cosine.
pub fn host_emitter(angle: f32) -> [f32; 2] {
    [0.2 * angle.sin(), 0.2 * angle.cos()]
}

/// Reads particle `q` of `state`: position `(x, y, z)` and `(age, vx, vy, vz)`.
fn load(state: &ParticleState, q: usize) -> ([f32; 3], [f32; 4]) {
    let v = &state.vertices[4 * q..4 * q + 3];
    let s = &state.state[4 * q..4 * q + 4];
    ([v[0], v[1], v[2]], [s[0], s[1], s[2], s[3]])
}

/// Writes particle `q` of `state`: its new state, colour and position.
fn store(state: &mut ParticleState, q: usize, s: [f32; 4], colour: [f32; 4], position: [f32; 3]) {
    let n = state.grid.particles();
    state.state[4 * q..4 * q + 4].copy_from_slice(&s);
    state.vertices[4 * (n + q)..4 * (n + q) + 4].copy_from_slice(&colour);
    state.vertices[4 * q..4 * q + 4].copy_from_slice(&[position[0], position[1], position[2], 1.0]);
}

/// One fountain particle at `(column, row)` of `grid` (particle `p`) for
/// one step, bouncing on `table`.
#[allow(clippy::too_many_arguments)]
fn fountain_particle(
    grid: ParticleGrid,
    table: TableTop,
    (column, row, p): (u32, u32, u32),
    max_age: f32,
    emitter: [f32; 2],
    frame: u32,
    mut old: [f32; 3],
    mut s: [f32; 4],
) -> ([f32; 4], [f32; 4], [f32; 3]) {
    if s[0] >= max_age {
        s[0] = 0.0;
        s[1] = 0.02 * (column as f32 / grid.width as f32 - 0.5);
        s[2] = 0.01f32.mul_add(random_unit(p, frame, 0), 0.015);
        s[3] = 0.02 * (row as f32 / grid.height as f32 - 0.5);
        old = [emitter[0], 0.0, emitter[1]];
    }
    let new = [old[0] + s[1], old[1] + s[2], old[2] + s[3]];
    s[0] += 1.0;
    s[2] -= 0.0001;
    let over_table = match table {
        TableTop::Disc => old[0].mul_add(old[0], old[2] * old[2]) < 25.0,
        TableTop::Square => old[0].abs() < 5.0 && old[2].abs() < 5.0,
    };
    if new[1] <= 0.0 && over_table {
        s[2] *= -0.2;
    }
    (s, colour_for_age(s[0], max_age), new)
}

/// One swarm particle `p` for one step towards `target`.
fn swarm_particle(
    p: u32,
    max_age: f32,
    target: [f32; 3],
    frame: u32,
    mut position: [f32; 3],
    s: [f32; 4],
) -> ([f32; 4], [f32; 4], [f32; 3]) {
    let mut age = s[0];
    let mut velocity = [s[1], s[2], s[3]];
    if age >= max_age {
        age = 0.0;
        for axis in 0..3 {
            let r = random_unit(p, frame, axis as u32) - 0.5;
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
    let new = [
        position[0] + velocity[0],
        position[1] + velocity[1],
        position[2] + velocity[2],
    ];
    (
        [age, velocity[0], velocity[1], velocity[2]],
        colour_for_age(age, max_age),
        new,
    )
}

/// What one step is given, with the fountain's emitter already placed.
#[derive(Clone, Copy)]
enum Placed {
    Fountain {
        emitter: [f32; 2],
        frame: u32,
        table: TableTop,
    },
    Swarm {
        target: [f32; 3],
        frame: u32,
    },
}

/// One step over every particle of `rows` (rows of `rows.grid`).
fn step_rows(rows: &mut ParticleRows, max_age: u32, inputs: Placed) {
    let max_age = max_age as f32;
    let grid = rows.grid;
    let width = grid.width as usize;
    for k in 0..rows.rows.len() {
        let row = rows.rows[k];
        for column in 0..grid.width {
            let q = k * width + column as usize;
            let p = row * grid.width + column;
            let (old, s) = load(&rows.state, q);
            let (s, colour, new) = match inputs {
                Placed::Fountain { emitter, frame, table } => {
                    fountain_particle(grid, table, (column, row, p), max_age, emitter, frame, old, s)
                }
                Placed::Swarm { target, frame } => swarm_particle(p, max_age, target, frame, old, s),
            };
            store(&mut rows.state, q, s, colour, new);
        }
    }
}

/// One step of `state` (the whole grid) with the given inputs.
fn step_whole(state: &mut ParticleState, max_age: u32, inputs: Placed) {
    let empty = ParticleState {
        grid: state.grid,
        vertices: Vec::new(),
        state: Vec::new(),
    };
    let mut rows = ParticleRows::all(std::mem::replace(state, empty));
    step_rows(&mut rows, max_age, inputs);
    *state = rows.state;
}

/// One step of the fountain over every particle of `state`, the emitter
/// placed by the host's sine and cosine.
pub fn fountain_step(state: &mut ParticleState, max_age: u32, emitter_angle: f32, frame: u32) {
    fountain_step_on(state, TableTop::Disc, max_age, emitter_angle, frame);
}

/// [`fountain_step`] bouncing on `table` (the naive kernels' square or the disc).
pub fn fountain_step_on(state: &mut ParticleState, table: TableTop, max_age: u32, emitter_angle: f32, frame: u32) {
    let emitter = host_emitter(emitter_angle);
    step_whole(state, max_age, Placed::Fountain { emitter, frame, table });
}

/// One step of the swarm towards `target` over every particle of `state`.
pub fn swarm_step(state: &mut ParticleState, max_age: u32, target: [f32; 3], frame: u32) {
    step_whole(state, max_age, Placed::Swarm { target, frame });
}

/// One step with the given inputs (fountain or swarm).
pub fn particle_step(state: &mut ParticleState, max_age: u32, inputs: StepInputs) {
    match inputs {
        StepInputs::Fountain { emitter_angle, frame } => fountain_step(state, max_age, emitter_angle, frame),
        StepInputs::Swarm { target, frame } => swarm_step(state, max_age, target, frame),
    }
}

/// Runs the steps of `frames` on `rows` with the scene's inputs
/// ([`ParticleSystem::inputs`]), the fountain's emitter placed by `emitter`.
/// `Err` when a measured emitter path does not cover the frames.
pub fn run_particle_rows(
    system: ParticleSystem,
    rows: &mut ParticleRows,
    max_age: u32,
    frames: Range<u32>,
    emitter: FountainEmitter<'_>,
) -> Result<()> {
    run_particle_rows_on(system, TableTop::Disc, rows, max_age, frames, emitter)
}

/// [`run_particle_rows`] with the fountain bouncing on `table`.
pub fn run_particle_rows_on(
    system: ParticleSystem,
    table: TableTop,
    rows: &mut ParticleRows,
    max_age: u32,
    frames: Range<u32>,
    emitter: FountainEmitter<'_>,
) -> Result<()> {
    for frame in frames {
        let placed = match system.inputs(frame) {
            StepInputs::Fountain { emitter_angle, frame } => Placed::Fountain {
                emitter: emitter
                    .at(frame, emitter_angle)
                    .ok_or_else(|| Error::InvalidInput(format!("no measured emitter position for frame {frame}")))?,
                frame,
                table,
            },
            StepInputs::Swarm { target, frame } => Placed::Swarm { target, frame },
        };
        step_rows(rows, max_age, placed);
    }
    Ok(())
}

/// The first float where `got` differs from `expected` (bit for bit), named
/// by particle, buffer and component; `None` when they are the same.
pub fn particle_rows_mismatch(got: &ParticleRows, expected: &ParticleRows) -> Option<String> {
    if got.grid != expected.grid || got.rows != expected.rows || got.state.grid != expected.state.grid {
        return Some(format!(
            "rows {:?} of {:?} read back where rows {:?} of {:?} were expected",
            got.rows, got.grid, expected.rows, expected.grid
        ));
    }
    let n = got.state.grid.particles();
    let differs = |a: &[f32], b: &[f32]| (0..a.len().min(b.len())).find(|&k| a[k].to_bits() != b[k].to_bits());
    let (what, k, a, b) = match differs(&got.state.vertices, &expected.state.vertices) {
        Some(k) => {
            let what = if k / 4 < n { "position" } else { "colour" };
            (what, k, &got.state.vertices, &expected.state.vertices)
        }
        None => {
            let k = differs(&got.state.state, &expected.state.state)?;
            ("age and velocity", k, &got.state.state, &expected.state.state)
        }
    };
    let q = k / 4 % n;
    Some(format!(
        "particle {} (row {}), {what} component {}: {} on the GPU, {} in the CPU simulation",
        got.particle_index(q),
        got.rows[q / got.grid.width as usize],
        k % 4,
        a[k],
        b[k]
    ))
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

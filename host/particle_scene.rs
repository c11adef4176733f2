//! The lecture notes' two particle systems as scenes: how many particles,
//! how long they live, where they start, and what the host passes the
//! kernel each step (the fountain's emitter angle, the swarm's target).
//!
//! Pure functions, shared by the CPU reference, the launchers, the pictures
//! and the CUDA–OpenGL frame loop, so all of them simulate the same thing.

use std::f64::consts::{PI, TAU};

use kernels_gpu::device::{F32x4, KernelSignature};
use kernels_gpu::particles::{
    PARTICLE_BYTES_READ, PARTICLE_BYTES_WRITTEN, STATE_FLOATS_PER_PARTICLE, VERTEX_FLOATS_PER_PARTICLE,
    particle_fountain_float4_state_params, particle_fountain_naive_params, particle_fountain_params,
    particle_fountain_staged_params, particle_fountain_staged_synced_params, particle_gravity_params,
    particle_gravity_tiled_params, particle_swarm_params, particle_uniform,
};

use crate::error::{Error, Result};

/// A vertex or state buffer's floats as the kernels' `float4`s, four floats
/// each in order (the buffers hold whole fours).
pub fn float4s(floats: &[f32]) -> Vec<F32x4> {
    floats
        .as_chunks::<4>()
        .0
        .iter()
        .map(|&c| F32x4::from_array(c))
        .collect()
}

/// The notes' particle grid: 256 × 256.
pub const NOTES_GRID: ParticleGrid = ParticleGrid {
    width: 256,
    height: 256,
};

/// The notes' particle lifetime, in steps.
pub const NOTES_MAX_AGE: u32 = 600;

/// Scene time advanced per step (the notes' `anim += 0.01`).
pub const TIME_PER_STEP: f64 = 0.01;

/// The largest lifetime: ages are counted in `f32`, exact up to `2^24`.
pub const MAX_AGE_LIMIT: u32 = 1 << 24;

/// Bytes a step reads and writes per particle (see [`kernels_gpu::particles`]):
/// 32 read (position, state), 48 written (state, colour, position).
pub const PARTICLE_BYTES_PER_STEP: u64 = PARTICLE_BYTES_READ + PARTICLE_BYTES_WRITTEN;

/// The frame number the initial state draws its random numbers with (steps
/// use frames counted up from 0, so they never reach it in practice).
const INITIAL_FRAME: u32 = u32::MAX;

/// Which of the notes' systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParticleSystem {
    Fountain,
    Swarm,
}

impl ParticleSystem {
    pub const ALL: [Self; 2] = [Self::Fountain, Self::Swarm];

    /// The kernel's entry point (Rust and CUDA C alike).
    pub fn kernel(self) -> &'static str {
        match self {
            Self::Fountain => particle_fountain_params::NAME,
            Self::Swarm => particle_swarm_params::NAME,
        }
    }

    /// A short name for files and reports.
    pub fn label(self) -> &'static str {
        match self {
            Self::Fountain => "fountain",
            Self::Swarm => "swarm",
        }
    }

    /// What the kernel is given in step `frame` (counted from 0).
    pub fn inputs(self, frame: u32) -> StepInputs {
        match self {
            Self::Fountain => StepInputs::Fountain {
                emitter_angle: fountain_emitter_angle(frame),
                frame,
            },
            Self::Swarm => StepInputs::Swarm {
                target: swarm_target(frame),
                frame,
            },
        }
    }
}

/// The particle grid: `width × height` particles, one thread each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParticleGrid {
    pub width: u32,
    pub height: u32,
}

impl ParticleGrid {
    pub const fn new(width: u32, height: u32) -> Self {
        Self { width, height }
    }

    pub const fn particles(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Floats of the vertex buffer: a position and a colour per particle.
    pub const fn vertex_floats(self) -> usize {
        self.particles() * VERTEX_FLOATS_PER_PARTICLE
    }

    /// Floats of the state buffer: age and velocity per particle.
    pub const fn state_floats(self) -> usize {
        self.particles() * STATE_FLOATS_PER_PARTICLE
    }
}

/// What the kernel is given besides its buffers in one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StepInputs {
    /// The emitter is at `0.2·(sin a, 0, cos a)`, `a` in `[-π, π]`.
    Fountain { emitter_angle: f32, frame: u32 },
    /// The point the swarm steers towards.
    Swarm { target: [f32; 3], frame: u32 },
}

impl StepInputs {
    pub fn system(&self) -> ParticleSystem {
        match self {
            Self::Fountain { .. } => ParticleSystem::Fountain,
            Self::Swarm { .. } => ParticleSystem::Swarm,
        }
    }

    /// The frame number the step draws its random numbers with.
    pub fn frame(&self) -> u32 {
        match *self {
            Self::Fountain { frame, .. } | Self::Swarm { frame, .. } => frame,
        }
    }
}

/// The whole simulation state: the vertex buffer (`n` positions, then `n`
/// colours, 4 floats each) and the state buffer (age, velocity per particle).
#[derive(Clone, Debug, PartialEq)]
pub struct ParticleState {
    pub grid: ParticleGrid,
    pub vertices: Vec<f32>,
    pub state: Vec<f32>,
}

impl ParticleState {
    /// Position `i` as `[x, y, z, w]`.
    pub fn position(&self, i: usize) -> [f32; 4] {
        self.vertices[4 * i..4 * i + 4].try_into().expect("4 floats")
    }

    /// Colour `i` as `[r, g, b, a]`.
    pub fn colour(&self, i: usize) -> [f32; 4] {
        let at = 4 * (self.grid.particles() + i);
        self.vertices[at..at + 4].try_into().expect("4 floats")
    }

    /// Age and velocity of particle `i`.
    pub fn particle(&self, i: usize) -> [f32; 4] {
        self.state[4 * i..4 * i + 4].try_into().expect("4 floats")
    }
}

/// Some rows of a simulation over a larger grid: what a checkpoint compares
/// where reading back and simulating every particle would cost too much.
/// The particles are independent, so rows can be simulated on their own.
///
/// `state` holds the particles of rows `rows` (in that order) in the layout
/// of a [`ParticleState`] of `grid.width × rows.len()` particles; local
/// particle `q` is particle [`particle_index`](Self::particle_index)`(q)`
/// of the whole `grid`.
#[derive(Clone, Debug, PartialEq)]
pub struct ParticleRows {
    /// The whole grid the rows belong to.
    pub grid: ParticleGrid,
    pub rows: Vec<u32>,
    pub state: ParticleState,
}

impl ParticleRows {
    /// Every row of `full`.
    pub fn all(full: ParticleState) -> Self {
        Self {
            grid: full.grid,
            rows: (0..full.grid.height).collect(),
            state: full,
        }
    }

    /// Rows `rows` of `full`, copied; `Err` for a row past the grid or no row at all.
    pub fn of(full: &ParticleState, rows: &[u32]) -> Result<Self> {
        let grid = full.grid;
        if rows.is_empty() || rows.iter().any(|&r| r >= grid.height) {
            return Err(Error::InvalidInput(format!(
                "rows {rows:?} of a {} x {} particle grid",
                grid.width, grid.height
            )));
        }
        let local = ParticleGrid::new(grid.width, rows.len() as u32);
        let (n, w) = (grid.particles(), grid.width as usize);
        let mut state = ParticleState {
            grid: local,
            vertices: Vec::with_capacity(local.vertex_floats()),
            state: Vec::with_capacity(local.state_floats()),
        };
        let row_floats = |r: u32| 4 * r as usize * w..4 * (r as usize + 1) * w;
        for &r in rows {
            state.vertices.extend_from_slice(&full.vertices[row_floats(r)]);
        }
        for &r in rows {
            let colours = row_floats(r);
            state
                .vertices
                .extend_from_slice(&full.vertices[4 * n + colours.start..4 * n + colours.end]);
        }
        for &r in rows {
            state.state.extend_from_slice(&full.state[row_floats(r)]);
        }
        Ok(Self {
            grid,
            rows: rows.to_vec(),
            state,
        })
    }

    /// The index in the whole grid of local particle `q`.
    pub fn particle_index(&self, q: usize) -> usize {
        let w = self.grid.width as usize;
        self.rows[q / w] as usize * w + q % w
    }
}

/// `count` rows spread evenly over a grid of `height` rows, first and last
/// included, in order and without repeats (every row when `count >= height`).
pub fn sample_rows(height: u32, count: u32) -> Vec<u32> {
    if count >= height {
        return (0..height).collect();
    }
    if count <= 1 {
        return vec![0];
    }
    let span = (height - 1) as u64;
    let mut rows: Vec<u32> = (0..count as u64)
        .map(|k| (k * span / (count as u64 - 1)) as u32)
        .collect();
    rows.dedup();
    rows
}

/// Checks a lifetime: at least one step, at most [`MAX_AGE_LIMIT`].
pub fn check_max_age(max_age: u32) -> Result<f32> {
    if max_age == 0 || max_age > MAX_AGE_LIMIT {
        return Err(Error::InvalidInput(format!(
            "a particle lifetime of {max_age} steps must be between 1 and {MAX_AGE_LIMIT}"
        )));
    }
    Ok(max_age as f32)
}

/// The fountain's emitter angle in step `frame`: the scene time
/// `frame · 0.01` wrapped into `[-π, π]`, where the GPU's fast sine and
/// cosine have their documented error.
pub fn fountain_emitter_angle(frame: u32) -> f32 {
    let time = frame as f64 * TIME_PER_STEP;
    let wrapped = (time + PI).rem_euclid(TAU) - PI;
    (wrapped as f32).clamp(-std::f32::consts::PI, std::f32::consts::PI)
}

/// The swarm's target in step `frame`: a loop around the origin (radius
/// 1.2, a turn every 25 time units, 2500 steps) that bobs up and down.
/// It moves about 0.003 per step, as fast as a particle gets after a
/// lifetime of pulls (600 × 5·10⁻⁶): young particles keep up, old ones
/// overshoot and trail behind, so the swarm swirls after its target.
pub fn swarm_target(frame: u32) -> [f32; 3] {
    let time = frame as f64 * TIME_PER_STEP;
    let turn = TAU / 25.0 * time;
    [
        (1.2 * turn.cos()) as f32,
        (1.0 + 0.4 * (0.5 * time).sin()) as f32,
        (1.2 * turn.sin()) as f32,
    ]
}

/// The state before the first step: every particle's age drawn uniformly
/// from `[0, max_age)` so that births are spread over the first `max_age`
/// steps (as in the notes).
///
/// * Fountain: parked out of view until its first birth, as in the notes:
///   velocity `(-10000, -10000, -10000)` per step, and (unlike the notes,
///   whose vertex buffer starts at the origin, above the table, so that the
///   first step bounces every parked particle) position `(-10000, -10000,
///   -10000)` too.
/// * Swarm: already around the first target (offset `2·r³`, velocity
///   `0.001·r³` per axis, `r` uniform in `[-½, ½)`), as if just born.
///
/// Colours start at zero (transparent black).
pub fn initial_state(system: ParticleSystem, grid: ParticleGrid, max_age: u32) -> Result<ParticleState> {
    let max_age_f = check_max_age(max_age)?;
    let n = grid.particles();
    let mut vertices = vec![0.0f32; grid.vertex_floats()];
    let mut state = vec![0.0f32; grid.state_floats()];
    let target = swarm_target(0);
    for i in 0..n {
        let draw = |stream| particle_uniform(i as u32, INITIAL_FRAME, stream);
        let age = (draw(3) * max_age_f).floor().min(max_age_f - 1.0);
        let (position, velocity) = match system {
            ParticleSystem::Fountain => ([-10000.0; 3], [-10000.0; 3]),
            ParticleSystem::Swarm => {
                let cube = |s| {
                    let r = draw(s) - 0.5;
                    r * r * r
                };
                let c = [cube(0), cube(1), cube(2)];
                (
                    [0, 1, 2].map(|a| target[a] + 2.0 * c[a]),
                    [0, 1, 2].map(|a| 0.001 * c[a]),
                )
            }
        };
        vertices[4 * i..4 * i + 4].copy_from_slice(&[position[0], position[1], position[2], 1.0]);
        state[4 * i..4 * i + 4].copy_from_slice(&[age, velocity[0], velocity[1], velocity[2]]);
    }
    Ok(ParticleState { grid, vertices, state })
}

/// The notes' table: frames per second of the 256 × 256 fountain for each
/// block shape `(blockDim.x, blockDim.y)`, on their GPU of the time (the
/// shapes at 75 fps were held at the display's refresh rate).
pub const NOTES_BLOCK_SHAPE_FPS: [((u32, u32), f64); 12] = [
    ((256, 1), 75.0),
    ((16, 16), 75.0),
    ((16, 8), 75.0),
    ((32, 16), 75.0),
    ((32, 8), 75.0),
    ((32, 4), 75.0),
    ((8, 8), 73.0),
    ((4, 4), 73.0),
    ((8, 16), 72.0),
    ((2, 2), 69.0),
    ((1, 256), 61.0),
    ((1, 1), 49.0),
];

/// The table top a fountain kernel bounces particles on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableTop {
    /// `x² + z² < 25`: the tuned kernels' test, one product and no `fabs`.
    Disc,
    /// `|x| < 5 && |z| < 5`: the notes' first kernel's test, two `fabs`.
    Square,
}

/// The fountain at each step of the notes' tuning, from their first kernel
/// to the state staged in shared memory (same scene, same results but for
/// the table top the first two test).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FountainVersion {
    /// `float *` state, one float at a time; positions re-read; square table.
    Naive,
    /// The state as one float4 load and store; the rest as [`Self::Naive`].
    Float4State,
    /// Particle and position read once into registers, disc table: `particle_fountain`.
    Registers,
    /// [`Self::Registers`] with the state staged in a shared-memory tile.
    Staged,
    /// [`Self::Staged`] with a `__syncthreads` after filling and after updating the tile.
    StagedSynced,
}

impl FountainVersion {
    pub const ALL: [Self; 5] = [
        Self::Naive,
        Self::Float4State,
        Self::Registers,
        Self::Staged,
        Self::StagedSynced,
    ];

    /// The kernel's entry point (Rust and CUDA C alike).
    pub fn kernel(self) -> &'static str {
        match self {
            Self::Naive => particle_fountain_naive_params::NAME,
            Self::Float4State => particle_fountain_float4_state_params::NAME,
            Self::Registers => particle_fountain_params::NAME,
            Self::Staged => particle_fountain_staged_params::NAME,
            Self::StagedSynced => particle_fountain_staged_synced_params::NAME,
        }
    }

    /// A short name for reports.
    pub fn label(self) -> &'static str {
        match self {
            Self::Naive => "naive (float *)",
            Self::Float4State => "float4 state",
            Self::Registers => "registers (optimised)",
            Self::Staged => "shared-memory tile",
            Self::StagedSynced => "shared-memory tile + __syncthreads",
        }
    }

    pub fn table_top(self) -> TableTop {
        match self {
            Self::Naive | Self::Float4State => TableTop::Square,
            Self::Registers | Self::Staged | Self::StagedSynced => TableTop::Disc,
        }
    }

    /// Whether a launch needs one float4 of dynamic shared memory per thread.
    pub fn staged(self) -> bool {
        matches!(self, Self::Staged | Self::StagedSynced)
    }
}

/// The all-pairs swarm's population: 64 × 64 particles, 16.7 million pulls a step.
pub const GRAVITY_GRID: ParticleGrid = ParticleGrid::new(64, 64);

/// The all-pairs swarm's kernel: the notes' (`tiled = false`) or the tiled one.
pub fn gravity_kernel(tiled: bool) -> &'static str {
    if tiled {
        particle_gravity_tiled_params::NAME
    } else {
        particle_gravity_params::NAME
    }
}

/// The all-pairs swarm's start: positions drawn uniformly from the cube
/// `[-1, 1)³`, at rest, colours zero; `age` (the state's first float) is unused.
pub fn gravity_initial_state(grid: ParticleGrid) -> ParticleState {
    let n = grid.particles();
    let mut vertices = vec![0.0f32; grid.vertex_floats()];
    let state = vec![0.0f32; grid.state_floats()];
    for i in 0..n {
        let draw = |stream| 2.0 * particle_uniform(i as u32, INITIAL_FRAME, stream) - 1.0;
        vertices[4 * i..4 * i + 4].copy_from_slice(&[draw(0), draw(1), draw(2), 1.0]);
    }
    ParticleState { grid, vertices, state }
}

#[cfg(test)]
mod tests {
    use kernels_gpu::device::F32x4;

    use super::float4s;

    #[test]
    fn float4s_keep_the_floats_in_order_four_at_a_time() {
        let floats: Vec<f32> = (0..12).map(|i| i as f32 * 0.5).collect();
        let vectors = float4s(&floats);
        assert_eq!(vectors.len(), 3);
        assert_eq!(F32x4::as_floats(&vectors), floats.as_slice());
        assert!(float4s(&[]).is_empty());
    }
}

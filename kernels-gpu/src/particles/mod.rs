//! Particle systems after the lecture notes on the CUDA SDK's OpenGL interop
//! sample (seed document 004): a fountain and a swarm, one thread per
//! particle, every particle independent of the others; the steps by which
//! the notes tuned the fountain (from a `float *` state read one float at a
//! time to a state staged in shared memory); and their all-pairs "gravity"
//! swarm, naive and tiled.
//!
//! **Data layout** (as in the notes): the vertex buffer that OpenGL draws
//! holds, for `n = width × height` particles, `n` positions (`float4`
//! `x, y, z, 1`) followed by `n` colours (`float4` `r, g, b, a`): 8 floats
//! per particle, position `i` at float4 index `i`, its colour at `n + i`.
//! The kernels read each particle's position back from that buffer, so it is
//! state as well as output. A second buffer holds one `float4` per particle:
//! age (in steps), then the velocity `vx, vy, vz` (per step).
//!
//! **Indexing**: a 2-D grid of 2-D blocks over the `width × height` particle
//! grid: `x = blockIdx.x·blockDim.x + threadIdx.x`, likewise `y`; particle
//! `i = y·width + x`. Threads past the right or bottom edge return at once,
//! so any `width × height` works with any block shape (1×1 up to 1024
//! threads), as the notes' block-shape table needs.
//!
//! **Random numbers**: the notes pass one `rand()` value per step, shared by
//! every particle that respawns in that step. These kernels instead draw a
//! counter-based hash of (particle, frame, stream) ([`particle_uniform`]):
//! each particle gets its own numbers, nothing is passed but the frame
//! number, and a CPU reference reproduces every number exactly, which is
//! what lets the tests compare whole simulations bit for bit.
//!
//! **Bytes per particle per step**: 32 read (position, state) and 48 written
//! (state, colour, position): [`PARTICLE_BYTES_READ`], [`PARTICLE_BYTES_WRITTEN`].
//!
//! **Floating point**: every product that a CUDA C compiler could contract
//! into an FMA is written here either as an explicit [`fma`](crate::device::fma)
//! or so that no contraction applies, and the CUDA C twins use `__fmaf_rn`,
//! `__fmul_rn` and `__fadd_rn` the same way: Rust, CUDA C and the CPU
//! reference round identically. Only the fountain's fast sine and cosine
//! differ between the GPU and the CPU (see [`crate::device::sin_approx`]).

mod age_colour;
mod counter_hash;
mod fountain;
mod fountain_float4_state;
mod fountain_motion;
mod fountain_naive;
mod fountain_staged;
mod gravity;
mod swarm;

pub use age_colour::age_colour;
pub use counter_hash::{RANDOM_STREAMS, mix32, particle_uniform};
pub use fountain::{
    FOUNTAIN_BOUNCE, FOUNTAIN_EMITTER_RADIUS, FOUNTAIN_GRAVITY, FOUNTAIN_SPREAD, FOUNTAIN_TABLE_HALF_WIDTH,
    FOUNTAIN_TABLE_RADIUS_SQUARED, FOUNTAIN_UP_RANDOM, FOUNTAIN_UP_SPEED, particle_fountain, particle_fountain_params,
};
pub use fountain_float4_state::{particle_fountain_float4_state, particle_fountain_float4_state_params};
pub use fountain_motion::fountain_motion;
pub use fountain_naive::{particle_fountain_naive, particle_fountain_naive_params};
pub use fountain_staged::{
    particle_fountain_staged, particle_fountain_staged_params, particle_fountain_staged_synced,
    particle_fountain_staged_synced_params, staged_tile_bytes,
};
pub use gravity::{
    GRAVITY_BRIGHT, GRAVITY_DIM, GRAVITY_NEAR, GRAVITY_SCALE, GRAVITY_STEP, particle_gravity, particle_gravity_params,
    particle_gravity_tiled, particle_gravity_tiled_params,
};
pub use swarm::{SWARM_PULL, SWARM_SPAWN_OFFSET, SWARM_SPAWN_SPEED, particle_swarm, particle_swarm_params};

/// Floats per particle in the vertex buffer: a position and a colour.
pub const VERTEX_FLOATS_PER_PARTICLE: usize = 8;

/// Floats per particle in the state buffer: age, then velocity.
pub const STATE_FLOATS_PER_PARTICLE: usize = 4;

/// Bytes each thread reads per step: its position and its state (2 × 16).
pub const PARTICLE_BYTES_READ: u64 = 32;

/// Bytes each thread writes per step: its state, colour and position (3 × 16).
pub const PARTICLE_BYTES_WRITTEN: u64 = 48;

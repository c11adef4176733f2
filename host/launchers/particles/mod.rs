//! The particle family (the lecture notes' SDK particle samples): the
//! kernels' shape checks and typed, bounds-checked launchers (the fountain
//! and the swarm, the fountain's tuning versions, the all-pairs swarm), and
//! the family's runners, one per programming model ([`ParticleRunner`],
//! chosen by [`particle_runners`]): populations of particles on the device
//! ([`ParticleBuffers`]), the all-pairs swarm's ping-pong buffers
//! ([`GravityBuffers`]), steps captured and replayed as a whole
//! ([`StepReplay`]: CUDA graphs) and the notes' frame loop through
//! CUDA–OpenGL interop ([`InteropFrames`]: [`ParticleFrames`], a kernel
//! writing the particles straight into the OpenGL vertex buffer, which
//! OpenGL then draws). The kernels have CUDA C twins and no OpenCL C twins yet.

mod cuda_gravity;
mod cuda_population;
mod cuda_runner;
mod gl_frames;
mod runner;

pub use cuda_gravity::CudaGravityBuffers;
pub use cuda_population::CudaParticleBuffers;
pub use cuda_runner::CudaParticleRunner;
pub use gl_frames::{FrameTimes, ParticleFrames};
pub use runner::{
    GravityBuffers, InteropFrames, ParticleBuffers, ParticleRunner, StepReplay, particle_runners, population_bytes,
};

use kernels_gpu::device::{Dim3, F32x4, GlobalMutPtr};
use kernels_gpu::particles::{
    STATE_FLOATS_PER_PARTICLE, VERTEX_FLOATS_PER_PARTICLE, particle_fountain_float4_state_params,
    particle_fountain_naive_params, particle_fountain_params, particle_fountain_staged_params,
    particle_fountain_staged_synced_params, particle_gravity_params, particle_gravity_tiled_params,
    particle_swarm_params, staged_tile_bytes,
};

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::particle_scene::{
    FountainVersion, GRAVITY_GRID, NOTES_GRID, ParticleGrid, ParticleSystem, StepInputs, check_max_age, gravity_kernel,
};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the particle kernels: the module must define each (gathered with the other
/// families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &[
    "particle_fountain",
    "particle_swarm",
    "particle_fountain_naive",
    "particle_fountain_float4_state",
    "particle_fountain_staged",
    "particle_fountain_staged_synced",
    "particle_gravity",
    "particle_gravity_tiled",
];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    nominal_shape: Some(nominal_shape),
    ..Family::NONE
};

/// The most threads a block may have (every GPU since cc 2.0).
const MAX_BLOCK_THREADS: u64 = 1024;
/// The largest `gridDim.y` / `gridDim.z`.
const MAX_GRID_Y: u32 = 65_535;

/// The launch shape of a particle step after proving that the kernel stays
/// inside its buffers: `grid` particles in blocks of `block.x × block.y`
/// threads (any shape of at most 1024 threads, `block.z = 1`), a vertex
/// buffer of at least 8 floats and a state buffer of at least 4 floats per
/// particle (lengths in floats), and `2·width·height` fitting the kernels'
/// `u32` indices.
pub fn particle_shape(
    kernel: &'static str,
    grid: ParticleGrid,
    block: Dim3,
    vertex_floats: usize,
    state_floats: usize,
) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch { kernel, reason };
    let ParticleGrid { width, height } = grid;
    if width == 0 || height == 0 {
        return Err(invalid(format!("a {width} x {height} particle grid is empty")));
    }
    if block.x == 0 || block.y == 0 || block.z != 1 || block.count() > MAX_BLOCK_THREADS {
        return Err(invalid(format!(
            "block {} x {} x {} must be 2-D (z = 1) with 1 to {MAX_BLOCK_THREADS} threads",
            block.x, block.y, block.z
        )));
    }
    let particles = grid.particles() as u64;
    if 2 * particles > u32::MAX as u64 {
        return Err(invalid(format!(
            "{width} x {height} particles: the colour index 2 x {particles} overflows the kernel's unsigned int"
        )));
    }
    let vertex_needed = particles * VERTEX_FLOATS_PER_PARTICLE as u64;
    let state_needed = particles * STATE_FLOATS_PER_PARTICLE as u64;
    if (vertex_floats as u64) < vertex_needed || (state_floats as u64) < state_needed {
        return Err(invalid(format!(
            "{particles} particles need a vertex buffer of {vertex_needed} floats and a state buffer of {state_needed}; got {vertex_floats} and {state_floats}"
        )));
    }
    let blocks = Dim3::xy(width.div_ceil(block.x), height.div_ceil(block.y));
    if blocks.y > MAX_GRID_Y || blocks.x > i32::MAX as u32 {
        return Err(invalid(format!(
            "{} x {} blocks exceed the grid limits (2^31 - 1 x {MAX_GRID_Y}); use taller blocks",
            blocks.x, blocks.y
        )));
    }
    Ok(LaunchShape {
        grid: blocks,
        block,
        shared_bytes: 0,
    })
}

/// The launch shape of one step of `version` of the fountain
/// ([`particle_shape`]), the staged versions with one float4 of shared
/// memory per thread.
pub fn fountain_version_shape(
    version: FountainVersion,
    grid: ParticleGrid,
    block: Dim3,
    vertex_floats: usize,
    state_floats: usize,
) -> Result<LaunchShape> {
    let mut shape = particle_shape(version.kernel(), grid, block, vertex_floats, state_floats)?;
    if version.staged() {
        shape.shared_bytes = staged_tile_bytes(block.count() as u32);
    }
    Ok(shape)
}

/// The launch shape of one step of the all-pairs swarm ([`particle_shape`]),
/// the tiled kernel with one float4 of shared memory per thread.
pub fn gravity_shape(
    tiled: bool,
    grid: ParticleGrid,
    block: Dim3,
    vertex_floats: usize,
    state_floats: usize,
) -> Result<LaunchShape> {
    let mut shape = particle_shape(gravity_kernel(tiled), grid, block, vertex_floats, state_floats)?;
    if tiled {
        shape.shared_bytes = staged_tile_bytes(block.count() as u32);
    }
    Ok(shape)
}

/// The shape a particle kernel is reported with (occupancy, resources): its
/// launch in 16 × 16 blocks (the notes' tuning shape) over the notes' grid
/// (the fountain, the swarm and the fountain's tuning versions) or the
/// all-pairs swarm's; `None` for an entry of another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    let block = Dim3::xy(16, 16);
    let on = |grid: ParticleGrid| (grid, grid.vertex_floats(), grid.state_floats());
    if let Some(system) = ParticleSystem::ALL.into_iter().find(|s| s.kernel() == entry) {
        let (grid, vertex_floats, state_floats) = on(NOTES_GRID);
        return particle_shape(system.kernel(), grid, block, vertex_floats, state_floats).ok();
    }
    if let Some(version) = FountainVersion::ALL.into_iter().find(|v| v.kernel() == entry) {
        let (grid, vertex_floats, state_floats) = on(NOTES_GRID);
        return fountain_version_shape(version, grid, block, vertex_floats, state_floats).ok();
    }
    let tiled = [false, true]
        .into_iter()
        .find(|&tiled| gravity_kernel(tiled) == entry)?;
    let (grid, vertex_floats, state_floats) = on(GRAVITY_GRID);
    gravity_shape(tiled, grid, block, vertex_floats, state_floats).ok()
}

/// One step of the fountain or swarm (as `inputs` says) on a vertex buffer
/// anywhere in device memory, e.g. an OpenGL buffer mapped for CUDA: the
/// pointer comes with the number of floats it addresses.
#[allow(clippy::too_many_arguments)]
pub fn particle_step_global(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    (vertices, vertex_floats): (GlobalMutPtr<F32x4>, usize),
    state: &mut DeviceBuffer<F32x4>,
    grid: ParticleGrid,
    block: Dim3,
    max_age: u32,
    inputs: StepInputs,
) -> Result<()> {
    let name = inputs.system().kernel();
    let shape = particle_shape(name, grid, block, vertex_floats, state.len() * 4)?;
    if vertices.as_raw() as usize % 16 != 0 {
        return Err(Error::InvalidLaunch {
            kernel: name,
            reason: "the vertex buffer must be 16-byte aligned for float4 accesses".into(),
        });
    }
    let max_age = check_max_age(max_age)?;
    let (state, width, height) = (state.as_global_mut(), grid.width, grid.height);
    match inputs {
        StepInputs::Fountain { emitter_angle, frame } => {
            let args = (vertices, state, width, height, max_age, emitter_angle, frame);
            // SAFETY: the shape check proved both buffers hold every particle the grid covers.
            unsafe { dut.launch::<particle_fountain_params>(implementation, shape, args) }
        }
        StepInputs::Swarm {
            target: [tx, ty, tz],
            frame,
        } => {
            let args = (vertices, state, width, height, max_age, tx, ty, tz, frame);
            // SAFETY: the shape check proved both buffers hold every particle.
            unsafe { dut.launch::<particle_swarm_params>(implementation, shape, args) }
        }
    }
}

/// One step of the fountain or swarm on a vertex buffer of device memory.
#[allow(clippy::too_many_arguments)]
pub fn particle_step(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    vertices: &mut DeviceBuffer<F32x4>,
    state: &mut DeviceBuffer<F32x4>,
    grid: ParticleGrid,
    block: Dim3,
    max_age: u32,
    inputs: StepInputs,
) -> Result<()> {
    let vertex_floats = vertices.len() * 4;
    particle_step_global(
        dut,
        implementation,
        (vertices.as_global_mut(), vertex_floats),
        state,
        grid,
        block,
        max_age,
        inputs,
    )
}

/// One step of `version` of the fountain (the notes' tuning steps) on
/// device buffers, in blocks of `block`; the staged versions get one float4
/// of shared memory per thread.
#[allow(clippy::too_many_arguments)]
pub fn fountain_version_step(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    version: FountainVersion,
    (vertices, state): (&mut DeviceBuffer<F32x4>, &mut DeviceBuffer<F32x4>),
    grid: ParticleGrid,
    block: Dim3,
    max_age: u32,
    (emitter_angle, frame): (f32, u32),
) -> Result<()> {
    let shape = fountain_version_shape(version, grid, block, vertices.len() * 4, state.len() * 4)?;
    let max_age = check_max_age(max_age)?;
    let (v, s, w, h) = (vertices.as_global_mut(), state.as_global_mut(), grid.width, grid.height);
    let args = (v, s, w, h, max_age, emitter_angle, frame);
    // SAFETY (each arm): the shape check proved both buffers hold every particle the grid covers (DeviceBuffer
    // allocations are 256-byte aligned), and a staged launch has its tile's shared memory.
    match version {
        FountainVersion::Naive => unsafe {
            let args = (v, s.cast::<f32>(), w, h, max_age, emitter_angle, frame);
            dut.launch::<particle_fountain_naive_params>(implementation, shape, args)
        },
        FountainVersion::Float4State => unsafe {
            dut.launch::<particle_fountain_float4_state_params>(implementation, shape, args)
        },
        FountainVersion::Registers => unsafe { dut.launch::<particle_fountain_params>(implementation, shape, args) },
        FountainVersion::Staged => unsafe {
            dut.launch::<particle_fountain_staged_params>(implementation, shape, args)
        },
        FountainVersion::StagedSynced => unsafe {
            dut.launch::<particle_fountain_staged_synced_params>(implementation, shape, args)
        },
    }
}

/// One step of the all-pairs swarm (`tiled`: through shared-memory tiles):
/// reads the positions of `positions` (the previous step's vertex buffer),
/// writes `vertices` and `state`.
#[allow(clippy::too_many_arguments)]
pub fn gravity_step(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    tiled: bool,
    positions: &DeviceBuffer<F32x4>,
    (vertices, state): (&mut DeviceBuffer<F32x4>, &mut DeviceBuffer<F32x4>),
    grid: ParticleGrid,
    block: Dim3,
) -> Result<()> {
    let kernel = gravity_kernel(tiled);
    let shape = gravity_shape(tiled, grid, block, vertices.len() * 4, state.len() * 4)?;
    if positions.len() < grid.particles() {
        return Err(Error::InvalidLaunch {
            kernel,
            reason: format!("{} positions for {} particles", positions.len(), grid.particles()),
        });
    }
    let args = (
        positions.as_global(),
        vertices.as_global_mut(),
        state.as_global_mut(),
        grid.width,
        grid.height,
    );
    if tiled {
        // SAFETY: the checks above proved every buffer holds the particles the grid covers; positions is a
        // separate allocation from vertices (a & and a &mut borrow); the tile's shared memory is given.
        unsafe { dut.launch::<particle_gravity_tiled_params>(implementation, shape, args) }
    } else {
        // SAFETY: as above, without shared memory.
        unsafe { dut.launch::<particle_gravity_params>(implementation, shape, args) }
    }
}

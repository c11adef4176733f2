use std::ops::Range;

use kernels_gpu::device::{Dim3, F32x4, FAST_COS_MAX_ABS_ERROR, FAST_SIN_MAX_ABS_ERROR};

use super::particle_step;
use crate::error::Result;
use crate::gpu::DeviceBuffer;
use crate::particle_scene::{ParticleGrid, ParticleState, ParticleSystem, check_max_age, float4s};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The probe's particle grid: in a 2 × 2 grid, particle (1, 1) is born with
/// no horizontal speed (`vx = 0.02·(1/2 − ½) = 0`, likewise `vz`), so after
/// its first step its `x` and `z` are the emitter's, bit for bit.
pub const EMITTER_PROBE_GRID: ParticleGrid = ParticleGrid::new(2, 2);

/// Particle (1, 1) of the probe grid.
const PROBE_PARTICLE: usize = 3;

/// The probe's state before its step: every particle at its lifetime, so
/// every one is born in the step; positions and speeds zero.
pub fn emitter_probe_state(max_age: u32) -> Result<ParticleState> {
    let age = check_max_age(max_age)?;
    let grid = EMITTER_PROBE_GRID;
    let mut state = vec![0.0; grid.state_floats()];
    for particle in state.as_chunks_mut::<4>().0 {
        particle[0] = age;
    }
    Ok(ParticleState {
        grid,
        vertices: vec![0.0; grid.vertex_floats()],
        state,
    })
}

/// The emitter `(x, z)` read from the probe's state after its step.
pub fn emitter_from_probe(after: &ParticleState) -> [f32; 2] {
    let [x, _, z, _] = after.position(PROBE_PARTICLE);
    [x, z]
}

/// `None` when `measured` lies within the fast sine's and cosine's
/// documented error (plus the rounding of the product by 0.2) of
/// `0.2·(sin a, cos a)` for `a = angle` in double precision; else why not.
pub fn emitter_mismatch(measured: [f32; 2], angle: f32) -> Option<String> {
    let a = angle as f64;
    let exact = [0.2 * a.sin(), 0.2 * a.cos()];
    let bounds = [FAST_SIN_MAX_ABS_ERROR, FAST_COS_MAX_ABS_ERROR].map(|e| 0.2 * e as f64 + 2e-8);
    let off = (0..2).find(|&c| (measured[c] as f64 - exact[c]).abs() > bounds[c])?;
    Some(format!(
        "the emitter at angle {angle} is at {measured:?}; 0.2·(sin, cos) is ({:.9}, {:.9}), {} off by more than the \
         fast {}'s error",
        exact[0],
        exact[1],
        ["x", "z"][off],
        ["sine", "cosine"][off]
    ))
}

/// Where `implementation`'s `particle_fountain` places the emitter in each
/// frame of `frames` (its fast sine and cosine of the frame's angle): one
/// step of the 2 × 2 probe grid per frame, all newborn, and the position of
/// the particle that does not move sideways read back. With these the CPU
/// reference follows a GPU run of the fountain bit for bit
/// (`reference::FountainEmitter::Measured`).
pub fn fountain_emitter_positions(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    max_age: u32,
    frames: Range<u32>,
) -> Result<Vec<[f32; 2]>> {
    let start = emitter_probe_state(max_age)?;
    let newborn = float4s(&start.state);
    let mut vertices = DeviceBuffer::from_host(dut.gpu(), &float4s(&start.vertices))?;
    let mut state = DeviceBuffer::from_host(dut.gpu(), &newborn)?;
    let mut positions = Vec::with_capacity(frames.len());
    let mut probe = [F32x4::default()];
    for frame in frames {
        state.copy_from_host(&newborn)?;
        particle_step(
            dut,
            implementation,
            &mut vertices,
            &mut state,
            EMITTER_PROBE_GRID,
            Dim3::xy(2, 2),
            max_age,
            ParticleSystem::Fountain.inputs(frame),
        )?;
        vertices.copy_range_to_host(PROBE_PARTICLE, &mut probe)?;
        let [x, _, z, _] = probe[0].to_array();
        positions.push([x, z]);
    }
    Ok(positions)
}

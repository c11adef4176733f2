//! Self-test checks of the particle systems: the kernels over a run of steps
//! against the CPU simulation, and the CUDA–OpenGL interop round trip
//! (waived without EGL or an EGL device for the GPU).

use kernels_gpu::device::{Dim3, F32x4};

use super::SelfTest;
use super::checks::{first, verified};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::launchers::{self, ParticleFrames, emitter_mismatch, fountain_emitter_positions};
use crate::particle_scene::{
    ParticleGrid, ParticleRows, ParticleState, ParticleSystem, float4s, fountain_emitter_angle, initial_state,
};
use crate::reference::{FountainEmitter, particle_rows_mismatch, run_particle_rows};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The checks of the particle kernels and their interop, in the order `ptxsuite selftest` runs them
/// (gathered with the other families' by [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const SELF_TESTS: &[SelfTest] = &[
    SelfTest {
        name: "particles: fountain and swarm vs the CPU simulation",
        run: particle_kernels,
    },
    SelfTest {
        name: "particles: CUDA-OpenGL interop round trip",
        run: particle_interop,
    },
];

/// An odd grid (partial edge blocks), a short lifetime (births in most steps).
const GRID: ParticleGrid = ParticleGrid::new(37, 19);
const MAX_AGE: u32 = 40;
const STEPS: u32 = 60;
const BLOCKS: [Dim3; 3] = [Dim3::xy(16, 16), Dim3::xy(5, 3), Dim3::xy(1, 1)];

/// Where `implementation`'s fountain put the emitter in frames `0..STEPS`, checked against the sine.
fn emitter_path(dut: &DeviceUnderTest, implementation: Implementation) -> Result<Vec<[f32; 2]>> {
    let path = fountain_emitter_positions(dut, implementation, MAX_AGE, 0..STEPS)?;
    let mismatch = path
        .iter()
        .zip(0..)
        .find_map(|(&e, frame)| emitter_mismatch(e, fountain_emitter_angle(frame)));
    verified(
        format!("particle_fountain · {}: the emitter probe", implementation.label()),
        mismatch,
    )?;
    Ok(path)
}

/// The CPU simulation of `STEPS` steps of `system` from its initial state.
fn expected(system: ParticleSystem, emitter: &[[f32; 2]]) -> Result<ParticleRows> {
    let mut rows = ParticleRows::all(initial_state(system, GRID, MAX_AGE)?);
    let placed = match system {
        ParticleSystem::Fountain => FountainEmitter::Measured(emitter),
        ParticleSystem::Swarm => FountainEmitter::HostTrig,
    };
    run_particle_rows(system, &mut rows, MAX_AGE, 0..STEPS, placed)?;
    Ok(rows)
}

/// Both kernels, every implementation, three block shapes: `STEPS` steps
/// from the initial state, bit for bit against the CPU simulation (the
/// fountain's emitter where the GPU's fast sine put it, probed and checked).
pub(super) fn particle_kernels(testbed: &crate::testbed::Testbed) -> Result<()> {
    let dut = first(testbed);
    let gpu = dut.gpu();
    for system in ParticleSystem::ALL {
        let start = initial_state(system, GRID, MAX_AGE)?;
        for implementation in dut.ptx_implementations().0 {
            let emitter = match system {
                ParticleSystem::Fountain => emitter_path(dut, implementation)?,
                ParticleSystem::Swarm => Vec::new(),
            };
            let want = expected(system, &emitter)?;
            for block in BLOCKS {
                let mut vertices = DeviceBuffer::from_host(gpu, &float4s(&start.vertices))?;
                let mut state = DeviceBuffer::from_host(gpu, &float4s(&start.state))?;
                for frame in 0..STEPS {
                    launchers::particle_step(
                        dut,
                        implementation,
                        &mut vertices,
                        &mut state,
                        GRID,
                        block,
                        MAX_AGE,
                        system.inputs(frame),
                    )?;
                }
                let got = ParticleRows::all(ParticleState {
                    grid: GRID,
                    vertices: F32x4::as_floats(&vertices.to_host()?).to_vec(),
                    state: F32x4::as_floats(&state.to_host()?).to_vec(),
                });
                verified(
                    format!(
                        "{} · {}, {}x{} blocks, {STEPS} steps",
                        system.kernel(),
                        implementation.label(),
                        block.x,
                        block.y
                    ),
                    particle_rows_mismatch(&got, &want),
                )?;
            }
        }
    }
    Ok(())
}

/// The interop round trip: a state written into the OpenGL vertex buffer
/// through CUDA reads back through OpenGL; `STEPS` frames (map, kernel,
/// unmap, draw) leave the state the CPU simulation has and a lit picture.
pub(super) fn particle_interop(testbed: &crate::testbed::Testbed) -> Result<()> {
    let dut = first(testbed);
    let system = ParticleSystem::Fountain;
    let mut frames = ParticleFrames::new(dut, system, GRID, MAX_AGE, (64, 48))?;
    let start = initial_state(system, GRID, MAX_AGE)?;
    frames.set_state(&start, 0)?;
    verified(
        "interop: the state written through CUDA, read through OpenGL",
        particle_rows_mismatch(
            &ParticleRows::all(frames.read_state()?),
            &ParticleRows::all(start.clone()),
        ),
    )?;
    for implementation in dut.ptx_implementations().0 {
        let want = expected(system, &emitter_path(dut, implementation)?)?;
        frames.set_state(&start, 0)?;
        let mut picture = None;
        for _ in 0..STEPS {
            picture = Some(frames.frame(implementation, Dim3::xy(16, 16))?.1);
        }
        let what = format!(
            "interop: {STEPS} frames of {} · {}",
            system.kernel(),
            implementation.label()
        );
        verified(
            what.clone(),
            particle_rows_mismatch(&ParticleRows::all(frames.read_state()?), &want),
        )?;
        let lit = picture.map_or(0, |p| p.pixels().iter().filter(|&&c| c != 0).count());
        if lit == 0 {
            return Err(Error::Verification {
                what,
                detail: "the picture OpenGL drew is black".into(),
            });
        }
    }
    Ok(())
}

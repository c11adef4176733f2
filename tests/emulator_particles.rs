//! The particle kernels in the CPU emulator against the CPU reference step:
//! odd particle grids (37 × 19) with block shapes that do not divide them,
//! 1 × 1 blocks, several steps chained, and states built to take every
//! branch (births, bounces on and off the table, a particle on the target).
//!
//! The emulator's fast sine and cosine are the host's `sin`/`cos`, as in the
//! reference, so every float must match bit for bit.

use kernels_gpu::device::{Dim3, F32x4};
use kernels_gpu::emulator::{EmulatorError, FaultKind};
use kernels_gpu::particles::{particle_fountain, particle_swarm};
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::launchers::{emitter_from_probe, emitter_probe_state};
use ptxsuite::particle_scene::{
    ParticleGrid, ParticleState, ParticleSystem, StepInputs, float4s, initial_state, swarm_target,
};
use ptxsuite::reference;

const ODD_GRID: ParticleGrid = ParticleGrid::new(37, 19);

/// One emulated step with `block`, on buffers exactly as long as the grid needs.
fn emulate_step(
    state: &ParticleState,
    max_age: u32,
    inputs: StepInputs,
    block: Dim3,
) -> Result<ParticleState, EmulatorError> {
    let grid = state.grid;
    let mut vertices = float4s(&state.vertices);
    let mut particles = float4s(&state.state);
    let blocks = Dim3::xy(grid.width.div_ceil(block.x), grid.height.div_ceil(block.y));
    {
        let mut emu = Emulator::new();
        let v = emu.global_mut(&mut vertices);
        let s = emu.global_mut(&mut particles);
        let config = LaunchConfig::new(blocks, block, 0);
        let (w, h, age) = (grid.width, grid.height, max_age as f32);
        match inputs {
            // SAFETY: the emulator checks every access against the two registered buffers.
            StepInputs::Fountain { emitter_angle, frame } => emu.launch(config, || unsafe {
                particle_fountain(v, s, w, h, age, emitter_angle, frame)
            })?,
            // SAFETY: as above.
            StepInputs::Swarm {
                target: [x, y, z],
                frame,
            } => emu.launch(config, || unsafe { particle_swarm(v, s, w, h, age, x, y, z, frame) })?,
        }
    }
    Ok(ParticleState {
        grid,
        vertices: F32x4::as_floats(&vertices).to_vec(),
        state: F32x4::as_floats(&particles).to_vec(),
    })
}

/// Bitwise comparison, naming the first differing float.
fn assert_same(got: &ParticleState, expected: &ParticleState, what: &str) {
    for (name, a, b) in [
        ("vertices", &got.vertices, &expected.vertices),
        ("state", &got.state, &expected.state),
    ] {
        assert_eq!(a.len(), b.len(), "{what}: {name} length");
        if let Some(k) = (0..a.len()).find(|&k| a[k].to_bits() != b[k].to_bits()) {
            panic!(
                "{what}: {name}[{k}] (particle {}, component {}) is {} in the emulator, {} in the reference",
                k / 4 % got.grid.particles(),
                k % 4,
                a[k],
                b[k]
            );
        }
    }
}

/// A state that takes every branch of the fountain: ages below, at and
/// past `max_age`; particles just above the table falling onto it, some
/// inside the table's disc and some outside it, some rising.
fn fountain_mixed_state(grid: ParticleGrid, max_age: u32) -> ParticleState {
    let n = grid.particles();
    let mut vertices = vec![0.0; grid.vertex_floats()];
    let mut state = vec![0.0; grid.state_floats()];
    for p in 0..n {
        let t = p as f32;
        let x = ((p * 7) % 25) as f32 * 0.5 - 6.0; // -6 .. 6: inside and outside |x| < 5
        let z = ((p * 3) % 13) as f32 * 0.9 - 5.4;
        let y = ((p * 5) % 9) as f32 * 0.004 - 0.008; // -0.008 .. 0.024: around the table top
        vertices[4 * p..4 * p + 4].copy_from_slice(&[x, y, z, 1.0]);
        let age = (p % (max_age as usize + 3)) as f32;
        let vy = ((p * 11) % 17) as f32 * 0.002 - 0.02;
        state[4 * p..4 * p + 4].copy_from_slice(&[age, 0.001 * (t % 5.0) - 0.002, vy, 0.003 - 0.0005 * (t % 13.0)]);
    }
    ParticleState { grid, vertices, state }
}

/// A swarm state with ages on both sides of `max_age`, particles scattered
/// around the origin, and particle 0 exactly on the target (no pull, no NaN).
fn swarm_mixed_state(grid: ParticleGrid, max_age: u32, target: [f32; 3]) -> ParticleState {
    let n = grid.particles();
    let mut vertices = vec![0.0; grid.vertex_floats()];
    let mut state = vec![0.0; grid.state_floats()];
    for p in 0..n {
        let position = if p == 0 {
            target
        } else {
            [
                ((p * 7) % 23) as f32 * 0.13 - 1.5,
                ((p * 5) % 19) as f32 * 0.11 - 1.0,
                ((p * 3) % 29) as f32 * 0.07 - 1.0,
            ]
        };
        vertices[4 * p..4 * p + 4].copy_from_slice(&[position[0], position[1], position[2], 1.0]);
        let age = if p == 0 {
            1.0
        } else {
            (p % (max_age as usize + 2)) as f32
        };
        let v = if p == 0 { 0.0 } else { 0.0001 * ((p % 7) as f32 - 3.0) };
        state[4 * p..4 * p + 4].copy_from_slice(&[age, v, -v, 0.5 * v]);
    }
    ParticleState { grid, vertices, state }
}

/// Runs `steps` steps in the emulator and in the reference from `start`,
/// comparing after every step.
fn chain(system: ParticleSystem, start: &ParticleState, max_age: u32, first_frame: u32, steps: u32, block: Dim3) {
    let mut emulated = start.clone();
    let mut expected = start.clone();
    for frame in first_frame..first_frame + steps {
        let inputs = system.inputs(frame);
        emulated = emulate_step(&emulated, max_age, inputs, block).unwrap();
        reference::particle_step(&mut expected, max_age, inputs);
        assert_same(
            &emulated,
            &expected,
            &format!("{} frame {frame}, block {}x{}", system.label(), block.x, block.y),
        );
    }
}

const SHAPES: [Dim3; 5] = [
    Dim3::xy(5, 3),
    Dim3::xy(16, 16),
    Dim3::xy(1, 1),
    Dim3::xy(256, 1),
    Dim3::xy(1, 32),
];

#[test]
fn fountain_matches_reference_on_odd_grid_for_every_block_shape() {
    let max_age = 6;
    let start = fountain_mixed_state(ODD_GRID, max_age);
    for block in SHAPES {
        chain(ParticleSystem::Fountain, &start, max_age, 100, 8, block);
    }
}

#[test]
fn fountain_mixed_state_takes_every_branch() {
    // The reference shows which branches the mixed state exercises; without them the test above proves less.
    let max_age = 6;
    let start = fountain_mixed_state(ODD_GRID, max_age);
    let mut after = start.clone();
    reference::fountain_step(&mut after, max_age, 0.5, 3);
    let n = ODD_GRID.particles();
    let (mut born, mut bounced, mut fell_off, mut fell) = (0, 0, 0, 0);
    for p in 0..n {
        let [age0, _, vy0, _] = start.particle(p);
        let [age1, _, vy1, _] = after.particle(p);
        let [x0, _, z0, _] = start.position(p);
        let [_, y1, _, _] = after.position(p);
        if age0 >= max_age as f32 {
            assert_eq!(age1, 1.0);
            born += 1;
            continue;
        }
        if y1 <= 0.0 && x0 * x0 + z0 * z0 < 25.0 {
            assert_eq!(vy1, (vy0 - 0.0001) * -0.2, "particle {p} must bounce");
            bounced += 1;
        } else if y1 <= 0.0 {
            assert_eq!(vy1, vy0 - 0.0001, "particle {p} is off the table: no bounce");
            fell_off += 1;
        } else {
            fell += 1;
        }
    }
    assert!(
        born > 20 && bounced > 20 && fell_off > 20 && fell > 20,
        "{born} {bounced} {fell_off} {fell}"
    );
}

#[test]
fn fountain_from_the_scene_start_matches_reference_over_many_steps() {
    // The notes' start: random ages, parked particles born over the first max_age steps.
    let max_age = 40;
    let start = initial_state(ParticleSystem::Fountain, ODD_GRID, max_age).unwrap();
    chain(ParticleSystem::Fountain, &start, max_age, 0, 60, Dim3::xy(16, 16));
}

#[test]
fn swarm_matches_reference_on_odd_grid_for_every_block_shape() {
    let max_age = 5;
    let first_frame = 250;
    let start = swarm_mixed_state(ODD_GRID, max_age, swarm_target(first_frame));
    for block in SHAPES {
        chain(ParticleSystem::Swarm, &start, max_age, first_frame, 8, block);
    }
}

#[test]
fn swarm_particle_on_the_target_gets_no_pull() {
    let max_age = 5;
    let inputs = ParticleSystem::Swarm.inputs(250);
    let target = swarm_target(250);
    let start = swarm_mixed_state(ODD_GRID, max_age, target);
    let after = emulate_step(&start, max_age, inputs, Dim3::xy(8, 8)).unwrap();
    assert_eq!(after.particle(0), [2.0, 0.0, 0.0, 0.0]);
    assert_eq!(after.position(0), [target[0], target[1], target[2], 1.0]);
    assert!(after.vertices.iter().chain(&after.state).all(|v| v.is_finite()));
}

#[test]
fn swarm_from_the_scene_start_matches_reference_over_many_steps() {
    let max_age = 30;
    let start = initial_state(ParticleSystem::Swarm, ODD_GRID, max_age).unwrap();
    chain(ParticleSystem::Swarm, &start, max_age, 0, 45, Dim3::xy(32, 4));
}

#[test]
fn colours_follow_positions_in_the_vertex_buffer() {
    // Particle i's colour is float4 n + i: white when born, yellow, then red at max_age.
    let max_age = 4;
    let mut state = initial_state(ParticleSystem::Fountain, ODD_GRID, max_age).unwrap();
    for p in 0..ODD_GRID.particles() {
        state.state[4 * p] = (p % 4) as f32; // ages 0..3 before the step, 1..4 after
    }
    let after = emulate_step(&state, max_age, ParticleSystem::Fountain.inputs(0), Dim3::xy(8, 4)).unwrap();
    for p in 0..ODD_GRID.particles() {
        let age = (p % 4 + 1) as f32;
        let c = age / 4.0;
        assert_eq!(after.colour(p), [1.0, 1.0 - 0.5 * c, 1.0 - c, 1.0], "particle {p}");
    }
}

#[test]
fn too_short_buffers_are_reported_as_faults() {
    // The kernels index every particle of the grid: a vertex buffer one float4 short faults at the last colour.
    let max_age = 3;
    let state = initial_state(ParticleSystem::Fountain, ODD_GRID, max_age).unwrap();
    let mut vertices = float4s(&state.vertices);
    vertices.pop();
    let mut particles = float4s(&state.state);
    let mut emu = Emulator::new();
    let v = emu.global_mut(&mut vertices);
    let s = emu.global_mut(&mut particles);
    let config = LaunchConfig::new(Dim3::xy(3, 2), Dim3::xy(16, 16), 0);
    // SAFETY: the emulator checks every access; the short buffer's overrun becomes a fault.
    let err = emu
        .launch(config, || unsafe { particle_fountain(v, s, 37, 19, 3.0, 0.0, 0) })
        .unwrap_err();
    assert!(
        err.has_fault(
            |k| matches!(k, FaultKind::GlobalOutOfBounds { write: true, index, .. } if *index == 2 * 37 * 19 - 1)
        ),
        "{err}"
    );
}

#[test]
fn the_emitter_probe_reads_the_kernels_emitter_bit_for_bit() {
    // The probe grid is stepped by the kernel itself; the particle that does not move sideways
    // ends on the emitter, which in the emulator is 0.2 * (sin, cos) of the host.
    let max_age = 600;
    let probe = emitter_probe_state(max_age).unwrap();
    for frame in [0, 1, 157, 314, 629, 1999] {
        let inputs = ParticleSystem::Fountain.inputs(frame);
        let StepInputs::Fountain { emitter_angle, .. } = inputs else {
            unreachable!("a fountain step")
        };
        for block in [Dim3::xy(2, 2), Dim3::xy(1, 1), Dim3::xy(16, 16)] {
            let after = emulate_step(&probe, max_age, inputs, block).unwrap();
            let got = emitter_from_probe(&after);
            let want = reference::host_emitter(emitter_angle);
            assert_eq!(
                got.map(f32::to_bits),
                want.map(f32::to_bits),
                "frame {frame}, block {}x{}",
                block.x,
                block.y
            );
        }
    }
}

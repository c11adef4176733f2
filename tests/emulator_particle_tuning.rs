//! The notes' tuning steps of the fountain and their all-pairs swarm in the
//! CPU emulator against the CPU reference: every fountain version on an odd
//! grid with block shapes that do not divide it, from a state that takes
//! every branch (births, bounces inside the square and the disc, inside the
//! square but outside the disc, and off both), steps chained; the all-pairs
//! swarm naive and tiled, each step reading the previous one's buffer.

use kernels_gpu::device::{Dim3, F32x4};
use kernels_gpu::particles::{
    particle_fountain, particle_fountain_float4_state, particle_fountain_naive, particle_fountain_staged,
    particle_fountain_staged_synced, particle_gravity, particle_gravity_tiled, staged_tile_bytes,
};
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::particle_scene::{
    FountainVersion, ParticleGrid, ParticleState, TableTop, float4s, fountain_emitter_angle, gravity_initial_state,
};
use ptxsuite::reference;

const ODD_GRID: ParticleGrid = ParticleGrid::new(37, 19);

/// Ages on both sides of `max_age`; positions around the table's edge (|x|, |z| up to 6: inside the square and
/// the disc, in the square's corners outside the disc, off both), heights around the table top.
fn mixed_state(grid: ParticleGrid, max_age: u32) -> ParticleState {
    let n = grid.particles();
    let mut vertices = vec![0.0; grid.vertex_floats()];
    let mut state = vec![0.0; grid.state_floats()];
    for p in 0..n {
        let x = ((p * 7) % 25) as f32 * 0.5 - 6.0;
        let z = ((p * 3) % 13) as f32 * 1.0 - 6.0;
        let y = ((p * 5) % 9) as f32 * 0.004 - 0.008;
        vertices[4 * p..4 * p + 4].copy_from_slice(&[x, y, z, 1.0]);
        let age = (p % (max_age as usize + 3)) as f32;
        let vy = ((p * 11) % 17) as f32 * 0.002 - 0.02;
        state[4 * p..4 * p + 4].copy_from_slice(&[age, 0.001 * (p % 5) as f32 - 0.002, vy, 0.0005]);
    }
    ParticleState { grid, vertices, state }
}

/// One emulated step of `version` in blocks of `block`.
fn emulate(version: FountainVersion, state: &ParticleState, max_age: u32, frame: u32, block: Dim3) -> ParticleState {
    let grid = state.grid;
    let mut vertices = float4s(&state.vertices);
    let mut particles = float4s(&state.state);
    let mut floats = state.state.clone();
    let blocks = Dim3::xy(grid.width.div_ceil(block.x), grid.height.div_ceil(block.y));
    let shared = if version.staged() {
        staged_tile_bytes(block.count() as u32) as usize
    } else {
        0
    };
    let naive = version == FountainVersion::Naive;
    {
        let mut emu = Emulator::new();
        let v = emu.global_mut(&mut vertices);
        let (w, h, age, angle) = (grid.width, grid.height, max_age as f32, fountain_emitter_angle(frame));
        let config = LaunchConfig::new(blocks, block, shared);
        let result = if naive {
            let s = emu.global_mut(&mut floats);
            // SAFETY: the emulator checks every access against the registered buffers.
            emu.launch(config, || unsafe {
                particle_fountain_naive(v, s, w, h, age, angle, frame)
            })
        } else {
            let s = emu.global_mut(&mut particles);
            // SAFETY: as above.
            emu.launch(config, || unsafe {
                match version {
                    FountainVersion::Float4State => particle_fountain_float4_state(v, s, w, h, age, angle, frame),
                    FountainVersion::Registers => particle_fountain(v, s, w, h, age, angle, frame),
                    FountainVersion::Staged => particle_fountain_staged(v, s, w, h, age, angle, frame),
                    _ => particle_fountain_staged_synced(v, s, w, h, age, angle, frame),
                }
            })
        };
        result.unwrap_or_else(|e| panic!("{version:?}: {e}"));
    }
    ParticleState {
        grid,
        vertices: F32x4::as_floats(&vertices).to_vec(),
        state: if naive {
            floats
        } else {
            F32x4::as_floats(&particles).to_vec()
        },
    }
}

fn assert_same(got: &ParticleState, expected: &ParticleState, what: &str) {
    for (name, a, b) in [
        ("vertices", &got.vertices, &expected.vertices),
        ("state", &got.state, &expected.state),
    ] {
        assert_eq!(a.len(), b.len(), "{what}: {name} length");
        if let Some(k) = (0..a.len()).find(|&k| a[k].to_bits() != b[k].to_bits()) {
            panic!("{what}: {name}[{k}] is {} emulated, {} in the reference", a[k], b[k]);
        }
    }
}

const SHAPES: [Dim3; 5] = [
    Dim3::xy(5, 3),
    Dim3::xy(16, 16),
    Dim3::xy(1, 1),
    Dim3::xy(12, 12),
    Dim3::xy(1, 16),
];

#[test]
fn every_fountain_version_matches_the_reference_of_its_table_top() {
    let max_age = 6;
    let start = mixed_state(ODD_GRID, max_age);
    for version in FountainVersion::ALL {
        for block in SHAPES {
            let mut emulated = start.clone();
            let mut expected = start.clone();
            for frame in 100..106 {
                emulated = emulate(version, &emulated, max_age, frame, block);
                let angle = fountain_emitter_angle(frame);
                reference::fountain_step_on(&mut expected, version.table_top(), max_age, angle, frame);
                let what = format!("{version:?} frame {frame}, block {}x{}", block.x, block.y);
                assert_same(&emulated, &expected, &what);
            }
        }
    }
}

#[test]
fn the_square_and_the_disc_bounce_different_particles_in_the_mixed_state() {
    // Without particles in the square's corners the test above could not tell the two table tops apart.
    let max_age = 6;
    let start = mixed_state(ODD_GRID, max_age);
    let (mut square, mut disc) = (start.clone(), start.clone());
    let angle = fountain_emitter_angle(100);
    reference::fountain_step_on(&mut square, TableTop::Square, max_age, angle, 100);
    reference::fountain_step_on(&mut disc, TableTop::Disc, max_age, angle, 100);
    let differing = (0..ODD_GRID.particles())
        .filter(|&p| square.particle(p)[2] != disc.particle(p)[2])
        .count();
    assert!(differing >= 10, "{differing} particles bounce on one table top only");
    let naive = emulate(FountainVersion::Naive, &start, max_age, 100, Dim3::xy(8, 8));
    assert_ne!(naive.state, disc.state, "the naive kernel bounces on the square");
}

/// One emulated all-pairs step reading `positions`, writing a new vertex buffer and the state.
fn emulate_gravity(tiled: bool, state: &ParticleState, block: Dim3) -> ParticleState {
    let grid = state.grid;
    let positions = float4s(&state.vertices);
    let mut vertices = vec![F32x4::default(); positions.len()];
    let mut particles = float4s(&state.state);
    let blocks = Dim3::xy(grid.width.div_ceil(block.x), grid.height.div_ceil(block.y));
    let shared = if tiled {
        staged_tile_bytes(block.count() as u32) as usize
    } else {
        0
    };
    {
        let mut emu = Emulator::new();
        let p = emu.global(&positions);
        let v = emu.global_mut(&mut vertices);
        let s = emu.global_mut(&mut particles);
        let (w, h) = (grid.width, grid.height);
        // SAFETY: the emulator checks every access against the registered buffers.
        emu.launch(LaunchConfig::new(blocks, block, shared), || unsafe {
            if tiled {
                particle_gravity_tiled(p, v, s, w, h)
            } else {
                particle_gravity(p, v, s, w, h)
            }
        })
        .unwrap();
    }
    ParticleState {
        grid,
        vertices: F32x4::as_floats(&vertices).to_vec(),
        state: F32x4::as_floats(&particles).to_vec(),
    }
}

#[test]
fn the_all_pairs_swarm_naive_and_tiled_match_the_reference() {
    let grid = ParticleGrid::new(13, 7);
    let start = gravity_initial_state(grid);
    for tiled in [false, true] {
        for block in [Dim3::xy(5, 3), Dim3::xy(16, 16), Dim3::xy(1, 1), Dim3::xy(32, 1)] {
            let mut emulated = start.clone();
            let mut expected = start.clone();
            for step in 0..3 {
                emulated = emulate_gravity(tiled, &emulated, block);
                reference::gravity_step(&mut expected);
                let what = format!("tiled {tiled}, step {step}, block {}x{}", block.x, block.y);
                assert_same(&emulated, &expected, &what);
            }
            assert_ne!(emulated.vertices[..4], start.vertices[..4], "the particles move");
            assert!(emulated.state.iter().any(|&v| v != 0.0), "velocities build up");
        }
    }
}

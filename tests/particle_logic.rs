//! The particle systems' host logic without a GPU: the launch-shape checks,
//! the scenes' inputs and initial states, and what the CPU simulation does
//! over many steps (the fountain rises, falls back and bounces on the table;
//! the swarm stays with its target).

use kernels_gpu::device::Dim3;
use ptxsuite::Error;
use ptxsuite::launchers::{
    EMITTER_PROBE_GRID, emitter_from_probe, emitter_mismatch, emitter_probe_state, particle_shape,
};
use ptxsuite::particle_scene::{
    NOTES_BLOCK_SHAPE_FPS, NOTES_GRID, PARTICLE_BYTES_PER_STEP, ParticleGrid, ParticleRows, ParticleSystem,
    fountain_emitter_angle, initial_state, sample_rows, swarm_target,
};
use ptxsuite::reference::{
    FountainEmitter, host_emitter, particle_step, run_particle_rows, run_particle_steps, simulate_particles,
};

const K: &str = "particle_fountain";

fn shape(grid: ParticleGrid, block: Dim3) -> Result<(Dim3, Dim3), Error> {
    particle_shape(K, grid, block, grid.vertex_floats(), grid.state_floats()).map(|s| (s.grid, s.block))
}

fn refused(result: Result<impl std::fmt::Debug, Error>, says: &str) {
    match result {
        Err(Error::InvalidLaunch { kernel, reason }) => {
            assert_eq!(kernel, K);
            assert!(reason.contains(says), "{reason:?} should mention {says:?}");
        }
        other => panic!("expected a refusal mentioning {says:?}, got {other:?}"),
    }
}

#[test]
fn shapes_cover_the_grid_with_partial_edge_blocks() {
    assert_eq!(
        shape(NOTES_GRID, Dim3::xy(16, 16)).unwrap(),
        (Dim3::xy(16, 16), Dim3::xy(16, 16))
    );
    let odd = ParticleGrid::new(37, 19);
    assert_eq!(shape(odd, Dim3::xy(5, 3)).unwrap().0, Dim3::xy(8, 7));
    assert_eq!(shape(odd, Dim3::xy(1, 1)).unwrap().0, Dim3::xy(37, 19));
    assert_eq!(shape(odd, Dim3::xy(256, 1)).unwrap().0, Dim3::xy(1, 19));
    assert_eq!(shape(NOTES_GRID, Dim3::xy(1, 256)).unwrap().0, Dim3::xy(256, 1));
    // Every shape of the notes' table is accepted on their grid.
    for ((bx, by), _) in NOTES_BLOCK_SHAPE_FPS {
        let (blocks, _) = shape(NOTES_GRID, Dim3::xy(bx, by)).unwrap();
        assert!(blocks.x * bx >= 256 && blocks.y * by >= 256);
    }
}

#[test]
fn bad_shapes_and_short_buffers_are_refused() {
    let grid = ParticleGrid::new(37, 19);
    refused(shape(grid, Dim3::xy(0, 4)), "block");
    refused(shape(grid, Dim3::xy(33, 32)), "1024 threads");
    refused(shape(grid, Dim3::new(4, 4, 2)), "z = 1");
    refused(shape(ParticleGrid::new(0, 5), Dim3::xy(4, 4)), "empty");
    refused(shape(ParticleGrid::new(1, 70_000), Dim3::xy(1, 1)), "grid limits");
    refused(shape(ParticleGrid::new(65_536, 32_769), Dim3::xy(16, 16)), "overflows");
    let short_vertices = particle_shape(K, grid, Dim3::xy(8, 8), grid.vertex_floats() - 1, grid.state_floats());
    refused(short_vertices, "vertex buffer");
    let short_state = particle_shape(K, grid, Dim3::xy(8, 8), grid.vertex_floats(), grid.state_floats() - 1);
    refused(short_state, "state buffer");
    // Longer buffers are fine.
    assert!(
        particle_shape(
            K,
            grid,
            Dim3::xy(8, 8),
            grid.vertex_floats() + 4,
            grid.state_floats() + 4
        )
        .is_ok()
    );
}

#[test]
fn bytes_per_particle_per_step() {
    // 2 float4 loads and 3 float4 stores.
    assert_eq!(PARTICLE_BYTES_PER_STEP, 80);
    assert_eq!(NOTES_GRID.vertex_floats(), 256 * 256 * 8);
    assert_eq!(NOTES_GRID.state_floats(), 256 * 256 * 4);
}

#[test]
fn emitter_angle_stays_where_the_fast_sine_is_accurate() {
    assert_eq!(fountain_emitter_angle(0), 0.0);
    let pi = std::f32::consts::PI;
    for frame in (0..2_000_000).step_by(997) {
        let a = fountain_emitter_angle(frame);
        assert!((-pi..=pi).contains(&a), "frame {frame}: {a}");
        // The same point on the circle as the unwrapped time.
        let t = frame as f64 * 0.01;
        assert!(((a as f64).sin() - t.sin()).abs() < 1e-5, "frame {frame}");
        assert!(((a as f64).cos() - t.cos()).abs() < 1e-5, "frame {frame}");
    }
}

#[test]
fn initial_states_spread_ages_and_park_or_gather_particles() {
    let grid = ParticleGrid::new(64, 32);
    let max_age = 600;
    let fountain = initial_state(ParticleSystem::Fountain, grid, max_age).unwrap();
    let swarm = initial_state(ParticleSystem::Swarm, grid, max_age).unwrap();
    let target = swarm_target(0);
    let mut ages = vec![0usize; 6];
    for p in 0..grid.particles() {
        let [age, vx, vy, vz] = fountain.particle(p);
        assert!((0.0..max_age as f32).contains(&age) && age.fract() == 0.0, "{age}");
        ages[(age / 100.0) as usize] += 1;
        assert_eq!([vx, vy, vz], [-10000.0; 3]);
        assert_eq!(fountain.position(p), [-10000.0, -10000.0, -10000.0, 1.0]);
        let [x, y, z, w] = swarm.position(p);
        assert!((x - target[0]).abs() <= 0.25 && (y - target[1]).abs() <= 0.25 && (z - target[2]).abs() <= 0.25);
        assert_eq!(w, 1.0);
        assert_eq!(swarm.particle(p)[0], fountain.particle(p)[0]);
    }
    // Ages are spread over the whole lifetime (2048 particles, ~341 per 100 steps).
    assert!(ages.iter().all(|&a| (250..450).contains(&a)), "{ages:?}");
    assert!(initial_state(ParticleSystem::Fountain, grid, 0).is_err());
}

#[test]
fn fountain_rises_falls_back_and_bounces_on_the_table() {
    let grid = ParticleGrid::new(64, 64);
    let max_age = 600;
    let state = simulate_particles(ParticleSystem::Fountain, grid, max_age, 900).unwrap();
    let (mut high, mut on_table, mut below) = (0, 0, 0);
    for p in 0..grid.particles() {
        let [x, y, z, w] = state.position(p);
        assert_eq!(w, 1.0);
        // Everyone has been born by now: no parked particle is left.
        assert!(x.abs() < 7.0 && z.abs() < 7.0, "particle {p} at {x}, {z}");
        // Highest point: vy²/(2g) with vy < 0.025, g = 0.0001 per step².
        assert!(y < 3.2, "particle {p} at height {y}");
        if y > 1.0 {
            high += 1;
        }
        if y.abs() < 0.05 && x * x + z * z < 25.0 {
            on_table += 1;
        }
        if y < -0.5 {
            below += 1; // fell past the table's edge
        }
        let [r, g, b, a] = state.colour(p);
        assert!(r == 1.0 && a == 1.0 && (0.5..=1.0).contains(&g) && (0.0..=1.0).contains(&b) && g >= b);
    }
    let n = grid.particles();
    assert!(high > n / 10, "{high} of {n} particles above height 1");
    assert!(on_table > n / 50, "{on_table} of {n} particles on the table top");
    assert!(below > 0 && below < n / 4, "{below} of {n} fell off the table");
}

#[test]
fn swarm_stays_with_its_target() {
    let grid = ParticleGrid::new(32, 32);
    let steps = 1500;
    let state = simulate_particles(ParticleSystem::Swarm, grid, 600, steps).unwrap();
    let target = swarm_target(steps - 1);
    let mut mean_distance = 0.0;
    for p in 0..grid.particles() {
        let [x, y, z, _] = state.position(p);
        let d = ((x - target[0]).powi(2) + (y - target[1]).powi(2) + (z - target[2]).powi(2)).sqrt();
        assert!(d < 2.5, "particle {p} is {d} from the target");
        mean_distance += d / grid.particles() as f32;
    }
    assert!(mean_distance < 1.0, "mean distance {mean_distance}");
}

#[test]
fn sampled_rows_are_spread_first_to_last_without_repeats() {
    assert_eq!(sample_rows(4096, 16).len(), 16);
    assert_eq!(sample_rows(4096, 16)[..3], [0, 273, 546]);
    assert_eq!(*sample_rows(4096, 16).last().unwrap(), 4095);
    assert_eq!(sample_rows(256, 256), (0..256).collect::<Vec<_>>());
    assert_eq!(sample_rows(5, 16), [0, 1, 2, 3, 4]);
    assert_eq!(sample_rows(100, 1), [0]);
    for (height, count) in [(7, 3), (17, 16), (1000, 999), (3, 2)] {
        let rows = sample_rows(height, count);
        assert_eq!(rows.len(), count as usize, "{height} rows, {count} of them");
        assert!(rows.windows(2).all(|w| w[0] < w[1]) && rows[0] == 0 && *rows.last().unwrap() == height - 1);
    }
}

#[test]
fn rows_of_a_state_keep_their_particles_colours_and_state() {
    let grid = ParticleGrid::new(6, 5);
    let state = initial_state(ParticleSystem::Swarm, grid, 50).unwrap();
    let rows = ParticleRows::of(&state, &[1, 4]).unwrap();
    assert_eq!(rows.state.grid, ParticleGrid::new(6, 2));
    for q in 0..12 {
        let p = rows.particle_index(q);
        assert_eq!(p, [6, 7, 8, 9, 10, 11, 24, 25, 26, 27, 28, 29][q]);
        assert_eq!(rows.state.position(q), state.position(p));
        assert_eq!(rows.state.colour(q), state.colour(p));
        assert_eq!(rows.state.particle(q), state.particle(p));
    }
    assert!(ParticleRows::of(&state, &[5]).is_err(), "row 5 of 5");
    assert!(ParticleRows::of(&state, &[]).is_err());
    let all = ParticleRows::all(state.clone());
    assert_eq!((all.rows.len(), all.state.clone()), (5, state));
}

#[test]
fn rows_simulated_alone_follow_the_whole_grid() {
    let grid = ParticleGrid::new(23, 11);
    let max_age = 40;
    for system in ParticleSystem::ALL {
        let start = initial_state(system, grid, max_age).unwrap();
        let whole = run_particle_steps(system, start.clone(), max_age, 0, 130);
        let mut rows = ParticleRows::of(&start, &[0, 5, 10]).unwrap();
        run_particle_rows(system, &mut rows, max_age, 0..130, FountainEmitter::HostTrig).unwrap();
        assert_eq!(rows, ParticleRows::of(&whole, &[0, 5, 10]).unwrap(), "{system:?}");
        // The emitter's path given as measured positions is followed exactly.
        let path: Vec<[f32; 2]> = (0..130).map(|f| host_emitter(fountain_emitter_angle(f))).collect();
        let mut measured = ParticleRows::all(start.clone());
        run_particle_rows(system, &mut measured, max_age, 0..130, FountainEmitter::Measured(&path)).unwrap();
        assert_eq!(measured.state, whole, "{system:?}");
    }
    // A path too short for the frames is refused, not extended.
    let start = initial_state(ParticleSystem::Fountain, grid, max_age).unwrap();
    let path = [[0.0f32, 0.2]; 10];
    let mut rows = ParticleRows::all(start);
    assert!(
        run_particle_rows(
            ParticleSystem::Fountain,
            &mut rows,
            max_age,
            0..11,
            FountainEmitter::Measured(&path)
        )
        .is_err()
    );
}

#[test]
fn the_emitter_probe_reads_the_emitter_and_checks_it_against_the_sine() {
    let probe = emitter_probe_state(600).unwrap();
    assert_eq!(probe.grid, EMITTER_PROBE_GRID);
    assert!((0..4).all(|p| probe.particle(p)[0] == 600.0), "all born in the step");
    for frame in [0, 17, 314, 1000] {
        let angle = fountain_emitter_angle(frame);
        let mut after = probe.clone();
        particle_step(&mut after, 600, ParticleSystem::Fountain.inputs(frame));
        // Particle (1, 1) leaves with no sideways speed: its position is the emitter's.
        assert_eq!(emitter_from_probe(&after), host_emitter(angle), "frame {frame}");
        assert_eq!(emitter_mismatch(host_emitter(angle), angle), None);
        let off = [host_emitter(angle)[0], host_emitter(angle)[1] + 1e-6];
        let said = emitter_mismatch(off, angle).expect("1e-6 is past the fast cosine's error");
        assert!(said.contains("z off") && said.contains("cosine"), "{said}");
    }
    assert!(emitter_probe_state(0).is_err());
}

#[test]
fn the_kernel_table_records_the_notes_block() {
    for system in ParticleSystem::ALL {
        let shape = ptxsuite::launchers::nominal_shape(system.kernel());
        assert_eq!((shape.block, shape.shared_bytes), (Dim3::xy(16, 16), 0), "{system:?}");
        assert_eq!(shape.grid, Dim3::xy(16, 16), "256 x 256 particles in 16 x 16 blocks");
    }
}

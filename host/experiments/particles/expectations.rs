//! What a GPU run of the particle systems must hold after a number of steps:
//! the CPU simulation of the same rows, the fountain's emitter placed as the
//! GPU placed it, computed once per step count and shared by every block
//! shape and implementation that ran that many steps.

use crate::error::Result;
use crate::particle_scene::{ParticleRows, ParticleSystem, TableTop};
use crate::reference::{FountainEmitter, run_particle_rows_on};

/// The simulations of one emitter path: states after some numbers of steps.
struct Path {
    /// The emitter positions (empty for the swarm, which has no emitter).
    emitter: Vec<[f32; 2]>,
    /// (steps, rows after that many steps), in the order computed.
    states: Vec<(u32, ParticleRows)>,
}

/// The CPU simulation of some rows of one scene from its initial state.
pub struct ExpectedRuns {
    system: ParticleSystem,
    /// The table top the fountain bounces on (the disc but for the notes' first kernels).
    table: TableTop,
    max_age: u32,
    start: ParticleRows,
    paths: Vec<Path>,
}

fn same_bits(a: &[[f32; 2]], b: &[[f32; 2]]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x[0].to_bits() == y[0].to_bits() && x[1].to_bits() == y[1].to_bits())
}

impl ExpectedRuns {
    /// Simulations of `start` (the rows a run compares, at frame 0).
    #[cfg(test)]
    pub fn new(system: ParticleSystem, max_age: u32, start: ParticleRows) -> Self {
        Self::on(system, TableTop::Disc, max_age, start)
    }

    /// As [`new`](Self::new), the fountain bouncing on `table`.
    pub fn on(system: ParticleSystem, table: TableTop, max_age: u32, start: ParticleRows) -> Self {
        Self {
            system,
            table,
            max_age,
            start,
            paths: Vec::new(),
        }
    }

    /// The rows before the first step.
    pub fn start(&self) -> &ParticleRows {
        &self.start
    }

    /// The rows after `steps` steps (frames `0..steps`), the fountain's
    /// emitter at `emitter[frame]` (ignored for the swarm). Continues from
    /// the latest state already computed for the same emitter path.
    pub fn after(&mut self, steps: u32, emitter: &[[f32; 2]]) -> Result<&ParticleRows> {
        let emitter = match self.system {
            ParticleSystem::Fountain => emitter,
            ParticleSystem::Swarm => &[],
        };
        let index = match self.paths.iter().position(|p| same_bits(&p.emitter, emitter)) {
            Some(i) => i,
            None => {
                self.paths.push(Path {
                    emitter: emitter.to_vec(),
                    states: Vec::new(),
                });
                self.paths.len() - 1
            }
        };
        let path = &mut self.paths[index];
        if let Some(k) = path.states.iter().position(|(s, _)| *s == steps) {
            return Ok(&path.states[k].1);
        }
        let (from, mut rows) = path
            .states
            .iter()
            .filter(|(s, _)| *s < steps)
            .max_by_key(|(s, _)| *s)
            .map(|(s, rows)| (*s, rows.clone()))
            .unwrap_or_else(|| (0, self.start.clone()));
        let placed = match self.system {
            ParticleSystem::Fountain => FountainEmitter::Measured(&path.emitter),
            ParticleSystem::Swarm => FountainEmitter::HostTrig,
        };
        run_particle_rows_on(self.system, self.table, &mut rows, self.max_age, from..steps, placed)?;
        path.states.push((steps, rows));
        Ok(&path.states.last().expect("just pushed").1)
    }
}

#[cfg(test)]
mod tests {
    use super::ExpectedRuns;
    use crate::particle_scene::fountain_emitter_angle;
    use crate::particle_scene::{ParticleGrid, ParticleRows, ParticleSystem, initial_state};
    use crate::reference::particle_rows_mismatch as first_difference;
    use crate::reference::{host_emitter, run_particle_steps};

    const GRID: ParticleGrid = ParticleGrid::new(12, 9);

    #[test]
    fn expected_rows_follow_the_whole_grid_simulation() {
        for system in ParticleSystem::ALL {
            let start = initial_state(system, GRID, 20).unwrap();
            let rows = [0, 4, 8];
            let mut runs = ExpectedRuns::new(system, 20, ParticleRows::of(&start, &rows).unwrap());
            let emitter: Vec<[f32; 2]> = (0..60).map(|f| host_emitter(fountain_emitter_angle(f))).collect();
            // Out of order, so later counts continue from earlier ones and earlier ones start again.
            for steps in [37, 12, 60, 37] {
                let whole = run_particle_steps(system, start.clone(), 20, 0, steps);
                let expected = ParticleRows::of(&whole, &rows).unwrap();
                let got = runs.after(steps, &emitter).unwrap();
                assert_eq!(first_difference(got, &expected), None, "{system:?} after {steps}");
            }
        }
    }

    #[test]
    fn a_measured_emitter_path_is_followed_and_must_cover_the_frames() {
        let system = ParticleSystem::Fountain;
        let start = initial_state(system, GRID, 5).unwrap();
        let mut runs = ExpectedRuns::new(system, 5, ParticleRows::all(start.clone()));
        let host: Vec<[f32; 2]> = (0..30).map(|f| host_emitter(fountain_emitter_angle(f))).collect();
        let shifted: Vec<[f32; 2]> = host.iter().map(|e| [e[0] + 0.5, e[1]]).collect();
        let on_host = runs.after(30, &host).unwrap().clone();
        let moved = runs.after(30, &shifted).unwrap().clone();
        let difference = first_difference(&moved, &on_host).expect("another emitter, other positions");
        assert!(difference.contains("position component 0"), "{difference}");
        assert!(runs.after(31, &host).is_err(), "frame 30 has no emitter position");
        // The swarm has no emitter: any path gives the host simulation.
        let swarm = initial_state(ParticleSystem::Swarm, GRID, 5).unwrap();
        let mut runs = ExpectedRuns::new(ParticleSystem::Swarm, 5, ParticleRows::all(swarm.clone()));
        let expected = ParticleRows::all(run_particle_steps(ParticleSystem::Swarm, swarm, 5, 0, 30));
        assert_eq!(first_difference(runs.after(30, &[]).unwrap(), &expected), None);
    }

    #[test]
    fn differences_name_the_particle_and_the_buffer() {
        let start = initial_state(ParticleSystem::Swarm, GRID, 20).unwrap();
        let rows = ParticleRows::of(&start, &[2, 7]).unwrap();
        assert_eq!(first_difference(&rows, &rows), None);
        let mut colour = rows.clone();
        let n = colour.state.grid.particles();
        colour.state.vertices[4 * (n + 13) + 1] += 1.0; // local particle 13: row 7, column 1
        let said = first_difference(&colour, &rows).unwrap();
        assert!(said.contains("particle 85 (row 7), colour component 1"), "{said}");
        let mut state = rows.clone();
        state.state.state[4 * 3 + 2] = f32::NAN;
        let said = first_difference(&state, &rows).unwrap();
        assert!(
            said.contains("particle 27 (row 2), age and velocity component 2"),
            "{said}"
        );
        let other_rows = ParticleRows::of(&start, &[2, 6]).unwrap();
        assert!(first_difference(&other_rows, &rows).unwrap().contains("were expected"));
    }
}

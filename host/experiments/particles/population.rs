//! One scene at one population, on the GPU and on the CPU: the buffers the
//! kernels step, the rows a check reads back, and the CPU simulation of
//! those rows; and the fountain's emitter paths, as each implementation's
//! kernel places the emitter.

use std::ops::Range;

use super::expectations::ExpectedRuns;
use crate::error::Result;
use crate::launchers::{ParticleBuffers, ParticleRunner, emitter_mismatch};
use crate::particle_scene::{
    ParticleGrid, ParticleRows, ParticleSystem, TableTop, fountain_emitter_angle, initial_state, sample_rows,
};
use crate::reference::particle_rows_mismatch;
use crate::testbed::Implementation;

/// The series variant naming a population: `256x256`.
pub fn population_variant(grid: ParticleGrid) -> String {
    format!("{}x{}", grid.width, grid.height)
}

/// A scene at one population on one runner, ready to run.
pub struct Population<'r> {
    pub system: ParticleSystem,
    pub buffers: Box<dyn ParticleBuffers + 'r>,
    /// The rows every check reads back and simulates.
    pub rows: Vec<u32>,
    pub expected: ExpectedRuns,
    pub max_age: u32,
}

impl<'r> Population<'r> {
    /// The scene's initial state for `grid`, uploaded by `runner`; checks compare
    /// `checked_rows` rows spread over the grid (every row when it has no more).
    pub fn new(
        runner: &'r dyn ParticleRunner,
        system: ParticleSystem,
        grid: ParticleGrid,
        max_age: u32,
        checked_rows: u32,
    ) -> Result<Self> {
        Self::on(runner, system, TableTop::Disc, grid, max_age, checked_rows)
    }

    /// As [`new`](Self::new), checked against a fountain bouncing on `table`.
    pub fn on(
        runner: &'r dyn ParticleRunner,
        system: ParticleSystem,
        table: TableTop,
        grid: ParticleGrid,
        max_age: u32,
        checked_rows: u32,
    ) -> Result<Self> {
        let start = initial_state(system, grid, max_age)?;
        let buffers = runner.population(&start)?;
        let rows = sample_rows(grid.height, checked_rows);
        let first = if rows.len() == grid.height as usize {
            ParticleRows::all(start)
        } else {
            ParticleRows::of(&start, &rows)?
        };
        Ok(Self {
            system,
            buffers,
            rows,
            expected: ExpectedRuns::on(system, table, max_age, first),
            max_age,
        })
    }

    pub fn grid(&self) -> ParticleGrid {
        self.buffers.grid()
    }

    /// Reads the checked rows back and compares them with the CPU simulation
    /// after `steps` steps from the initial state: `None` when they match bit
    /// for bit, else what differs (or why the fountain's emitter could not be trusted).
    pub fn check(&mut self, steps: u32, emitter: std::result::Result<&[[f32; 2]], &str>) -> Result<Option<String>> {
        let got = self.buffers.read_rows(&self.rows)?;
        self.compare(&got, steps, emitter)
    }

    /// Compares rows read back elsewhere (the interop loop's buffer) the same way.
    pub fn compare(
        &mut self,
        got: &ParticleRows,
        steps: u32,
        emitter: std::result::Result<&[[f32; 2]], &str>,
    ) -> Result<Option<String>> {
        let emitter = match (self.system, emitter) {
            (ParticleSystem::Fountain, Err(why)) => return Ok(Some(why.to_string())),
            (ParticleSystem::Fountain, Ok(path)) => path,
            (ParticleSystem::Swarm, _) => &[],
        };
        let expected = self.expected.after(steps, emitter)?;
        Ok(particle_rows_mismatch(got, expected).map(|d| format!("after {steps} steps: {d}")))
    }
}

/// Each implementation's emitter path: where its fountain kernel placed the
/// emitter in frames `0..frames`, or why that path cannot be trusted (a
/// position outside the fast sine's error).
pub struct EmitterPaths {
    paths: Vec<(Implementation, EmitterPath)>,
}

/// One implementation's emitter positions by frame, or why they cannot be trusted.
type EmitterPath = std::result::Result<Vec<[f32; 2]>, String>;

impl EmitterPaths {
    /// Probes every implementation of every runner for `frames`.
    pub fn probe(runners: &[Box<dyn ParticleRunner + '_>], max_age: u32, frames: Range<u32>) -> Result<Self> {
        let mut paths = Vec::new();
        let lanes = runners
            .iter()
            .flat_map(|runner| runner.implementations().iter().map(move |&i| (runner, i)));
        for (runner, implementation) in lanes {
            let positions = runner.emitter_positions(implementation, max_age, frames.clone())?;
            let trusted = positions
                .iter()
                .zip(frames.clone())
                .find_map(|(&p, frame)| emitter_mismatch(p, fountain_emitter_angle(frame)))
                .map_or(Ok(positions), Err);
            paths.push((implementation, trusted));
        }
        Ok(Self { paths })
    }

    /// The path of `implementation`, or why there is none.
    pub fn of(&self, implementation: Implementation) -> std::result::Result<&[[f32; 2]], &str> {
        match self.paths.iter().find(|(i, _)| *i == implementation) {
            Some((_, Ok(path))) => Ok(path),
            Some((_, Err(why))) => Err(why),
            None => Err("the emitter was not probed for this implementation"),
        }
    }

    /// Whether every probed path was within the fast sine's error, and the
    /// paths of all implementations were the same bit for bit.
    pub fn summary(&self) -> String {
        let trusted: Vec<&Vec<[f32; 2]>> = self.paths.iter().filter_map(|(_, p)| p.as_ref().ok()).collect();
        let frames = trusted.first().map_or(0, |p| p.len());
        let same = trusted.windows(2).all(|w| {
            w[0].iter()
                .zip(w[1])
                .all(|(a, b)| a[0].to_bits() == b[0].to_bits() && a[1].to_bits() == b[1].to_bits())
        });
        format!(
            "the fountain's emitter probed for frames 0..{frames} ({} of {} implementations within the fast \
             sine's and cosine's error{})",
            trusted.len(),
            self.paths.len(),
            if trusted.len() > 1 && same {
                ", the same bits in each"
            } else {
                ""
            }
        )
    }
}

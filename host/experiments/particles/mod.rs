//! The lecture notes' particle systems (seed document 004): their
//! block-shape table redone as update rates on the notes' 256 × 256
//! particles and on a population that fills the GPU, a long run checked at
//! checkpoints against the CPU simulation, pictures of both systems, and the
//! notes' CUDA–OpenGL frame loop where EGL is available.
//!
//! Every figure comes with its check: each point's particles (every one at
//! 256 × 256, [`SAMPLED_ROWS`] rows of the large population) are compared bit
//! for bit with the CPU simulation of as many steps, the fountain's emitter
//! placed where the GPU's fast sine put it ([`EmitterPaths`], itself checked
//! against the sine's documented error).

mod block_shapes;
mod checkpoint_run;
mod claims;
mod expectations;
mod fountain_tuning;
mod graph_point;
mod gravity_swarm;
mod interop_frames;
mod population;
mod shape_plot;
mod step_limits;
mod tables;
mod tuning;
mod tuning_claims;
mod tuning_tables;

use super::{Experiment, RunContext};
use crate::error::{Error, Result};
use crate::launchers::{ParticleRunner, particle_runners, population_bytes};
use crate::particle_scene::{
    NOTES_BLOCK_SHAPE_FPS, NOTES_GRID, NOTES_MAX_AGE, PARTICLE_BYTES_PER_STEP, ParticleGrid, ParticleSystem,
};
use crate::report::{
    Axis, ExperimentResult, LedgerRow, Metric, PlotKind, PlotSpec, Point, PointKey, Report, SectionHooks, Waiver, Work,
};
use crate::stats::Summary;
use block_shapes::{VERIFY_MAX_STEPS, measure_block_shapes, steps_per_point};
use checkpoint_run::{CheckpointPlan, checkpoint_run};
use interop_frames::measure_interop;
use population::{EmitterPaths, Population, population_variant};
pub use tuning::ParticleTuning;

pub struct Particles;

/// The population that fills the GPU: 16.7 million particles, 1.34 GB read
/// and written per step (many times any L2), 65 536 blocks of 16 × 16.
pub const LARGE_GRID: ParticleGrid = ParticleGrid::new(4096, 4096);
/// Rows of the large population each check reads back and simulates (65 536 particles).
pub const SAMPLED_ROWS: u32 = 16;
/// The headline figure: particle updates per second.
pub fn update_rate() -> Metric {
    Metric::custom("particle update rate", "G updates/s", true)
}

/// How the bytes behind the GB/s figures are counted.
pub const BYTE_COUNTING: &str = "80 bytes per particle per step (PARTICLE_BYTES_PER_STEP): 32 read (position, \
    state) and 48 written (state, colour, position), each float4 once; G updates/s = particles per step / time \
    per step / 1e9; GB = 1e9 bytes";

/// The point key of the notes' table's row `index` (0-based): its row number, 1 to 12.
pub fn shape_key(index: usize) -> PointKey {
    PointKey::Value(index as i64 + 1)
}

/// The block shape of a point key of the block-shape table.
pub fn shape_of(key: PointKey) -> Option<(u32, u32)> {
    let row = usize::try_from(key.value()?.checked_sub(1)?).ok()?;
    NOTES_BLOCK_SHAPE_FPS.get(row).map(|&(shape, _)| shape)
}

/// The point key of the interop frames: the row of the notes' 16 × 16 blocks.
pub fn interop_key() -> PointKey {
    let row = NOTES_BLOCK_SHAPE_FPS
        .iter()
        .position(|&(shape, _)| shape == checkpoint_run::RUN_BLOCK)
        .expect("16 x 16 is in the notes' table");
    shape_key(row)
}

/// A point of timed steps over `grid`: G updates/s per sample, the time per
/// step, the effective GB/s; a `failure` withholds the figures.
pub fn step_point(at: PointKey, grid: ParticleGrid, times_ms: &[f64], failure: Option<String>) -> Option<Point> {
    let particles = grid.particles() as u64;
    let bytes = particles * PARTICLE_BYTES_PER_STEP;
    let rates: Vec<f64> = times_ms.iter().map(|ms| particles as f64 / (ms / 1e3) / 1e9).collect();
    let mut point = Point::measured(at, &rates, Work::bytes(particles, bytes), failure)?;
    point.time_ms = Summary::of(times_ms);
    if let Some(t) = point.time_ms {
        point.set_extra("GB/s", bytes as f64 / 1e9 / (t.median / 1e3));
    }
    Some(point)
}

/// The populations of the block-shape table: the notes' and [`LARGE_GRID`].
pub const POPULATIONS: [ParticleGrid; 2] = [NOTES_GRID, LARGE_GRID];

impl Experiment for Particles {
    fn name(&self) -> &'static str {
        "particles"
    }
    fn title(&self) -> &'static str {
        "Particle systems: the lecture notes' fountain and swarm"
    }
    fn source(&self) -> &'static str {
        "the lecture notes on the CUDA SDK's OpenGL interop particle samples: the fountain and swarm kernels, the \
         block-shape frame-rate table, the map / kernel / unmap / draw loop"
    }
    fn points(&self) -> u64 {
        // Per system: 12 shapes at each population, the checkpoint run, the interop frames.
        (ParticleSystem::ALL.len() * (POPULATIONS.len() * NOTES_BLOCK_SHAPE_FPS.len() + 2)) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines(
            "block shape (row of the notes' table), or steps for the checkpoint run",
            update_rate(),
        )
        .plot(PlotKind::None);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        let (runners, waived) = particle_runners(ctx.device)?;
        result.waive(waived);
        let max_age = NOTES_MAX_AGE;
        let plan = CheckpointPlan::new(ctx.settings);
        let table_steps = steps_per_point(ctx.settings.samples, ctx.settings.reps).min(VERIFY_MAX_STEPS);
        let frames = table_steps
            .max(plan.total_steps())
            .max(interop_frames::WARM_UP_FRAMES + interop_frames::TIMED_FRAMES);
        ctx.progress.set_message("particles: probing the fountain's emitter");
        let emitters = EmitterPaths::probe(&runners, max_age, 0..frames)?;
        let mut count = (0usize, self.points() as usize);
        'systems: for system in ParticleSystem::ALL {
            for grid in POPULATIONS {
                for runner in &runners {
                    let population = (system, grid);
                    if !measure_population(ctx, &mut result, population, runner.as_ref(), &emitters, &mut count)? {
                        break 'systems;
                    }
                }
            }
        }
        result.setup.push(format!(
            "{} steps in a lifetime; block-shape points on {} (every particle checked) and {} ({SAMPLED_ROWS} rows \
             of {} checked); a point runs up to {table_steps} steps from the initial state (longer ones are checked \
             by a separate run of {VERIFY_MAX_STEPS}); the checkpoint run: {} segments of {} steps with {}×{} blocks",
            max_age,
            population_variant(NOTES_GRID),
            population_variant(LARGE_GRID),
            LARGE_GRID.height,
            plan.checkpoints,
            plan.segment_steps,
            checkpoint_run::RUN_BLOCK.0,
            checkpoint_run::RUN_BLOCK.1
        ));
        result.notes.push(format!(
            "checked bit for bit against the CPU simulation of the same steps; {}",
            emitters.summary()
        ));
        Ok(result)
    }
}

/// One system at one population on `runner`: its block shapes, then (on the
/// notes' grid) the checkpoint run and the interop frames; a population that
/// does not fit is waived. `count` is (points done, points planned); `false` means stop
/// (Ctrl-C).
fn measure_population(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    (system, grid): (ParticleSystem, ParticleGrid),
    runner: &dyn ParticleRunner,
    emitters: &EmitterPaths,
    (done, planned): &mut (usize, usize),
) -> Result<bool> {
    let planned = *planned;
    let checked_rows = if grid == NOTES_GRID { grid.height } else { SAMPLED_ROWS };
    let mut population = match Population::new(runner, system, grid, NOTES_MAX_AGE, checked_rows) {
        Ok(population) => population,
        Err(e @ Error::OutOfDeviceMemory { .. }) => {
            result.waived.push(Waiver {
                what: format!("{} at {}", system.label(), population_variant(grid)),
                reason: format!("{e} ({} MB needed)", population_bytes(grid) / 1_000_000),
            });
            *done += NOTES_BLOCK_SHAPE_FPS.len();
            ctx.progress.inc(NOTES_BLOCK_SHAPE_FPS.len() as u64);
            return Ok(true);
        }
        Err(e) => return Err(e),
    };
    let finished = measure_block_shapes(ctx, result, (runner, &mut population), emitters, (&mut *done, planned))?;
    if !finished {
        return Ok(false);
    }
    if grid != NOTES_GRID {
        return Ok(true);
    }
    if ctx.stop_before(*done, planned) {
        return Ok(false);
    }
    let still = checkpoint_run(ctx, result, (runner, &mut population), emitters)?;
    *done += 1;
    ctx.progress.inc(1);
    if ctx.stop_before(*done, planned) {
        return Ok(false);
    }
    let interop = measure_interop(ctx, result, (runner, &mut population), emitters, still.as_ref());
    match interop {
        Ok(()) => {}
        // OpenGL or the CUDA-GL hand-over broke: the interop point fails, the rest stands.
        Err(e @ (Error::Library(_) | Error::Driver { .. } | Error::InvalidInput(_))) => {
            interop_frames::record_broken(ctx, result, system, &e);
        }
        Err(e) => return Err(e),
    }
    *done += 1;
    ctx.progress.inc(1);
    Ok(true)
}

impl SectionHooks for Particles {
    fn narrative(&self, result: &ExperimentResult, report: &Report) -> Vec<String> {
        tables::narrative(result, report)
    }

    fn tables(&self, result: &ExperimentResult, report: &Report) -> Option<String> {
        Some(tables::tables(result, report))
    }

    fn extra_plots(&self, result: &ExperimentResult, _report: &Report) -> Vec<PlotSpec> {
        shape_plot::block_shape_plot(result).into_iter().collect()
    }

    fn claims(&self) -> Vec<crate::report::Claim> {
        claims::claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        claims::ledger(result)
    }
}

#[cfg(test)]
mod tests {
    use super::{interop_key, shape_key, shape_of};
    use crate::report::PointKey;

    #[test]
    fn block_shape_keys_are_the_notes_rows() {
        assert_eq!(shape_key(0), PointKey::Value(1));
        assert_eq!(shape_of(shape_key(0)), Some((256, 1)));
        assert_eq!(shape_of(PointKey::Value(12)), Some((1, 1)));
        assert_eq!(shape_of(PointKey::Value(0)), None);
        assert_eq!(shape_of(PointKey::Value(13)), None);
        assert_eq!(shape_of(interop_key()), Some((16, 16)));
    }
}

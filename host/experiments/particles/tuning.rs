//! The second half of the lecture notes on the particle samples, measured
//! without OpenGL: the steps by which they tuned the fountain (a `float *`
//! state read one float at a time → float4 state → one read into registers
//! without `fabs` → the state staged in a shared-memory tile, with and
//! without `__syncthreads`), their second block-shape table (naive against
//! optimised), and their all-pairs "gravity" swarm beside a tiled version.
//!
//! Every fountain point runs on the notes' 256 × 256 particles, timed as
//! CUDA-graph replays (a step lasts a few microseconds, less than a host
//! launch) and checked bit for bit against the CPU simulation of the same
//! steps; the all-pairs points are checked after two steps. The notes'
//! "sparkler" is the swarm with the pull's sign flipped, the same cost: not
//! measured separately.

use super::fountain_tuning::{TUNING_BLOCK, measure_tuning, tuning_points};
use super::gravity_swarm::{GRAVITY_BLOCK, measure_gravity};
use super::population::{EmitterPaths, population_variant};
use super::{BYTE_COUNTING, tuning_claims, update_rate};
use crate::error::Result;
use crate::experiments::{Experiment, RunContext};
use crate::launchers::particle_runners;
use crate::particle_scene::{GRAVITY_GRID, NOTES_GRID, NOTES_MAX_AGE};
use crate::report::{Axis, Claim, ExperimentResult, LedgerRow, PlotKind, Report, SectionHooks};

pub struct ParticleTuning;

impl Experiment for ParticleTuning {
    fn name(&self) -> &'static str {
        "particle-tuning"
    }
    fn title(&self) -> &'static str {
        "Particle kernels tuned: the lecture notes' float4 state, registers, shared tiles and the all-pairs swarm"
    }
    fn source(&self) -> &'static str {
        "the lecture notes on the CUDA SDK particle samples, second half: the naive fountain and its tuning \
         (730 → 1530 fps), the second block-shape table, the all-pairs \"gravity\" swarm"
    }
    fn points(&self) -> u64 {
        (tuning_points() + 2) as u64
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
        let axis = Axis::lines("block shape (row of the notes' second table)", update_rate()).plot(PlotKind::None);
        let mut result = ctx.result(self, axis, BYTE_COUNTING);
        let (runners, waived) = particle_runners(ctx.device)?;
        result.waive(waived);
        ctx.progress
            .set_message("particle-tuning: probing the fountain's emitter");
        let frames = 0..super::block_shapes::GRAPH_STEPS;
        let emitters = EmitterPaths::probe(&runners, NOTES_MAX_AGE, frames)?;
        let planned = self.points() as usize;
        let mut done = 0usize;
        for runner in &runners {
            let finished = measure_tuning(ctx, &mut result, runner.as_ref(), &emitters, (&mut done, planned))?;
            if !finished || ctx.stop_before(done, planned) {
                break;
            }
            measure_gravity(ctx, &mut result, runner.as_ref())?;
        }
        result.setup.push(format!(
            "fountain: {} particles, {NOTES_MAX_AGE} steps in a lifetime, every version at {}×{} blocks, the naive \
             and optimised ones at every shape of the notes' second table; each point a CUDA graph of {} steps \
             replayed, checked bit for bit after one replay; all-pairs swarm: {} particles in {}×{} blocks, \
             launched from the host, checked after {} steps",
            population_variant(NOTES_GRID),
            TUNING_BLOCK.0,
            TUNING_BLOCK.1,
            super::block_shapes::GRAPH_STEPS,
            population_variant(GRAVITY_GRID),
            GRAVITY_BLOCK.0,
            GRAVITY_BLOCK.1,
            super::gravity_swarm::CHECK_STEPS,
        ));
        result.notes.push(format!(
            "checked bit for bit against the CPU simulation; {}; the notes' \"sparkler\" (the swarm pushed \
             outwards) costs what the swarm costs and is not measured separately",
            emitters.summary()
        ));
        Ok(result)
    }
}

impl SectionHooks for ParticleTuning {
    fn tables(&self, result: &ExperimentResult, _report: &Report) -> Option<String> {
        Some(super::tuning_tables::tables(result))
    }

    fn claims(&self) -> Vec<Claim> {
        tuning_claims::claims()
    }

    fn ledger(&self, result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        tuning_claims::ledger(result)
    }
}

//! One launch-bound point timed as replays of a CUDA graph, the protocol of
//! the block-shape table's 256 × 256 points ([`super::block_shapes`]): the
//! population back to its initial state, [`GRAPH_STEPS`] steps captured,
//! one replay checked against the CPU simulation of as many steps, then a
//! probe replay paces `samples × reps` replays between events. A step of the
//! notes' population lasts a few microseconds, shorter than a launch from
//! the host: the graph keeps the launch out of the figure.

use super::block_shapes::GRAPH_STEPS;
use super::population::Population;
use crate::error::Result;
use crate::launchers::ParticleRunner;
use crate::report::{Point, PointKey};
use crate::run_settings::RunSettings;
use crate::timing::{SampleTimer, paced, probe_ms, time_per_launch};

/// Times the steps `step(population, frame)` enqueues on `population` as
/// replays of `runner`'s capture of them (`timer`: its clock), checked bit for bit against the CPU simulation (the
/// fountain's emitter as the GPU placed it, `emitter`): a point at `at`
/// whose samples are per-step times, or `None` when there is nothing to show.
pub fn graph_point(
    (runner, timer): (&dyn ParticleRunner, &mut dyn SampleTimer),
    settings: &RunSettings,
    at: PointKey,
    population: &mut Population,
    emitter: std::result::Result<&[[f32; 2]], &str>,
    step: &mut dyn FnMut(&mut Population, u32) -> Result<()>,
) -> Result<Option<Point>> {
    population.buffers.reset()?;
    let graph = runner.capture(GRAPH_STEPS, &mut |frame| step(population, frame))?;
    graph.replay()?;
    let failure = population.check(GRAPH_STEPS, emitter)?;
    let one = probe_ms(timer, &mut || graph.replay())?;
    let per_graph = time_per_launch(timer, &paced(settings, one), &mut || graph.replay())?;
    let per_step: Vec<f64> = per_graph.iter().map(|ms| ms / graph.steps() as f64).collect();
    Ok(super::step_point(at, population.grid(), &per_step, failure))
}

//! The notes' block-shape table redone: every shape of their table, on a
//! population, timed with the suite's protocol and checked against the CPU
//! simulation.
//!
//! Per point: the population back to its initial state (a device copy),
//! [`PROBES`] one-step probes, the shortest telling how long a step takes
//! ([`paced`]) and whether it is launch-bound, the warm-up step and
//! `samples × reps` steps between events ([`time_per_launch`]), frames
//! counted on from 0; then the checked rows read back and compared, bit for
//! bit, with the CPU simulation of as many steps. A point that took more
//! than [`VERIFY_MAX_STEPS`] steps is checked by a second run of that many
//! steps with the same kernel and block shape.
//!
//! A population of at most [`GRAPH_MAX_PARTICLES`] (the notes' 256 × 256
//! one, whose steps last a few microseconds, under [`GRAPH_BELOW_MS`]) is
//! launch-bound from the host: its figures come from replays of a CUDA graph
//! of [`GRAPH_STEPS`] steps instead (after one replay
//! from the initial state is checked bit for bit), and the host-launched
//! figure is kept beside it ([`STREAM_RATE`]): the difference is the launch
//! overhead.

use kernels_gpu::device::Dim3;

use super::population::{EmitterPaths, Population, population_variant};
use super::{RunContext, shape_key, step_point};
use crate::error::Result;
use crate::launchers::ParticleRunner;
use crate::particle_scene::NOTES_BLOCK_SHAPE_FPS;
use crate::report::{ExperimentResult, Series};
use crate::timing::{paced, probe_ms, time_per_launch};

/// The most steps whose result a point compares directly; longer runs are
/// checked by a separate run of this many steps.
pub const VERIFY_MAX_STEPS: u32 = 2048;

/// A step shorter than this (ms) is launch-bound when launched from the
/// host one at a time, so that the host's launch rate, not the GPU, would set
/// the figure: a point of any population whose probe is this short is
/// graph-timed too (a slow spell of the host only lengthens a probe, so this
/// adds points, never takes the small population's away).
pub const GRAPH_BELOW_MS: f64 = 0.02;

/// Populations of at most this many particles are timed as replays of a
/// CUDA graph of [`GRAPH_STEPS`] steps at every block shape: the notes'
/// 256 × 256 one, whose steps last 2–42 µs on an H100 (under
/// [`GRAPH_BELOW_MS`] at every shape but 1 × 1). Decided by the population,
/// not by a timed probe: probes hit by a slow spell of host launches (the
/// launches of a whole point running 3–7x slower, probes included) made a
/// point host-timed at random, 7x below its graph-timed neighbours, and
/// flipped a ledger row between runs. A graph replay is the GPU's own time
/// whatever a step lasts, so timing a long step this way costs only time.
pub const GRAPH_MAX_PARTICLES: u64 = 256 * 256;

/// Whether a population of `particles` is timed by graph replays.
pub fn graph_timed(particles: u64) -> bool {
    particles <= GRAPH_MAX_PARTICLES
}

/// Steps one captured graph holds (frames 0 to this, checked bit for bit after one replay).
pub const GRAPH_STEPS: u32 = 256;

/// One-step probes per point, the shortest deciding whether the point is launch-bound.
const PROBES: u32 = 5;

/// The extra figure: the same point launched one step at a time from the host.
pub const STREAM_RATE: &str = "G updates/s, one launch a step";

/// Steps `time_per_launch` and the probes before it take with `settings`,
/// at most: two for each of the [`PROBES`], the warm-up, `samples × reps`.
pub fn steps_per_point(samples: u32, reps: u32) -> u32 {
    (2 * PROBES + 1).saturating_add(samples.saturating_mul(reps.max(1)))
}

/// Measures every block shape of the notes' table on `population` for every
/// implementation of `runner`, adding one series per implementation.
/// Returns `false` when stopped (Ctrl-C) before the last shape.
pub fn measure_block_shapes(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    (runner, population): (&dyn ParticleRunner, &mut Population),
    emitters: &EmitterPaths,
    (done, planned): (&mut usize, usize),
) -> Result<bool> {
    let implementations = runner.implementations();
    let grid = population.grid();
    let system = population.system;
    let kernel = system.kernel();
    let variant = population_variant(grid);
    let mut series: Vec<Series> = implementations
        .iter()
        .map(|&implementation| {
            Series::new(
                ctx.key(kernel, implementation, "f32x4").variant(&variant),
                format!("{kernel} · {}, {}×{}", implementation.label(), grid.width, grid.height),
            )
        })
        .collect();
    let mut clock = runner.clock()?;
    let timer = clock.as_mut();
    let mut finished = true;
    for (row, ((bx, by), _)) in NOTES_BLOCK_SHAPE_FPS.into_iter().enumerate() {
        if ctx.stop_before(*done, planned) {
            finished = false;
            break;
        }
        ctx.progress
            .set_message(format!("particles: {} {variant}, {bx}x{by} blocks", system.label()));
        let block = Dim3::xy(bx, by);
        for (&implementation, series) in implementations.iter().zip(&mut series) {
            population.buffers.reset()?;
            let mut frame = 0u32;
            let max_age = population.max_age;
            let buffers = &mut population.buffers;
            let mut step = || -> Result<()> {
                buffers.step(implementation, block, max_age, system.inputs(frame))?;
                frame += 1;
                Ok(())
            };
            // The shortest of a few one-step probes paces the samples.
            let mut one = f64::INFINITY;
            for _ in 0..PROBES {
                one = one.min(probe_ms(timer, &mut step)?);
            }
            let times = time_per_launch(timer, &paced(ctx.settings, one), &mut step)?;
            let mut steps = frame;
            if graph_timed(grid.width as u64 * grid.height as u64) || one < GRAPH_BELOW_MS {
                // Launch-bound: the figure comes from graph replays; the host-launched one is kept beside it.
                population.buffers.reset()?;
                let buffers = &mut population.buffers;
                let graph = runner.capture(GRAPH_STEPS, &mut |frame| {
                    buffers.step(implementation, block, max_age, system.inputs(frame))
                })?;
                graph.replay()?;
                let failure = population.check(GRAPH_STEPS, emitters.of(implementation))?;
                let per_graph = time_per_launch(timer, &paced(ctx.settings, one * GRAPH_STEPS as f64), &mut || {
                    graph.replay()
                })?;
                let per_step: Vec<f64> = per_graph.iter().map(|ms| ms / graph.steps() as f64).collect();
                let stream_rate = step_point(shape_key(row), grid, &times, None).and_then(|p| p.median());
                let mut point = step_point(shape_key(row), grid, &per_step, failure);
                if let (Some(point), Some(rate)) = (point.as_mut(), stream_rate) {
                    point.set_extra(STREAM_RATE, rate);
                }
                series.points.extend(point);
                continue;
            }
            if steps > VERIFY_MAX_STEPS {
                population.buffers.reset()?;
                for frame in 0..VERIFY_MAX_STEPS {
                    population
                        .buffers
                        .step(implementation, block, max_age, system.inputs(frame))?;
                }
                steps = VERIFY_MAX_STEPS;
            }
            let failure = population.check(steps, emitters.of(implementation))?;
            series.points.extend(step_point(shape_key(row), grid, &times, failure));
        }
        *done += 1;
        ctx.progress.inc(1);
    }
    result.series.extend(series);
    Ok(finished)
}

#[cfg(test)]
mod tests {
    use super::steps_per_point;

    #[test]
    fn the_notes_small_population_is_graph_timed_and_the_large_one_is_not() {
        assert!(super::graph_timed(256 * 256));
        assert!(!super::graph_timed(4096 * 4096));
    }

    #[test]
    fn a_point_takes_the_probe_the_warm_up_and_the_samples() {
        assert_eq!(steps_per_point(11, 20), 231);
        assert_eq!(steps_per_point(1, 0), 12, "at least one launch per sample");
        assert_eq!(steps_per_point(u32::MAX, u32::MAX), u32::MAX);
    }
}

//! The notes' all-pairs "gravity" swarm, measured: their unoptimised kernel
//! and a shared-memory tiled one on [`GRAVITY_GRID`] particles in 16 × 16
//! blocks. Positions ping-pong between two vertex buffers (step `k` reads
//! the one step `k − 1` wrote). A step lasts far longer than a launch, so
//! steps are launched from the host between events; each point is checked
//! after [`CHECK_STEPS`] steps from the start against the CPU simulation.

use kernels_gpu::device::Dim3;

use super::super::calibrated_launches::timed_launches;
use super::fountain_tuning::tuning_key_of;
use super::population::population_variant;
use crate::error::Result;
use crate::experiments::RunContext;
use crate::launchers::{GravityBuffers, ParticleRunner};
use crate::particle_scene::{GRAVITY_GRID, ParticleRows, ParticleState, gravity_initial_state, gravity_kernel};
use crate::reference::{gravity_step as reference_step, particle_rows_mismatch};
use crate::report::{ExperimentResult, Series};
use crate::testbed::Implementation;

/// The block shape: the notes' 16 × 16.
pub const GRAVITY_BLOCK: (u32, u32) = (16, 16);
/// Steps a check runs from the start: both directions of the ping-pong.
pub const CHECK_STEPS: u32 = 2;
/// The extra figure: pairs of particles visited per second.
pub const PULL_RATE: &str = "G pulls/s";

/// Step `k` of `implementation`'s kernel (`tiled` or not) in [`GRAVITY_BLOCK`] blocks.
fn step(buffers: &mut dyn GravityBuffers, implementation: Implementation, tiled: bool, k: u32) -> Result<()> {
    let block = Dim3::xy(GRAVITY_BLOCK.0, GRAVITY_BLOCK.1);
    buffers.step(implementation, tiled, block, k)
}

/// After [`CHECK_STEPS`] steps from the start (`start`, the state the buffers
/// were made with): what differs from the CPU simulation, if anything.
fn check(
    buffers: &mut dyn GravityBuffers,
    start: &ParticleState,
    implementation: Implementation,
    tiled: bool,
) -> Result<Option<String>> {
    buffers.reset()?;
    for k in 0..CHECK_STEPS {
        step(buffers, implementation, tiled, k)?;
    }
    let got = buffers.read_after(CHECK_STEPS)?;
    let mut expected = start.clone();
    (0..CHECK_STEPS).for_each(|_| reference_step(&mut expected));
    let differs = particle_rows_mismatch(&ParticleRows::all(got), &ParticleRows::all(expected));
    Ok(differs.map(|d| format!("after {CHECK_STEPS} steps: {d}")))
}

/// Measures both kernels for every implementation of `runner`, one series each.
pub fn measure_gravity(ctx: &RunContext<'_>, result: &mut ExperimentResult, runner: &dyn ParticleRunner) -> Result<()> {
    let start = gravity_initial_state(GRAVITY_GRID);
    let mut buffers = runner.gravity(&start)?;
    let mut timer = runner.clock()?;
    let at = tuning_key_of(GRAVITY_BLOCK).expect("16 x 16 is in the table");
    let n = GRAVITY_GRID.particles() as f64;
    for tiled in [false, true] {
        ctx.progress
            .set_message(format!("particle-tuning: {}", gravity_kernel(tiled)));
        for &implementation in runner.implementations() {
            let failure = check(buffers.as_mut(), &start, implementation, tiled)?;
            let mut k = CHECK_STEPS;
            let mut next = || {
                k += 1;
                step(buffers.as_mut(), implementation, tiled, k)
            };
            let times = timed_launches(timer.as_mut(), ctx.settings, &mut next)?;
            let key = ctx.key(gravity_kernel(tiled), implementation, "f32x4");
            let variant = population_variant(GRAVITY_GRID);
            let title = format!("{} · {}, {variant}", gravity_kernel(tiled), implementation.label());
            let mut series = Series::new(key.variant(&variant), title);
            let mut point = super::step_point(at, GRAVITY_GRID, &times, failure);
            if let Some(p) = point.as_mut()
                && let Some(ms) = p.median_ms()
            {
                p.set_extra(PULL_RATE, n * n / (ms / 1e3) / 1e9);
            }
            series.points.extend(point);
            result.series.push(series);
        }
        ctx.progress.inc(1);
    }
    Ok(())
}

//! A run of the notes' scene over a few lifetimes with their 16 × 16 blocks,
//! compared bit for bit with the CPU simulation at checkpoints, and the
//! pictures made from it: a still at the last checkpoint and a short
//! animation after it, drawn by the software rasterizer from the state read
//! back from the GPU.
//!
//! Each segment between checkpoints is one [`time_per_launch`] (the warm-up
//! step and `samples × reps` steps between events), frames counted on
//! across segments, so a checkpoint's point is that segment's update rate.

use kernels_gpu::device::Dim3;

use super::population::{EmitterPaths, Population};
use super::{RunContext, step_point};
use crate::error::Result;
use crate::launchers::ParticleRunner;
use crate::particle_scene::ParticleState;
use crate::picture::{encode_apng, encode_png, render_particles};
use crate::report::{ExperimentResult, Point, PointKey, Series, Status};
use crate::run_settings::RunSettings;
use crate::timing::time_per_launch;

/// The run covers at least this many steps: two of the notes' lifetimes,
/// so every particle has been born at least once.
pub const RUN_STEPS: u32 = 1200;
/// The longest segment between two checkpoints.
pub const SEGMENT_MAX_STEPS: u32 = 300;
/// The series variant of the checkpoint run.
pub const CHECKPOINTS: &str = "checkpoints";
/// The animation: frames, steps between them, size and how long each shows.
pub const ANIMATION_FRAMES: u32 = 36;
pub const ANIMATION_STEPS_PER_FRAME: u32 = 10;
pub const ANIMATION_SIZE: (u32, u32) = (320, 240);
pub const ANIMATION_FRAME_MS: u16 = 40;
/// The still's size.
pub const STILL_SIZE: (u32, u32) = (640, 480);
/// The block shape of the run: the notes' own.
pub const RUN_BLOCK: (u32, u32) = (16, 16);

/// How the run is cut into segments.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckpointPlan {
    /// The timing settings of one segment: the run's, with `reps` lowered
    /// (to no fewer than 1) so that a segment stays within [`SEGMENT_MAX_STEPS`].
    pub settings: RunSettings,
    /// Steps per segment: the warm-up and `samples × reps`.
    pub segment_steps: u32,
    /// Segments (and checkpoints): enough to cover [`RUN_STEPS`], at least two.
    pub checkpoints: u32,
}

impl CheckpointPlan {
    pub fn new(settings: &RunSettings) -> Self {
        let samples = settings.samples.max(1);
        let reps = ((SEGMENT_MAX_STEPS - 1) / samples).clamp(1, settings.reps.max(1));
        let segment_steps = 1u32.saturating_add(samples.saturating_mul(reps));
        Self {
            settings: RunSettings {
                reps,
                ..settings.clone()
            },
            segment_steps,
            checkpoints: RUN_STEPS.div_ceil(segment_steps).max(2),
        }
    }

    /// Steps of the timed run.
    pub fn run_steps(&self) -> u32 {
        self.segment_steps.saturating_mul(self.checkpoints)
    }

    /// Steps of the run and of the animation after it: the frames whose
    /// emitter positions the checks need.
    pub fn total_steps(&self) -> u32 {
        self.run_steps()
            .saturating_add((ANIMATION_FRAMES - 1) * ANIMATION_STEPS_PER_FRAME)
    }
}

/// `name.png`, or `name-gpu<N>.png` on a GPU other than the first.
pub fn artifact_name(ctx: &RunContext<'_>, name: &str) -> String {
    match ctx.ordinal() {
        0 => format!("{name}.png"),
        n => format!("{name}-gpu{n}.png"),
    }
}

/// Runs the checkpoint run of `population` for every implementation of
/// `runner`, adding a series each; the first implementation's run also makes
/// the pictures.
/// Returns the state at the last checkpoint and its step, for the OpenGL
/// picture of the same moment (`None` where that checkpoint failed).
pub fn checkpoint_run(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    (runner, population): (&dyn ParticleRunner, &mut Population),
    emitters: &EmitterPaths,
) -> Result<Option<(ParticleState, u32)>> {
    let system = population.system;
    let kernel = system.kernel();
    let plan = CheckpointPlan::new(ctx.settings);
    let block = Dim3::xy(RUN_BLOCK.0, RUN_BLOCK.1);
    let grid = population.grid();
    let mut timer = runner.clock()?;
    let mut last_checkpoint = None;
    for (k, &implementation) in runner.implementations().iter().enumerate() {
        ctx.progress.set_message(format!(
            "particles: {} run of {} steps, {}",
            system.label(),
            plan.run_steps(),
            implementation.label()
        ));
        let mut series = Series::new(
            ctx.key(kernel, implementation, "f32x4").variant(CHECKPOINTS),
            format!(
                "{kernel} · {}, run of {} steps ({}×{})",
                implementation.label(),
                plan.run_steps(),
                RUN_BLOCK.0,
                RUN_BLOCK.1
            ),
        );
        population.buffers.reset()?;
        let mut frame = 0u32;
        let mut failed = false;
        let max_age = population.max_age;
        for _ in 0..plan.checkpoints {
            let buffers = &mut population.buffers;
            let mut step = || -> Result<()> {
                buffers.step(implementation, block, max_age, system.inputs(frame))?;
                frame += 1;
                Ok(())
            };
            let times = time_per_launch(timer.as_mut(), &plan.settings, &mut step)?;
            let failure = population.check(frame, emitters.of(implementation))?;
            failed |= failure.is_some();
            series
                .points
                .extend(step_point(PointKey::Value(frame as i64), grid, &times, failure));
        }
        if k == 0 && !failed {
            let still = population.buffers.read_all()?;
            let (w, h) = STILL_SIZE;
            let picture = encode_png(&render_particles(system, &still, w, h))?;
            let name = format!("particles-{}", system.label());
            ctx.write_artifact(
                result,
                &artifact_name(ctx, &name),
                &format!(
                    "The {} after {frame} steps on the GPU ({} · {}), drawn by the software rasterizer",
                    system.label(),
                    kernel,
                    implementation.label()
                ),
                true,
                &picture,
            )?;
            last_checkpoint = Some((still, frame));
            // The animation: frames read back every few steps after the last checkpoint.
            let (w, h) = ANIMATION_SIZE;
            let mut frames = Vec::with_capacity(ANIMATION_FRAMES as usize);
            for f in 0..ANIMATION_FRAMES {
                if f > 0 {
                    for _ in 0..ANIMATION_STEPS_PER_FRAME {
                        population
                            .buffers
                            .step(implementation, block, max_age, system.inputs(frame))?;
                        frame += 1;
                    }
                }
                frames.push(render_particles(system, &population.buffers.read_all()?, w, h));
            }
            match population.check(frame, emitters.of(implementation))? {
                None => {
                    let animation = encode_apng(&frames, ANIMATION_FRAME_MS)?;
                    ctx.write_artifact(
                        result,
                        &artifact_name(ctx, &format!("{name}-animation")),
                        &format!(
                            "Animation of the {} (APNG, {} frames {} steps apart, from step {} to {frame})",
                            system.label(),
                            ANIMATION_FRAMES,
                            ANIMATION_STEPS_PER_FRAME,
                            frame - (ANIMATION_FRAMES - 1) * ANIMATION_STEPS_PER_FRAME
                        ),
                        false,
                        &animation,
                    )?;
                }
                Some(why) => series.points.push(Point::unmeasured(
                    PointKey::Value(frame as i64),
                    Status::Failed(format!("the animation's last frame: {why}")),
                )),
            }
        }
        result.series.push(series);
    }
    Ok(last_checkpoint)
}

#[cfg(test)]
mod tests {
    use super::{CheckpointPlan, RUN_STEPS, SEGMENT_MAX_STEPS};
    use crate::run_settings::RunSettings;

    fn plan(reps: u32, samples: u32) -> CheckpointPlan {
        CheckpointPlan::new(&RunSettings {
            reps,
            samples,
            ..RunSettings::default()
        })
    }

    #[test]
    fn segments_keep_the_settings_within_their_bound_and_cover_the_run() {
        let default = plan(20, 11);
        assert_eq!((default.settings.reps, default.segment_steps), (20, 221));
        assert_eq!(default.checkpoints, 6);
        assert!(default.run_steps() >= RUN_STEPS);
        let many_reps = plan(1000, 11);
        assert_eq!(many_reps.settings.reps, 27, "(300 - 1) / 11");
        assert!(many_reps.segment_steps <= SEGMENT_MAX_STEPS);
        let many_samples = plan(20, 1000);
        assert_eq!(many_samples.settings.reps, 1, "never fewer than one launch per sample");
        assert_eq!((many_samples.segment_steps, many_samples.checkpoints), (1001, 2));
        let tiny = plan(1, 1);
        assert_eq!((tiny.segment_steps, tiny.checkpoints), (2, 600));
        assert_eq!(tiny.total_steps(), 1200 + 35 * 10);
    }
}

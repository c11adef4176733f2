//! The notes' frame loop through CUDA–OpenGL interop: per frame, map the
//! OpenGL vertex buffer for CUDA, one step of the kernel in it, unmap, draw
//! the points and read the picture back (the runner's
//! [`InteropFrames`](crate::launchers::InteropFrames), on the EGL device that
//! is the CUDA device under test), each phase timed; beside it the same
//! kernel on plain device memory, timed the same way (one launch between two
//! events, waited for, per frame). Both runs are checked against the CPU
//! simulation afterwards.

use kernels_gpu::device::Dim3;

use super::population::{EmitterPaths, Population};
use super::{RunContext, interop_key};
use crate::error::{Error, Result};
use crate::launchers::{FrameTimes, ParticleRunner};
use crate::particle_scene::{ParticleRows, ParticleState, ParticleSystem};
use crate::picture::encode_png;
use crate::report::{ExperimentResult, Point, Series, Status, Waiver, Work};
use crate::stats::Summary;
use crate::testbed::Implementation;

use super::checkpoint_run::{RUN_BLOCK, STILL_SIZE, artifact_name};

/// Frames before the timed ones (first uses, clocks).
pub const WARM_UP_FRAMES: u32 = 10;
/// Frames timed per implementation.
pub const TIMED_FRAMES: u32 = 100;
/// The series variant of the interop frames.
pub const INTEROP: &str = "interop";

/// The median of `f` over `frames`.
fn median_of(frames: &[FrameTimes], f: impl Fn(&FrameTimes) -> f64) -> f64 {
    Summary::of(&frames.iter().map(f).collect::<Vec<_>>()).map_or(f64::NAN, |s| s.median)
}

/// Records that the interop frames of `system` broke off with `error`: its
/// interop series (any measured before the error replaced) is one failed point.
pub fn record_broken(ctx: &RunContext<'_>, result: &mut ExperimentResult, system: ParticleSystem, error: &Error) {
    result
        .series
        .retain(|s| !(s.key.variant == INTEROP && s.key.kernel == system.kernel()));
    let mut series = Series::new(
        ctx.key(system.kernel(), Implementation::Rust, "f32x4").variant(INTEROP),
        format!("{} · Rust, interop frames", system.kernel()),
    );
    series.points.push(Point::unmeasured(
        interop_key(),
        Status::Failed(format!("the interop frames broke off: {error}")),
    ));
    result.series.push(series);
}

/// A point of frames: G particle updates per second of whole frames, the
/// frame time, and each phase's median (ms) and frames per second as extras.
pub fn frame_point(
    particles: u64,
    bytes: u64,
    frames: &[FrameTimes],
    plain_kernel_ms: &[f64],
    failure: Option<String>,
) -> Option<Point> {
    let frame_ms: Vec<f64> = frames.iter().map(|t| t.frame_ms).collect();
    let rates: Vec<f64> = frame_ms.iter().map(|ms| particles as f64 / (ms / 1e3) / 1e9).collect();
    let mut point = Point::measured(interop_key(), &rates, Work::bytes(particles, bytes), failure)?;
    point.time_ms = Summary::of(&frame_ms);
    let frame = median_of(frames, |t| t.frame_ms);
    point.set_extra("fps", 1e3 / frame);
    point.set_extra("map ms", median_of(frames, |t| t.map_ms));
    point.set_extra("kernel ms", median_of(frames, |t| t.kernel_ms));
    point.set_extra("unmap ms", median_of(frames, |t| t.unmap_ms));
    point.set_extra("draw GPU ms", median_of(frames, |t| t.draw_gpu_ms));
    point.set_extra("draw host ms", median_of(frames, |t| t.draw_host_ms));
    point.set_extra("read-back ms", median_of(frames, |t| t.read_back_ms));
    if let Some(plain) = Summary::of(plain_kernel_ms) {
        point.set_extra("kernel ms, plain memory", plain.median);
    }
    Some(point)
}

/// Runs the interop frames of `population` (the notes' grid) for every
/// implementation of `runner`, adding a series each, and draws `still` (a state at
/// `step`) through OpenGL as `particles-gl-<system>.png`. Waived, with the
/// reason, where there is no EGL or no EGL device for this GPU.
pub fn measure_interop(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    (runner, population): (&dyn ParticleRunner, &mut Population),
    emitters: &EmitterPaths,
    still: Option<&(ParticleState, u32)>,
) -> Result<()> {
    let system = population.system;
    let grid = population.grid();
    let block = Dim3::xy(RUN_BLOCK.0, RUN_BLOCK.1);
    let mut frames = match runner.interop_frames(system, grid, population.max_age, STILL_SIZE) {
        Ok(frames) => frames,
        Err(Error::Waived(reason)) => {
            if !result.waived.iter().any(|w| w.reason == reason) {
                result.waived.push(Waiver {
                    what: "CUDA–OpenGL interop".into(),
                    reason,
                });
            }
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    let gl = frames.describe();
    if !result.setup.iter().any(|s| s.contains(&gl)) {
        result.setup.push(format!(
            "interop frames: {gl}, a {}×{} framebuffer, {WARM_UP_FRAMES} frames then {TIMED_FRAMES} timed",
            STILL_SIZE.0, STILL_SIZE.1
        ));
    }
    let start = population.expected.start().state.clone();
    let steps = WARM_UP_FRAMES + TIMED_FRAMES;
    let particles = grid.particles() as u64;
    let bytes = particles * crate::particle_scene::PARTICLE_BYTES_PER_STEP;
    let mut timer = runner.clock()?;
    for &implementation in runner.implementations() {
        ctx.progress.set_message(format!(
            "particles: {} interop frames, {}",
            system.label(),
            implementation.label()
        ));
        frames.set_state(&start, 0)?;
        let mut timed = Vec::with_capacity(TIMED_FRAMES as usize);
        for f in 0..steps {
            let times = frames.timed_frame(implementation, block)?;
            if f >= WARM_UP_FRAMES {
                timed.push(times);
            }
        }
        let emitter = emitters.of(implementation);
        let through_gl = ParticleRows::all(frames.read_state()?);
        let mut failure = population.compare(&through_gl, steps, emitter)?;
        // The same kernel on plain device memory, one launch per frame between two events.
        population.buffers.reset()?;
        let mut plain = Vec::with_capacity(TIMED_FRAMES as usize);
        for frame in 0..steps {
            let max_age = population.max_age;
            let buffers = &mut population.buffers;
            let ms = timer.time_ms(&mut || buffers.step(implementation, block, max_age, system.inputs(frame)))?;
            if frame >= WARM_UP_FRAMES {
                plain.push(ms);
            }
        }
        if failure.is_none() {
            failure = population
                .check(steps, emitter)?
                .map(|why| format!("plain memory: {why}"));
        }
        let mut series = Series::new(
            ctx.key(system.kernel(), implementation, "f32x4").variant(INTEROP),
            format!(
                "{} · {}, interop frames ({}×{})",
                system.kernel(),
                implementation.label(),
                grid.width,
                grid.height
            ),
        );
        series
            .points
            .extend(frame_point(particles, bytes, &timed, &plain, failure));
        result.series.push(series);
    }
    if let Some((state, step)) = still {
        frames.set_state(state, *step)?;
        let picture = encode_png(&frames.draw()?)?;
        ctx.write_artifact(
            result,
            &artifact_name(ctx, &format!("particles-gl-{}", system.label())),
            &format!(
                "The same {} state after {step} steps drawn by OpenGL ({gl}) from the buffer CUDA wrote",
                system.label()
            ),
            true,
            &picture,
        )?;
    }
    Ok(())
}

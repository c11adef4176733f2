use std::ops::Range;

use kernels_gpu::device::Dim3;

use super::{CudaParticleRunner, FrameTimes};
use crate::error::Result;
use crate::launchers::twin_waivers::cuda_twins_plan;
use crate::particle_scene::{FountainVersion, ParticleGrid, ParticleRows, ParticleState, ParticleSystem, StepInputs};
use crate::picture::RgbImage;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::SampleTimer;

/// One programming model's side of the particle family: it uploads
/// populations (and the all-pairs swarm's buffers), places the fountain's
/// emitter, captures steps as one replayable graph, runs the notes'
/// OpenGL frame loop, and hands out the clock of the queue its work runs on.
/// Whatever it makes borrows only the device, so the runner stays free to
/// hand out clocks while populations step.
pub trait ParticleRunner {
    /// The implementations whose kernels it launches.
    fn implementations(&self) -> &[Implementation];
    /// The clock of the queue every step, copy and replay of this runner is
    /// enqueued on (for [`time_per_launch`](crate::timing::time_per_launch) and its kin).
    fn clock(&self) -> Result<Box<dyn SampleTimer + '_>>;
    /// Where `implementation`'s fountain kernel places the emitter in each
    /// frame of `frames` ([`fountain_emitter_positions`](crate::launchers::fountain_emitter_positions)).
    fn emitter_positions(
        &self,
        implementation: Implementation,
        max_age: u32,
        frames: Range<u32>,
    ) -> Result<Vec<[f32; 2]>>;
    /// `start` uploaded as a population: its initial state and a working
    /// copy on the device (`Error::OutOfDeviceMemory` where
    /// [`population_bytes`] do not fit).
    fn population(&self, start: &ParticleState) -> Result<Box<dyn ParticleBuffers + '_>>;
    /// What `step(k)` enqueues for `k` in `0..steps`, captured once and
    /// replayed as a whole (nothing runs while capturing).
    fn capture(&self, steps: u32, step: &mut dyn FnMut(u32) -> Result<()>) -> Result<Box<dyn StepReplay + '_>>;
    /// The all-pairs swarm's buffers holding `start` (two vertex buffers, one state buffer).
    fn gravity(&self, start: &ParticleState) -> Result<Box<dyn GravityBuffers + '_>>;
    /// The notes' frame loop through the graphics API: `system`'s `grid`
    /// in a vertex buffer the kernels write and the graphics API draws into
    /// a framebuffer of `size`. `Err(Waived)` says why there is none here.
    fn interop_frames(
        &self,
        system: ParticleSystem,
        grid: ParticleGrid,
        max_age: u32,
        size: (u32, u32),
    ) -> Result<Box<dyn InteropFrames + '_>>;
}

/// The buffers of one population of particles on a runner's device: the
/// vertex and state buffers the kernels step, and a copy of the initial
/// state, so that every block shape and implementation starts from the
/// same state without an upload.
pub trait ParticleBuffers {
    fn grid(&self) -> ParticleGrid;
    /// Puts the initial state back (device-to-device copies, in queue order).
    fn reset(&mut self) -> Result<()>;
    /// Enqueues one step of `implementation`'s kernel in blocks of `block`.
    fn step(&mut self, implementation: Implementation, block: Dim3, max_age: u32, inputs: StepInputs) -> Result<()>;
    /// Enqueues one step of `version` of the fountain (the notes' tuning steps) in frame `frame`.
    fn step_version(
        &mut self,
        implementation: Implementation,
        version: FountainVersion,
        block: Dim3,
        max_age: u32,
        angle_and_frame: (f32, u32),
    ) -> Result<()>;
    /// The whole state (waits for the work queued before).
    fn read_all(&self) -> Result<ParticleState>;
    /// Rows `rows` of the state (every row: the whole state), in the layout of [`ParticleRows`].
    fn read_rows(&self, rows: &[u32]) -> Result<ParticleRows>;
}

/// Steps captured once ([`ParticleRunner::capture`]), replayed as a whole.
pub trait StepReplay {
    /// Enqueues one replay of every captured step.
    fn replay(&self) -> Result<()>;
    /// The steps one replay makes.
    fn steps(&self) -> u32;
}

/// The all-pairs swarm's buffers: positions ping-pong between two vertex
/// buffers (step `k` reads the one step `k − 1` wrote).
pub trait GravityBuffers {
    /// The start state back in place (the even vertex buffer and the state).
    fn reset(&mut self) -> Result<()>;
    /// Step `k` in blocks of `block`: even steps read the even vertex buffer
    /// and write the odd one, odd steps the reverse.
    fn step(&mut self, implementation: Implementation, tiled: bool, block: Dim3, k: u32) -> Result<()>;
    /// The state after `steps` steps from a reset: the vertex buffer the last of them wrote, and the state.
    fn read_after(&self, steps: u32) -> Result<ParticleState>;
}

/// The notes' frame loop: per frame, the vertex buffer handed from the
/// graphics API to the kernel and back, one step, the points drawn and the
/// picture read back, each phase timed.
pub trait InteropFrames {
    /// The graphics API, its version, device and renderer: `OpenGL 4.6 on … (…)`.
    fn describe(&self) -> String;
    /// Replaces the simulation state and the frame counter.
    fn set_state(&mut self, state: &ParticleState, next_frame: u32) -> Result<()>;
    /// One frame of `implementation`'s kernel in blocks of `block`: each phase's time.
    fn timed_frame(&mut self, implementation: Implementation, block: Dim3) -> Result<FrameTimes>;
    /// The whole state, the vertex buffer as the graphics API reads it.
    fn read_state(&self) -> Result<ParticleState>;
    /// Draws the vertex buffer as it is, with no step, and reads the picture back.
    fn draw(&mut self) -> Result<RgbImage>;
}

/// Device memory a population of `grid` takes: two copies of both buffers.
pub fn population_bytes(grid: ParticleGrid) -> u64 {
    2 * 4 * (grid.vertex_floats() + grid.state_floats()) as u64
}

/// Every runner of the family on `dut`: the one place a programming model
/// is added. Returns the runners (CUDA's, for the PTX implementations) and,
/// for each selected set of twins left out, what and why.
#[allow(clippy::type_complexity)]
pub fn particle_runners(dut: &DeviceUnderTest) -> Result<(Vec<Box<dyn ParticleRunner + '_>>, Vec<(String, String)>)> {
    let (implementations, waived) = cuda_twins_plan(dut.ptx_implementations());
    let runners: Vec<Box<dyn ParticleRunner + '_>> = vec![Box::new(CudaParticleRunner::new(dut, implementations))];
    Ok((runners, waived))
}

#[cfg(test)]
mod tests {
    use super::population_bytes;
    use crate::particle_scene::ParticleGrid;

    #[test]
    fn a_population_is_two_copies_of_eight_vertex_and_four_state_floats_per_particle() {
        // 256 x 256 particles: 2 copies x (8 + 4) floats x 4 bytes.
        assert_eq!(population_bytes(ParticleGrid::new(256, 256)), 2 * 12 * 4 * 65_536);
        assert_eq!(population_bytes(ParticleGrid::new(4096, 4096)), 1_610_612_736);
    }
}

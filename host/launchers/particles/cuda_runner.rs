use std::ops::Range;

use super::{
    CudaGravityBuffers, CudaParticleBuffers, GravityBuffers, InteropFrames, ParticleBuffers, ParticleFrames,
    ParticleRunner, StepReplay,
};
use crate::error::Result;
use crate::gpu::LaunchGraph;
use crate::launchers::fountain_emitter_positions;
use crate::particle_scene::{ParticleGrid, ParticleState, ParticleSystem};
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, SampleTimer};

/// The particle kernels on one CUDA device: the Rust kernels and their CUDA
/// C twins, every population in device memory on the suite's stream, timed
/// by CUDA events, replayed as CUDA graphs, drawn through CUDA–OpenGL interop.
pub struct CudaParticleRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
}

impl<'a> CudaParticleRunner<'a> {
    /// The runner of `implementations`' kernels on `dut`.
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>) -> Self {
        Self { dut, implementations }
    }
}

impl StepReplay for LaunchGraph {
    fn replay(&self) -> Result<()> {
        self.launch()
    }

    fn steps(&self) -> u32 {
        self.launches()
    }
}

impl ParticleRunner for CudaParticleRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }

    fn clock(&self) -> Result<Box<dyn SampleTimer + '_>> {
        Ok(Box::new(CudaTimer::new(self.dut.gpu())?))
    }

    fn emitter_positions(
        &self,
        implementation: Implementation,
        max_age: u32,
        frames: Range<u32>,
    ) -> Result<Vec<[f32; 2]>> {
        fountain_emitter_positions(self.dut, implementation, max_age, frames)
    }

    fn population(&self, start: &ParticleState) -> Result<Box<dyn ParticleBuffers + '_>> {
        Ok(Box::new(CudaParticleBuffers::new(self.dut, start)?))
    }

    fn capture(&self, steps: u32, step: &mut dyn FnMut(u32) -> Result<()>) -> Result<Box<dyn StepReplay + '_>> {
        Ok(Box::new(LaunchGraph::capture(self.dut.gpu(), steps, step)?))
    }

    fn gravity(&self, start: &ParticleState) -> Result<Box<dyn GravityBuffers + '_>> {
        Ok(Box::new(CudaGravityBuffers::new(self.dut, start)?))
    }

    fn interop_frames(
        &self,
        system: ParticleSystem,
        grid: ParticleGrid,
        max_age: u32,
        size: (u32, u32),
    ) -> Result<Box<dyn InteropFrames + '_>> {
        Ok(Box::new(ParticleFrames::new(self.dut, system, grid, max_age, size)?))
    }
}

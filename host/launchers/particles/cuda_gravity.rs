use kernels_gpu::device::{Dim3, F32x4};

use super::{GravityBuffers, gravity_step};
use crate::error::Result;
use crate::gpu::DeviceBuffer;
use crate::particle_scene::{ParticleState, float4s};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The two vertex buffers and the state of the all-pairs swarm in CUDA
/// device memory ([`GravityBuffers`]), stepped on the suite's stream.
pub struct CudaGravityBuffers<'a> {
    dut: &'a DeviceUnderTest,
    start: ParticleState,
    even: DeviceBuffer<F32x4>,
    odd: DeviceBuffer<F32x4>,
    state: DeviceBuffer<F32x4>,
}

impl<'a> CudaGravityBuffers<'a> {
    /// `start` in both vertex buffers and the state buffer.
    pub fn new(dut: &'a DeviceUnderTest, start: &ParticleState) -> Result<Self> {
        let gpu = dut.gpu();
        Ok(Self {
            dut,
            even: DeviceBuffer::from_host(gpu, &float4s(&start.vertices))?,
            odd: DeviceBuffer::from_host(gpu, &float4s(&start.vertices))?,
            state: DeviceBuffer::from_host(gpu, &float4s(&start.state))?,
            start: start.clone(),
        })
    }
}

impl GravityBuffers for CudaGravityBuffers<'_> {
    fn reset(&mut self) -> Result<()> {
        self.even.copy_from_host(&float4s(&self.start.vertices))?;
        self.state.copy_from_host(&float4s(&self.start.state))
    }

    fn step(&mut self, implementation: Implementation, tiled: bool, block: Dim3, k: u32) -> Result<()> {
        let (from, to) = if k % 2 == 0 {
            (&self.even, &mut self.odd)
        } else {
            (&self.odd, &mut self.even)
        };
        gravity_step(
            self.dut,
            implementation,
            tiled,
            from,
            (to, &mut self.state),
            self.start.grid,
            block,
        )
    }

    fn read_after(&self, steps: u32) -> Result<ParticleState> {
        // Step k writes the odd buffer when k is even: after an odd number of steps the odd one is the latest.
        let vertices = if steps % 2 == 1 { &self.odd } else { &self.even };
        Ok(ParticleState {
            grid: self.start.grid,
            vertices: F32x4::as_floats(&vertices.to_host()?).to_vec(),
            state: F32x4::as_floats(&self.state.to_host()?).to_vec(),
        })
    }
}

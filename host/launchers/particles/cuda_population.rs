use kernels_gpu::device::{Dim3, F32x4};

use super::{ParticleBuffers, fountain_version_step, particle_step, population_bytes};
use crate::error::Result;
use crate::gpu::DeviceBuffer;
use crate::particle_scene::{FountainVersion, ParticleGrid, ParticleRows, ParticleState, StepInputs, float4s};
use crate::testbed::{DeviceUnderTest, Implementation};

/// One population of particles in CUDA device memory ([`ParticleBuffers`]):
/// the initial state and the working vertex and state buffers, stepped on
/// the suite's stream.
pub struct CudaParticleBuffers<'a> {
    dut: &'a DeviceUnderTest,
    grid: ParticleGrid,
    initial_vertices: DeviceBuffer<F32x4>,
    initial_state: DeviceBuffer<F32x4>,
    vertices: DeviceBuffer<F32x4>,
    state: DeviceBuffer<F32x4>,
}

impl<'a> CudaParticleBuffers<'a> {
    /// Uploads `start` as the initial state (and the working state).
    pub fn new(dut: &'a DeviceUnderTest, start: &ParticleState) -> Result<Self> {
        let gpu = dut.gpu();
        gpu.ensure_free_memory(population_bytes(start.grid))?;
        let initial_vertices = DeviceBuffer::from_host(gpu, &float4s(&start.vertices))?;
        let initial_state = DeviceBuffer::from_host(gpu, &float4s(&start.state))?;
        let mut buffers = Self {
            dut,
            grid: start.grid,
            vertices: DeviceBuffer::uninit(gpu, initial_vertices.len())?,
            state: DeviceBuffer::uninit(gpu, initial_state.len())?,
            initial_vertices,
            initial_state,
        };
        buffers.reset()?;
        Ok(buffers)
    }
}

impl ParticleBuffers for CudaParticleBuffers<'_> {
    fn grid(&self) -> ParticleGrid {
        self.grid
    }

    fn reset(&mut self) -> Result<()> {
        self.vertices
            .copy_from_device_async(&self.initial_vertices, self.initial_vertices.len())?;
        self.state
            .copy_from_device_async(&self.initial_state, self.initial_state.len())
    }

    fn step(&mut self, implementation: Implementation, block: Dim3, max_age: u32, inputs: StepInputs) -> Result<()> {
        particle_step(
            self.dut,
            implementation,
            &mut self.vertices,
            &mut self.state,
            self.grid,
            block,
            max_age,
            inputs,
        )
    }

    fn step_version(
        &mut self,
        implementation: Implementation,
        version: FountainVersion,
        block: Dim3,
        max_age: u32,
        (emitter_angle, frame): (f32, u32),
    ) -> Result<()> {
        fountain_version_step(
            self.dut,
            implementation,
            version,
            (&mut self.vertices, &mut self.state),
            self.grid,
            block,
            max_age,
            (emitter_angle, frame),
        )
    }

    fn read_all(&self) -> Result<ParticleState> {
        Ok(ParticleState {
            grid: self.grid,
            vertices: F32x4::as_floats(&self.vertices.to_host()?).to_vec(),
            state: F32x4::as_floats(&self.state.to_host()?).to_vec(),
        })
    }

    fn read_rows(&self, rows: &[u32]) -> Result<ParticleRows> {
        if rows.len() == self.grid.height as usize && rows.iter().enumerate().all(|(k, &r)| r as usize == k) {
            return Ok(ParticleRows::all(self.read_all()?));
        }
        let (w, n) = (self.grid.width as usize, self.grid.particles());
        let local = ParticleGrid::new(self.grid.width, rows.len() as u32);
        let mut vertices = vec![F32x4::default(); 2 * local.particles()];
        let mut state = vec![F32x4::default(); local.particles()];
        let m = local.particles();
        for (k, &row) in rows.iter().enumerate() {
            let first = row as usize * w;
            self.vertices
                .copy_range_to_host(first, &mut vertices[k * w..(k + 1) * w])?;
            self.vertices
                .copy_range_to_host(n + first, &mut vertices[m + k * w..m + (k + 1) * w])?;
            self.state.copy_range_to_host(first, &mut state[k * w..(k + 1) * w])?;
        }
        Ok(ParticleRows {
            grid: self.grid,
            rows: rows.to_vec(),
            state: ParticleState {
                grid: local,
                vertices: F32x4::as_floats(&vertices).to_vec(),
                state: F32x4::as_floats(&state).to_vec(),
            },
        })
    }
}

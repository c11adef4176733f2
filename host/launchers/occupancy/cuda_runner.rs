use super::{OccupancyKernel, OccupancyRunner, occupancy_chase, occupancy_copy};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::launchers::SlotRing;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, time_per_launch};

/// The arrays both kernels run on, on the GPU.
struct Arrays {
    inp: DeviceBuffer<f32>,
    out: DeviceBuffer<f32>,
    ring: SlotRing,
    /// The chase's threads and the links each follows.
    chase: (u32, u32),
    ends: DeviceBuffer<u32>,
}

/// The occupancy kernels on one CUDA device: the Rust kernels and their
/// CUDA C twins, on one set of arrays, timed by CUDA events.
pub struct CudaOccupancyRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    arrays: Option<Arrays>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaOccupancyRunner<'a> {
    /// `implementations`' kernels (PTX modules loaded on `dut`), without arrays yet.
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            arrays: None,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }

    fn arrays(&self) -> Result<&Arrays> {
        self.arrays.as_ref().ok_or_else(unprepared)
    }
}

/// The error of a use before [`OccupancyRunner::prepare`].
fn unprepared() -> Error {
    Error::InvalidInput("the occupancy runner has no arrays yet: prepare it first".into())
}

/// One launch of `kernel` by `implementation` at `(block_threads, shared_bytes)` on `arrays`.
fn enqueue(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: OccupancyKernel,
    launch: (u32, u32),
    arrays: &mut Arrays,
) -> Result<()> {
    let Arrays {
        inp,
        out,
        ring,
        chase,
        ends,
    } = arrays;
    match kernel {
        OccupancyKernel::Copy => occupancy_copy(dut, implementation, out, inp, inp.len() as u64, launch),
        OccupancyKernel::Chase => occupancy_chase(dut, implementation, ring, *chase, launch, ends),
    }
}

impl OccupancyRunner for CudaOccupancyRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }
    fn resident_blocks(
        &self,
        implementation: Implementation,
        kernel: OccupancyKernel,
        (block_threads, shared_bytes): (u32, u32),
    ) -> Result<i32> {
        self.dut
            .kernel(implementation, kernel.kernel())?
            .max_active_blocks_per_sm(block_threads, shared_bytes as usize)
    }
    fn prepare(&mut self, input: &[f32], links: &[u32], chase: (u32, u32)) -> Result<()> {
        let gpu = self.dut.gpu();
        self.arrays = None;
        self.arrays = Some(Arrays {
            inp: DeviceBuffer::from_host(gpu, input)?,
            out: DeviceBuffer::uninit(gpu, input.len())?,
            ring: SlotRing::upload(gpu, links)?,
            chase,
            ends: DeviceBuffer::uninit(gpu, chase.0 as usize)?,
        });
        Ok(())
    }
    fn clear_output(&mut self, kernel: OccupancyKernel) -> Result<()> {
        let arrays = self.arrays.as_mut().ok_or_else(unprepared)?;
        match kernel {
            OccupancyKernel::Copy => arrays.out.fill(f32::NAN),
            OccupancyKernel::Chase => arrays.ends.fill(u32::MAX),
        }
    }
    fn time(
        &mut self,
        implementation: Implementation,
        kernel: OccupancyKernel,
        launch: (u32, u32),
        settings: &RunSettings,
    ) -> Result<Vec<f64>> {
        let Self { dut, arrays, timer, .. } = self;
        let arrays = arrays.as_mut().ok_or_else(unprepared)?;
        time_per_launch(timer, settings, &mut || {
            enqueue(dut, implementation, kernel, launch, arrays)
        })
    }
    fn read_copy(&self) -> Result<Vec<f32>> {
        self.arrays()?.out.to_host()
    }
    fn read_ends(&self) -> Result<Vec<u32>> {
        self.arrays()?.ends.to_host()
    }
}

use super::{ReductionEntry, ReductionKernel, ReductionRunner, reduce};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, time_per_launch};

/// The array sum on one CUDA device: both kernels in Rust and as CUDA C
/// twins, on one array and one buffer of partial sums.
pub struct CudaReductionRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    /// Blocks that fill the GPU once (the grid-stride kernel's grid).
    wave: u32,
    /// `(x, partials)` of the loaded array.
    buffers: Option<(DeviceBuffer<f32>, DeviceBuffer<f32>)>,
    n: u32,
    timer: CudaTimer<'a>,
}

impl<'a> CudaReductionRunner<'a> {
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>, wave: u32) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            wave,
            buffers: None,
            n: 0,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }
}

fn not_loaded() -> Error {
    Error::InvalidInput("no array loaded".into())
}

/// The elements of `x` as the kernels' `u32` length (the shape check bounds it further).
pub(super) fn element_count(x: &[f32]) -> Result<u32> {
    u32::try_from(x.len()).map_err(|_| Error::InvalidInput(format!("{} elements exceed u32", x.len())))
}

impl ReductionRunner for CudaReductionRunner<'_> {
    fn entries(&self) -> Vec<ReductionEntry> {
        ReductionKernel::ALL
            .into_iter()
            .flat_map(|kernel| {
                self.implementations
                    .iter()
                    .map(move |&implementation| ReductionEntry { implementation, kernel })
            })
            .collect()
    }

    fn load(&mut self, x: &[f32]) -> Result<()> {
        self.buffers = None; // free the last array first
        let n = element_count(x)?;
        let partials = ReductionKernel::most_blocks(n, self.wave);
        let gpu = self.dut.gpu();
        gpu.ensure_free_memory(4 * (x.len() as u64 + partials as u64))?;
        self.buffers = Some((
            DeviceBuffer::from_host(gpu, x)?,
            DeviceBuffer::uninit(gpu, partials as usize)?,
        ));
        self.n = n;
        Ok(())
    }

    fn time(&mut self, entry: &ReductionEntry, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            dut,
            wave,
            buffers,
            n,
            timer,
            ..
        } = self;
        let (x, partials) = buffers.as_mut().ok_or_else(not_loaded)?;
        partials.fill(f32::NAN)?; // every partial of this kernel must be written
        time_per_launch(timer, settings, &mut || {
            reduce(dut, entry.implementation, entry.kernel, (x, *n), partials, *wave)
        })
    }

    fn read_sum(&mut self, entry: &ReductionEntry) -> Result<f64> {
        let blocks = entry.kernel.blocks(self.n, self.wave) as usize;
        let partials = self.buffers.as_ref().ok_or_else(not_loaded)?.1.to_host()?;
        Ok(partials[..blocks].iter().map(|&p| p as f64).sum())
    }
}

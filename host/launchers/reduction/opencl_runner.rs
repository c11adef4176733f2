use super::cuda_runner::element_count;
use super::opencl::reduce;
use super::{ReductionEntry, ReductionKernel, ReductionRunner};
use crate::error::{Error, Result};
use crate::opencl::ClBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::{Implementation, OpenClSide};
use crate::timing::{OpenClTimer, time_per_launch};

/// The array sum's OpenCL C twins on the OpenCL device that is the GPU under
/// test, on an array and partial sums of their own.
pub struct OpenClReductionRunner<'a> {
    side: &'a OpenClSide,
    /// Work-groups that fill the GPU once: the CUDA side's figure for the
    /// Rust kernel, so every implementation launches the same grid.
    wave: u32,
    buffers: Option<(ClBuffer<f32>, ClBuffer<f32>)>,
    n: u32,
}

impl<'a> OpenClReductionRunner<'a> {
    pub fn new(side: &'a OpenClSide, wave: u32) -> Self {
        Self {
            side,
            wave,
            buffers: None,
            n: 0,
        }
    }
}

fn not_loaded() -> Error {
    Error::InvalidInput("no array loaded".into())
}

impl ReductionRunner for OpenClReductionRunner<'_> {
    fn entries(&self) -> Vec<ReductionEntry> {
        ReductionKernel::ALL
            .into_iter()
            .map(|kernel| ReductionEntry {
                implementation: Implementation::OpenClC,
                kernel,
            })
            .collect()
    }

    fn load(&mut self, x: &[f32]) -> Result<()> {
        self.buffers = None; // free the last array first
        let n = element_count(x)?;
        let partials = ReductionKernel::most_blocks(n, self.wave);
        let (context, queue) = (self.side.context(), self.side.queue());
        self.buffers = Some((
            ClBuffer::from_host(context, queue, x)?,
            ClBuffer::new(context, partials as usize)?,
        ));
        self.n = n;
        Ok(())
    }

    fn time(&mut self, entry: &ReductionEntry, settings: &RunSettings) -> Result<Vec<f64>> {
        let (side, n, wave) = (self.side, self.n, self.wave);
        let (x, partials) = self.buffers.as_mut().ok_or_else(not_loaded)?;
        partials.fill(side.queue(), f32::NAN)?; // every partial of this kernel must be written
        time_per_launch(&mut OpenClTimer(side.queue()), settings, &mut || {
            reduce(side.twins(), side.queue(), entry.kernel, (x, n), partials, wave)
        })
    }

    fn read_sum(&mut self, entry: &ReductionEntry) -> Result<f64> {
        let blocks = entry.kernel.blocks(self.n, self.wave) as usize;
        let partials = self
            .buffers
            .as_ref()
            .ok_or_else(not_loaded)?
            .1
            .to_host(self.side.queue())?;
        Ok(partials[..blocks].iter().map(|&p| p as f64).sum())
    }
}

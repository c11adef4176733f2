use super::{FmaChainGrid, FmaChainRunner, fma_chain_in};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, timed_launches};

/// One PTX implementation's `fma_chain` (Rust, or its CUDA C twin) on the
/// device's CUDA context and stream, timed by CUDA events.
pub struct CudaFmaChainRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementation: Implementation,
    data: Option<DeviceBuffer<f32>>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaFmaChainRunner<'a> {
    /// `implementation`'s kernel, without an array yet.
    pub fn new(dut: &'a DeviceUnderTest, implementation: Implementation) -> Result<Self> {
        Ok(Self {
            dut,
            implementation,
            data: None,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }

    fn data(&mut self) -> Result<&mut DeviceBuffer<f32>> {
        self.data.as_mut().ok_or_else(no_array)
    }
}

/// The error of a use before [`FmaChainRunner::allocate`].
pub(super) fn no_array() -> Error {
    Error::InvalidLaunch {
        kernel: "fma_chain",
        reason: "no array yet: allocate one first".into(),
    }
}

impl FmaChainRunner for CudaFmaChainRunner<'_> {
    fn implementation(&self) -> Implementation {
        self.implementation
    }
    fn allocate(&mut self, elements: usize) -> Result<()> {
        self.data = None;
        self.data = Some(DeviceBuffer::uninit(self.dut.gpu(), elements)?);
        Ok(())
    }
    fn write(&mut self, values: &[f32]) -> Result<()> {
        self.data()?.copy_from_host(values)
    }
    fn fill(&mut self, value: f32) -> Result<()> {
        self.data()?.fill(value)
    }
    fn launch(&mut self, grid: FmaChainGrid, iterations: u32) -> Result<()> {
        let (dut, implementation) = (self.dut, self.implementation);
        fma_chain_in(dut, implementation, self.data()?, iterations, grid)
    }
    fn time(&mut self, grid: FmaChainGrid, iterations: u32, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            dut,
            implementation,
            data,
            timer,
        } = self;
        let data = data.as_mut().ok_or_else(no_array)?;
        timed_launches(timer, settings, &mut || {
            fma_chain_in(dut, *implementation, data, iterations, grid)
        })
    }
    fn read(&mut self) -> Result<Vec<f32>> {
        self.dut.gpu().synchronize()?;
        self.data()?.to_host()
    }
}

use super::{CompatKernel, CompatLayerRunner, KernelLayer, block_sum, compat_blocks, vecadd};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::DeviceUnderTest;
use crate::timing::{CudaTimer, timed_launches};

/// The compatibility-layer pairs on one CUDA device: both layers' Rust
/// kernels on one pair of inputs and one output, timed by CUDA events.
pub struct CudaCompatLayerRunner<'a> {
    dut: &'a DeviceUnderTest,
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    /// The output and the algorithm it is sized for.
    out: Option<(CompatKernel, DeviceBuffer<f32>)>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaCompatLayerRunner<'a> {
    /// `a` and `b` copied to the device (the launches check their lengths).
    pub fn new(dut: &'a DeviceUnderTest, a: &[f32], b: &[f32]) -> Result<Self> {
        Ok(Self {
            dut,
            a: DeviceBuffer::from_host(dut.gpu(), a)?,
            b: DeviceBuffer::from_host(dut.gpu(), b)?,
            out: None,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }

    /// The elements of each launch: all of `a`.
    fn n(&self) -> u64 {
        self.a.len() as u64
    }
}

fn not_sized() -> Error {
    Error::InvalidInput("no output sized".into())
}

fn no_output(kernel: CompatKernel) -> Error {
    Error::InvalidInput(format!("no output sized for {}", kernel.name()))
}

impl CompatLayerRunner for CudaCompatLayerRunner<'_> {
    fn size_output(&mut self, kernel: CompatKernel) -> Result<()> {
        self.out = None; // free the last algorithm's output first
        let len = match kernel {
            CompatKernel::VectorAdd => self.n() as usize,
            CompatKernel::BlockSum => compat_blocks(kernel, KernelLayer::CudaStd, self.n())? as usize,
        };
        self.out = Some((kernel, DeviceBuffer::uninit(self.dut.gpu(), len)?));
        Ok(())
    }

    fn clear_output(&mut self) -> Result<()> {
        let (_, out) = self.out.as_mut().ok_or_else(not_sized)?;
        out.fill(f32::NAN)
    }

    fn time(&mut self, kernel: CompatKernel, layer: KernelLayer, settings: &RunSettings) -> Result<Vec<f64>> {
        let n = self.n();
        let Self {
            dut, a, b, out, timer, ..
        } = self;
        let out = match out {
            Some((sized_for, out)) if *sized_for == kernel => out,
            _ => return Err(no_output(kernel)),
        };
        timed_launches(timer, settings, &mut || match kernel {
            CompatKernel::VectorAdd => vecadd(dut, layer, out, a, b, n),
            CompatKernel::BlockSum => block_sum(dut, layer, out, a, n),
        })
    }

    fn read_output(&self) -> Result<Vec<f32>> {
        let (_, out) = self.out.as_ref().ok_or_else(not_sized)?;
        out.to_host()
    }
}

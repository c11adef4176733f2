use kernels_gpu::guide_multiply::TILE_DIM;

use super::runner::table_launches;
use super::{GuideLaunch, GuideMultiplyRunner, guide_multiply};
use crate::error::{Error, Result};
use crate::gpu::{CublasHandle, DeviceBuffer};
use crate::launchers::{cublas_sgemm, cublas_sgemm_aat};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, time_per_launch};

/// The operands of one product on the device: `A` (`side × TILE_DIM`), `B` (`TILE_DIM × side`), `C`.
struct Operands {
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    c: DeviceBuffer<f32>,
    side: u32,
}

/// The guide's multiplies on one CUDA device: the Rust kernels, their CUDA C
/// twins and cuBLAS SGEMM, on one set of operands, timed by CUDA events.
pub struct CudaGuideMultiplyRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    cublas: Option<&'a CublasHandle>,
    operands: Option<Operands>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaGuideMultiplyRunner<'a> {
    /// `implementations`' kernels, and cuBLAS where there is a handle.
    pub fn new(
        dut: &'a DeviceUnderTest,
        implementations: Vec<Implementation>,
        cublas: Option<&'a CublasHandle>,
    ) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            cublas,
            operands: None,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }
}

fn not_loaded() -> Error {
    Error::InvalidInput("no product loaded".into())
}

impl GuideMultiplyRunner for CudaGuideMultiplyRunner<'_> {
    fn launches(&self, aat: bool) -> Vec<GuideLaunch> {
        table_launches(aat, &self.implementations, self.cublas.is_some())
    }

    fn load(&mut self, a: &[f32], b: &[f32], side: u32) -> Result<()> {
        self.operands = None; // free the last product's operands first
        let gpu = self.dut.gpu();
        let c_len = side as usize * side as usize;
        gpu.ensure_free_memory(4 * (a.len() + b.len() + c_len) as u64)?;
        self.operands = Some(Operands {
            a: DeviceBuffer::from_host(gpu, a)?,
            b: DeviceBuffer::from_host(gpu, b)?,
            c: DeviceBuffer::uninit(gpu, c_len)?,
            side,
        });
        Ok(())
    }

    fn fill_c(&mut self, value: f32) -> Result<()> {
        self.operands.as_mut().ok_or_else(not_loaded)?.c.fill(value)
    }

    fn time(&mut self, launch: GuideLaunch, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            dut,
            cublas,
            operands,
            timer,
            ..
        } = self;
        let Operands { a, b, c, side } = operands.as_mut().ok_or_else(not_loaded)?;
        let (m, n, k) = (*side, *side, TILE_DIM);
        time_per_launch(timer, settings, &mut || match (launch, *cublas) {
            (GuideLaunch::Kernel(kernel, imp), _) => guide_multiply(dut, imp, kernel, a, b, c, m, n),
            (GuideLaunch::Cublas { aat: true }, Some(cublas)) => cublas_sgemm_aat(cublas, a, c, (m, k)),
            (GuideLaunch::Cublas { aat: false }, Some(cublas)) => cublas_sgemm(cublas, a, b, c, (m, n, k)),
            (GuideLaunch::Cublas { .. }, None) => Err(Error::Waived("cuBLAS is not available".into())),
        })
    }

    fn read_c(&mut self, out: &mut [f32]) -> Result<()> {
        self.operands.as_ref().ok_or_else(not_loaded)?.c.copy_to_host(out)
    }
}

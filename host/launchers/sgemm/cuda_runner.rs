use half::f16;

use super::{GemmEntry, GemmOp, GemmRunner, SgemmKernel, hgemm_f16_storage, sgemm};
use crate::error::{Error, Result};
use crate::gpu::{CublasHandle, DeviceBuffer};
use crate::launchers::{cublas_gemm_f16_storage, cublas_sgemm};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, time_per_launch};

/// The operands of one product on the device.
struct Operands {
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    a16: DeviceBuffer<f16>,
    b16: DeviceBuffer<f16>,
    c: DeviceBuffer<f32>,
    dims: (u32, u32, u32),
}

/// The GEMM family on one CUDA device: the Rust kernels, their CUDA C twins
/// and cuBLAS, on one set of operands.
pub struct CudaGemmRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    cublas: Option<&'a CublasHandle>,
    operands: Option<Operands>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaGemmRunner<'a> {
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
    Error::InvalidInput("no operands loaded".into())
}

impl GemmRunner for CudaGemmRunner<'_> {
    fn entries(&self) -> Vec<GemmEntry> {
        let mut entries = Vec::new();
        for kernel in SgemmKernel::ALL {
            for &implementation in &self.implementations {
                entries.push(GemmEntry {
                    implementation,
                    op: GemmOp::Sgemm(kernel),
                    kernel: kernel.kernel(),
                    element: "f32",
                });
            }
        }
        for &implementation in &self.implementations {
            entries.push(GemmEntry {
                implementation,
                op: GemmOp::F16Storage,
                kernel: "hgemm_f16_storage",
                element: "f16",
            });
        }
        if self.cublas.is_some() {
            entries.push(GemmEntry {
                implementation: Implementation::Cublas,
                op: GemmOp::CublasSgemm,
                kernel: "cublasSgemm",
                element: "f32",
            });
            entries.push(GemmEntry {
                implementation: Implementation::Cublas,
                op: GemmOp::CublasF16Storage,
                kernel: "cublasGemmEx_f16",
                element: "f16",
            });
        }
        entries
    }

    fn load(&mut self, a: &[f32], b: &[f32], dims: (u32, u32, u32)) -> Result<()> {
        self.operands = None; // free the last product's operands first
        let gpu = self.dut.gpu();
        let (m, n) = (dims.0 as usize, dims.1 as usize);
        gpu.ensure_free_memory((6 * (a.len() + b.len()) + 4 * m * n) as u64)?;
        let round = |x: &[f32]| x.iter().map(|v| f16::from_f32(*v)).collect::<Vec<f16>>();
        self.operands = Some(Operands {
            a: DeviceBuffer::from_host(gpu, a)?,
            b: DeviceBuffer::from_host(gpu, b)?,
            a16: DeviceBuffer::from_host(gpu, &round(a))?,
            b16: DeviceBuffer::from_host(gpu, &round(b))?,
            c: DeviceBuffer::uninit(gpu, m * n)?,
            dims,
        });
        Ok(())
    }

    fn fill_c(&mut self, value: f32) -> Result<()> {
        self.operands.as_mut().ok_or_else(not_loaded)?.c.fill(value)
    }

    fn time(&mut self, entry: &GemmEntry, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            dut,
            cublas,
            operands,
            timer,
            ..
        } = self;
        let o = operands.as_mut().ok_or_else(not_loaded)?;
        let dims = o.dims;
        time_per_launch(timer, settings, &mut || match (entry.op, *cublas) {
            (GemmOp::Sgemm(kernel), _) => sgemm(dut, entry.implementation, kernel, &o.a, &o.b, &mut o.c, dims),
            (GemmOp::F16Storage, _) => hgemm_f16_storage(dut, entry.implementation, &o.a16, &o.b16, &mut o.c, dims),
            (GemmOp::CublasSgemm, Some(cublas)) => cublas_sgemm(cublas, &o.a, &o.b, &mut o.c, dims),
            (GemmOp::CublasF16Storage, Some(cublas)) => cublas_gemm_f16_storage(cublas, &o.a16, &o.b16, &mut o.c, dims),
            (_, None) => Err(Error::Waived("cuBLAS is not available".into())),
        })
    }

    fn read_c(&mut self, out: &mut [f32]) -> Result<()> {
        self.operands.as_ref().ok_or_else(not_loaded)?.c.copy_to_host(out)
    }
}

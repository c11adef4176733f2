use super::{CudaGemmRunner, OpenClGemmRunner, SgemmKernel};
use crate::error::Result;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// What an entry computes `C = A · B` with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemmOp {
    /// An f32 kernel of the suite.
    Sgemm(SgemmKernel),
    /// The register-blocked kernel on f16-stored `A` and `B`, f32 arithmetic.
    F16Storage,
    /// cuBLAS SGEMM (FP32 math mode).
    CublasSgemm,
    /// cuBLAS GemmEx on f16-stored inputs, 32F pedantic compute.
    CublasF16Storage,
}

/// One way to compute the product, in one implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmEntry {
    pub implementation: Implementation,
    pub op: GemmOp,
    /// The kernel entry or library call, as series keys name it.
    pub kernel: &'static str,
    /// Element type `A` and `B` are stored in (`f32`, `f16`).
    pub element: &'static str,
}

impl GemmEntry {
    /// Whether `A` and `B` are stored as f16 (the reference then uses the f16-rounded inputs).
    pub fn f16_inputs(&self) -> bool {
        self.element == "f16"
    }

    /// Bytes per element of `A` and `B`.
    pub fn input_bytes(&self) -> u64 {
        if self.f16_inputs() { 2 } else { 4 }
    }
}

/// One programming model's side of the GEMM family, with its own `A`, `B`, `C`.
pub trait GemmRunner {
    fn entries(&self) -> Vec<GemmEntry>;
    /// Uploads row-major `A` (`m × k`) and `B` (`k × n`), f32 and f16-rounded, and sizes `C`.
    fn load(&mut self, a: &[f32], b: &[f32], dims: (u32, u32, u32)) -> Result<()>;
    fn fill_c(&mut self, value: f32) -> Result<()>;
    /// Per-launch milliseconds of each sample ([`crate::timing::time_per_launch`]).
    fn time(&mut self, entry: &GemmEntry, settings: &RunSettings) -> Result<Vec<f64>>;
    fn read_c(&mut self, out: &mut [f32]) -> Result<()>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners and, for each selected implementation left out, why.
#[allow(clippy::type_complexity)]
pub fn gemm_runners(dut: &DeviceUnderTest) -> Result<(Vec<Box<dyn GemmRunner + '_>>, Vec<(Implementation, String)>)> {
    let (implementations, waived) = dut.ptx_implementations();
    let mut waived: Vec<(Implementation, String)> =
        waived.into_iter().map(|why| (Implementation::CudaC, why)).collect();
    let cublas = match dut.cublas() {
        Ok(handle) => Some(handle),
        Err(why) => {
            waived.push((Implementation::Cublas, why));
            None
        }
    };
    let mut runners: Vec<Box<dyn GemmRunner + '_>> = vec![Box::new(CudaGemmRunner::new(dut, implementations, cublas)?)];
    match dut.opencl_or_waiver() {
        (Some(side), _) => runners.push(Box::new(OpenClGemmRunner::new(side))),
        (None, Some(why)) => waived.push((Implementation::OpenClC, why)),
        (None, None) => {}
    }
    Ok((runners, waived))
}

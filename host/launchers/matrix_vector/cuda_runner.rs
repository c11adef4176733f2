use super::{MatVecEntry, MatVecRunner, MatVecVersion, matvec_with_grid};
use crate::error::Result;
use crate::gpu::{CublasHandle, DeviceBuffer};
use crate::launchers::cublas_sgemv;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, time_per_launch};

/// The matrix-vector family on one CUDA device: the versions in Rust and as
/// CUDA C twins, and cuBLAS SGEMV, on one set of buffers.
pub struct CudaMatVecRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    cublas: Option<&'a CublasHandle>,
    /// `(M, V, W)` of the loaded problem.
    buffers: Option<(DeviceBuffer<f32>, DeviceBuffer<f32>, DeviceBuffer<f32>)>,
    shape: (u32, u32),
    timer: CudaTimer<'a>,
}

impl<'a> CudaMatVecRunner<'a> {
    pub fn new(
        dut: &'a DeviceUnderTest,
        implementations: Vec<Implementation>,
        cublas: Option<&'a CublasHandle>,
    ) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            cublas,
            buffers: None,
            shape: (0, 0),
            timer: CudaTimer::new(dut.gpu())?,
        })
    }
}

fn not_loaded() -> crate::Error {
    crate::Error::InvalidInput("no matrix loaded".into())
}

impl MatVecRunner for CudaMatVecRunner<'_> {
    fn entries(&self) -> Vec<MatVecEntry> {
        let mut entries: Vec<MatVecEntry> = MatVecVersion::ALL
            .into_iter()
            .flat_map(|version| {
                self.implementations.iter().map(move |&implementation| MatVecEntry {
                    implementation,
                    version: Some(version),
                    kernel: version.kernel(),
                    grid_cap: None,
                })
            })
            .collect();
        if self.cublas.is_some() {
            entries.push(MatVecEntry {
                implementation: Implementation::Cublas,
                version: None,
                kernel: "cublasSgemv",
                grid_cap: None,
            });
        }
        entries
    }

    fn load(&mut self, m: &[f32], v: &[f32], width: u32, height: u32) -> Result<()> {
        self.buffers = None; // free the last problem's buffers first
        let gpu = self.dut.gpu();
        gpu.ensure_free_memory(4 * (m.len() + v.len() + height as usize) as u64)?;
        self.buffers = Some((
            DeviceBuffer::from_host(gpu, m)?,
            DeviceBuffer::from_host(gpu, v)?,
            DeviceBuffer::uninit(gpu, height as usize)?,
        ));
        self.shape = (width, height);
        Ok(())
    }

    fn fill_w(&mut self, value: f32) -> Result<()> {
        self.buffers.as_mut().ok_or_else(not_loaded)?.2.fill(value)
    }

    fn time(&mut self, entry: &MatVecEntry, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self {
            dut,
            cublas,
            buffers,
            shape: (width, height),
            timer,
            ..
        } = self;
        let (m, v, w) = buffers.as_mut().ok_or_else(not_loaded)?;
        let (width, height) = (*width, *height);
        time_per_launch(timer, settings, &mut || match (entry.version, *cublas) {
            (Some(version), _) => matvec_with_grid(
                dut,
                entry.implementation,
                version,
                (m, width, height),
                v,
                w,
                entry.grid_cap,
            ),
            (None, Some(cublas)) => cublas_sgemv(cublas, m, (width, height), v, w),
            (None, None) => Err(crate::Error::Waived("cuBLAS is not available".into())),
        })
    }

    fn read_w(&mut self) -> Result<Vec<f32>> {
        self.buffers.as_ref().ok_or_else(not_loaded)?.2.to_host()
    }
}

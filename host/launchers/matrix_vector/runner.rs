use super::{CudaMatVecRunner, MATVEC_BLOCK_THREADS, MatVecVersion, OpenClMatVecRunner};
use crate::error::Result;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One way to compute `W = M · V`: a version's kernel in one implementation,
/// or a library call (`version: None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatVecEntry {
    pub implementation: Implementation,
    pub version: Option<MatVecVersion>,
    /// The kernel entry or library call, as series keys name it.
    pub kernel: &'static str,
    /// At most this many blocks for the grid-stride and block-per-row
    /// versions (the whitepaper's 60 work-groups); `None`: one full wave.
    /// Only the CUDA runner honours it.
    pub grid_cap: Option<u32>,
}

/// One programming model's side of the matrix-vector family, with its own
/// `M`, `V` and `W` buffers (BabelStream's `Stream`).
pub trait MatVecRunner {
    fn entries(&self) -> Vec<MatVecEntry>;
    /// Uploads a row-major `height × width` matrix and its vector (and sizes `W`).
    fn load(&mut self, m: &[f32], v: &[f32], width: u32, height: u32) -> Result<()>;
    fn fill_w(&mut self, value: f32) -> Result<()>;
    /// Per-launch milliseconds of each sample ([`crate::timing::time_per_launch`]).
    fn time(&mut self, entry: &MatVecEntry, settings: &RunSettings) -> Result<Vec<f64>>;
    fn read_w(&mut self) -> Result<Vec<f32>>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners and, for each selected implementation left out, why.
#[allow(clippy::type_complexity)]
pub fn matvec_runners(
    dut: &DeviceUnderTest,
) -> Result<(Vec<Box<dyn MatVecRunner + '_>>, Vec<(Implementation, String)>)> {
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
    let mut runners: Vec<Box<dyn MatVecRunner + '_>> =
        vec![Box::new(CudaMatVecRunner::new(dut, implementations, cublas)?)];
    match dut.opencl_or_waiver() {
        (Some(side), _) => {
            let waves = MatVecVersion::ALL
                .into_iter()
                .map(|version| {
                    let rust = dut.kernel(Implementation::Rust, version.kernel())?;
                    Ok((version, dut.full_wave_blocks(rust, MATVEC_BLOCK_THREADS)?))
                })
                .collect::<Result<Vec<_>>>()?;
            runners.push(Box::new(OpenClMatVecRunner::new(side, waves)));
        }
        (None, Some(why)) => waived.push((Implementation::OpenClC, why)),
        (None, None) => {}
    }
    Ok((runners, waived))
}

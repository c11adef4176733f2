use super::{CudaGuideMultiplyRunner, GuideMultiply};
use crate::error::Result;
use crate::launchers::twin_waivers::twin_waivers;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// What one series of the guide's tables launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuideLaunch {
    /// One of the guide's kernels, by one implementation.
    Kernel(GuideMultiply, Implementation),
    /// The vendor library's SGEMM on the table's product (`C = AAᵀ` where `aat`, else `C = AB`).
    Cublas { aat: bool },
}

/// One programming model's side of the guide's multiplies, with its own `A`,
/// `B` and `C` (`A` of `M × TILE_DIM`, `B` of `TILE_DIM × N`, `M = N`),
/// timed by its own clock.
pub trait GuideMultiplyRunner {
    /// What it launches for the table of `C = AAᵀ` (`aat`) or of `C = AB`,
    /// in the order the series come.
    fn launches(&self, aat: bool) -> Vec<GuideLaunch>;
    /// Uploads row-major `A` (`side × TILE_DIM`) and `B` (`TILE_DIM × side`)
    /// and sizes `C` (`side × side`), the last product's operands freed first.
    fn load(&mut self, a: &[f32], b: &[f32], side: u32) -> Result<()>;
    /// Fills `C` (NaN: every element must then be written by the launch checked).
    fn fill_c(&mut self, value: f32) -> Result<()>;
    /// Per-launch milliseconds of each sample of `launch` on the loaded
    /// product ([`time_per_launch`](crate::timing::time_per_launch): a
    /// warm-up, then `--samples` of `--reps`).
    fn time(&mut self, launch: GuideLaunch, settings: &RunSettings) -> Result<Vec<f64>>;
    /// `C`, as the last launch left it, into `out` (`side × side` floats).
    fn read_c(&mut self, out: &mut [f32]) -> Result<()>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners (CUDA's: the Rust kernels, CUDA C's where its
/// twins loaded, cuBLAS where it is available) and, for each selected series
/// left out, what and why: the CUDA C twins first, then cuBLAS.
#[allow(clippy::type_complexity)]
pub fn guide_multiply_runners(
    dut: &DeviceUnderTest,
) -> Result<(Vec<Box<dyn GuideMultiplyRunner + '_>>, Vec<(String, String)>)> {
    let (implementations, cuda_c_waived) = dut.ptx_implementations();
    let (cublas, cublas_waived) = match dut.cublas() {
        Ok(handle) => (Some(handle), None),
        Err(why) => (None, Some(why)),
    };
    let runner = CudaGuideMultiplyRunner::new(dut, implementations, cublas)?;
    Ok((vec![Box::new(runner)], runner_waivers(cuda_c_waived, cublas_waived)))
}

/// The family's waivers: each reason the CUDA C twins were left out, then
/// cuBLAS's. The family has no OpenCL C twins, so OpenCL is never waived here.
pub(super) fn runner_waivers(cuda_c_waived: Vec<String>, cublas_waived: Option<String>) -> Vec<(String, String)> {
    let mut waived = twin_waivers(cuda_c_waived, None);
    waived.extend(cublas_waived.map(|why| ("cuBLAS".to_string(), why)));
    waived
}

/// The launches of one table by the CUDA runner: each of the table's kernels
/// by each implementation (kernel by kernel, in the guide's order), then
/// cuBLAS on the table's product where there is a handle.
pub(super) fn table_launches(aat: bool, implementations: &[Implementation], cublas: bool) -> Vec<GuideLaunch> {
    let mut launches: Vec<GuideLaunch> = GuideMultiply::ALL
        .into_iter()
        .filter(|kernel| kernel.is_aat() == aat)
        .flat_map(|kernel| implementations.iter().map(move |&imp| GuideLaunch::Kernel(kernel, imp)))
        .collect();
    if cublas {
        launches.push(GuideLaunch::Cublas { aat });
    }
    launches
}

#[cfg(test)]
mod tests {
    use super::{GuideLaunch, runner_waivers, table_launches};
    use crate::launchers::GuideMultiply::{Coalesced, CoalescedAat, CoalescedAatPadded, SharedAb, Simple, SimpleAat};
    use crate::testbed::Implementation::{CudaC, Rust};

    #[test]
    fn each_table_launches_its_kernels_by_each_implementation_then_cublas() {
        use GuideLaunch::{Cublas, Kernel};
        assert_eq!(
            table_launches(false, &[Rust, CudaC], true),
            [
                Kernel(Simple, Rust),
                Kernel(Simple, CudaC),
                Kernel(Coalesced, Rust),
                Kernel(Coalesced, CudaC),
                Kernel(SharedAb, Rust),
                Kernel(SharedAb, CudaC),
                Cublas { aat: false },
            ]
        );
        assert_eq!(
            table_launches(true, &[Rust], false),
            [
                Kernel(SimpleAat, Rust),
                Kernel(CoalescedAat, Rust),
                Kernel(CoalescedAatPadded, Rust)
            ]
        );
        assert_eq!(table_launches(true, &[Rust], true).last(), Some(&Cublas { aat: true }));
    }

    #[test]
    fn the_waivers_name_the_cuda_c_twins_then_cublas() {
        assert!(runner_waivers(Vec::new(), None).is_empty());
        assert_eq!(
            runner_waivers(vec!["no NVRTC".into()], Some("cuBLAS not selected (--impl)".into())),
            [
                ("CUDA C twins".to_string(), "no NVRTC".to_string()),
                ("cuBLAS".to_string(), "cuBLAS not selected (--impl)".to_string()),
            ]
        );
        assert_eq!(runner_waivers(Vec::new(), Some("no libcublas".into()))[0].0, "cuBLAS");
    }
}

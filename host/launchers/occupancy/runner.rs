use super::CudaOccupancyRunner;
use crate::error::Result;
use crate::launchers::twin_waivers::cuda_twins_plan;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// The family's two kernels: one that many loads in flight keep fast, one
/// that waits on each load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OccupancyKernel {
    /// `occupancy_copy`: one float read and written per thread.
    Copy,
    /// `occupancy_chase`: dependent loads through a ring of slots, one chain per thread.
    Chase,
}

impl OccupancyKernel {
    pub const ALL: [Self; 2] = [Self::Copy, Self::Chase];

    /// The kernel's entry name.
    pub fn kernel(self) -> &'static str {
        match self {
            Self::Copy => "occupancy_copy",
            Self::Chase => "occupancy_chase",
        }
    }
}

/// One programming model's side of the occupancy family: both kernels of
/// each of its implementations on one set of arrays (the copy's input and
/// output, the chase's ring and end slots), timed by its own clock.
pub trait OccupancyRunner {
    /// The implementations this runner measures.
    fn implementations(&self) -> &[Implementation];
    /// The blocks of `kernel` by `implementation` resident on one SM at `launch` = (threads per
    /// block, bytes of dynamic shared memory), as the model's occupancy calculator states it.
    fn resident_blocks(
        &self,
        implementation: Implementation,
        kernel: OccupancyKernel,
        launch: (u32, u32),
    ) -> Result<i32>;
    /// Makes the arrays: the copy's input (`input`) and output of as many floats; the chase's ring
    /// (`links[i]` = the slot after `i`, checked on the way in) and an end slot for each of its
    /// `chase` = (threads, steps) threads, each following `steps` links.
    fn prepare(&mut self, input: &[f32], links: &[u32], chase: (u32, u32)) -> Result<()>;
    /// Fills `kernel`'s output (the copy's with NaN, the chase's end slots with `u32::MAX`), so
    /// that a thread that stores nothing fails the check.
    fn clear_output(&mut self, kernel: OccupancyKernel) -> Result<()>;
    /// Per-launch milliseconds of each sample of `kernel` by `implementation` at `launch` =
    /// (threads per block, bytes of unused dynamic shared memory)
    /// ([`time_per_launch`](crate::timing::time_per_launch): warmed up, not paced).
    fn time(
        &mut self,
        implementation: Implementation,
        kernel: OccupancyKernel,
        launch: (u32, u32),
        settings: &RunSettings,
    ) -> Result<Vec<f64>>;
    /// The copy's output.
    fn read_copy(&self) -> Result<Vec<f32>>;
    /// The chase's end slots, one per thread.
    fn read_ends(&self) -> Result<Vec<u32>>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. The PTX implementations' runner only: OpenCL reports no occupancy,
/// so the family has no OpenCL C twins. Returns the runners and, for the
/// selected CUDA C twins left out, what and why.
#[allow(clippy::type_complexity)]
pub fn occupancy_runners(dut: &DeviceUnderTest) -> Result<(Vec<Box<dyn OccupancyRunner + '_>>, Vec<(String, String)>)> {
    let (implementations, waived) = cuda_twins_plan(dut.ptx_implementations());
    let runners: Vec<Box<dyn OccupancyRunner + '_>> = vec![Box::new(CudaOccupancyRunner::new(dut, implementations)?)];
    Ok((runners, waived))
}

#[cfg(test)]
mod tests {
    use kernels_gpu::device::KernelSignature;
    use kernels_gpu::occupancy::{occupancy_chase_params, occupancy_copy_params};

    use super::OccupancyKernel;
    use crate::launchers::occupancy::PTX_ENTRIES;

    #[test]
    fn the_kernels_are_the_familys_ptx_entries() {
        let names = OccupancyKernel::ALL.map(OccupancyKernel::kernel);
        assert_eq!(names, [occupancy_copy_params::NAME, occupancy_chase_params::NAME]);
        assert_eq!(names.as_slice(), PTX_ENTRIES);
    }
}

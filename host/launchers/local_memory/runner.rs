use super::opencl::build_spilled_twin;
use super::{CudaLocalArrayRunner, LocalArrayKernel, OpenClLocalArrayRunner};
use crate::error::Result;
use crate::launchers::twin_waivers::twin_waivers;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One launch of a local-array kernel: its `(shift, rounds)` and its grid
/// (threads per block or work-group, and blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalArrayCase {
    pub kernel: LocalArrayKernel,
    pub shift: u32,
    pub rounds: u32,
    pub block_threads: u32,
    pub blocks: u32,
}

impl LocalArrayCase {
    /// Threads (work-items) of the launch: one output word each.
    pub fn threads(&self) -> usize {
        self.blocks as usize * self.block_threads as usize
    }
}

/// One programming model's side of the local-memory family, with its own
/// output (a word per thread) and what its compiler says of each kernel.
pub trait LocalArrayRunner {
    /// The implementations this runner measures.
    fn implementations(&self) -> &[Implementation];
    /// Whether it has `kernel` (OpenCL C: the spilled kernel's twin needs a register cap).
    fn runs(&self, kernel: LocalArrayKernel) -> bool;
    /// Whether its kernels run on the device's CUDA context (where the counters pass counts them).
    fn on_cuda_context(&self) -> bool;
    fn fill_out(&mut self, value: u32) -> Result<()>;
    /// One launch of `case`, enqueued (the counters pass's).
    fn launch(&mut self, implementation: Implementation, case: &LocalArrayCase) -> Result<()>;
    /// Per-launch milliseconds of each sample ([`crate::timing::time_per_launch`]).
    fn time(
        &mut self,
        implementation: Implementation,
        case: &LocalArrayCase,
        settings: &RunSettings,
    ) -> Result<Vec<f64>>;
    /// Every thread's word of the last launch, in thread order (the whole buffer).
    fn read_out(&mut self) -> Result<Vec<u32>>;
    /// The local (OpenCL: private) bytes a thread of `kernel` takes, as its
    /// compiler states them; `None` where it does not.
    fn local_bytes(&self, implementation: Implementation, kernel: LocalArrayKernel) -> Result<Option<f64>>;
    /// The log of the compiler that built `kernel` (the JIT's info log, the
    /// OpenCL program's build log), where ptxas states its spills.
    fn compiler_log(&self, implementation: Implementation, kernel: LocalArrayKernel) -> Option<&str>;
}

/// What the spilled kernel's OpenCL C twin is called where it is waived.
pub(super) const SPILLED_TWIN: &str = "local_array_spilled's OpenCL C twin";

/// Every runner of the family on `dut`, each with an output word for up to
/// `max_threads` threads: the one place a programming model is added.
/// Returns the runners (the PTX implementations' first) and, for each
/// selected set of twins (or twin) left out, what and why.
#[allow(clippy::type_complexity)]
pub fn local_array_runners(
    dut: &DeviceUnderTest,
    max_threads: usize,
) -> Result<(Vec<Box<dyn LocalArrayRunner + '_>>, Vec<(String, String)>)> {
    let (implementations, cuda_c_waived) = dut.ptx_implementations();
    let (side, opencl_waived) = dut.opencl_or_waiver();
    let mut waived = twin_waivers(cuda_c_waived, opencl_waived);
    let opencl = side.map(|side| match build_spilled_twin(side.context()) {
        Ok(twin) => (side, Some(twin)),
        Err(why) => {
            waived.push((SPILLED_TWIN.to_string(), why.to_string()));
            (side, None)
        }
    });
    let mut runners: Vec<Box<dyn LocalArrayRunner + '_>> =
        vec![Box::new(CudaLocalArrayRunner::new(dut, implementations, max_threads)?)];
    if let Some((side, spilled)) = opencl {
        runners.push(Box::new(OpenClLocalArrayRunner::new(side, spilled, max_threads)?));
    }
    Ok((runners, waived))
}

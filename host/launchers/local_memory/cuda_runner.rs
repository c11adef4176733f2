use super::{LocalArrayCase, LocalArrayKernel, LocalArrayRunner, local_array};
use crate::error::Result;
use crate::gpu::DeviceBuffer;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::{CudaTimer, time_per_launch};

/// The local-memory arrays on one CUDA device: the Rust kernels and their
/// CUDA C twins, on one output buffer.
pub struct CudaLocalArrayRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    out: DeviceBuffer<u32>,
    timer: CudaTimer<'a>,
}

impl<'a> CudaLocalArrayRunner<'a> {
    /// With an output word for up to `max_threads` threads.
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>, max_threads: usize) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            out: DeviceBuffer::uninit(dut.gpu(), max_threads)?,
            timer: CudaTimer::new(dut.gpu())?,
        })
    }
}

/// One launch of `case` by `implementation` into `out`.
fn enqueue(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    case: &LocalArrayCase,
    out: &mut DeviceBuffer<u32>,
) -> Result<()> {
    local_array(
        dut,
        implementation,
        case.kernel,
        (case.shift, case.rounds),
        (case.block_threads, case.blocks),
        out,
    )
}

impl LocalArrayRunner for CudaLocalArrayRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }

    fn runs(&self, _: LocalArrayKernel) -> bool {
        true
    }

    fn on_cuda_context(&self) -> bool {
        true
    }

    fn fill_out(&mut self, value: u32) -> Result<()> {
        self.out.fill(value)
    }

    fn launch(&mut self, implementation: Implementation, case: &LocalArrayCase) -> Result<()> {
        enqueue(self.dut, implementation, case, &mut self.out)
    }

    fn time(
        &mut self,
        implementation: Implementation,
        case: &LocalArrayCase,
        settings: &RunSettings,
    ) -> Result<Vec<f64>> {
        let Self { dut, out, timer, .. } = self;
        time_per_launch(timer, settings, &mut || enqueue(dut, implementation, case, out))
    }

    fn read_out(&mut self) -> Result<Vec<u32>> {
        self.out.to_host()
    }

    /// The JIT's local bytes a thread (`CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES`).
    fn local_bytes(&self, implementation: Implementation, kernel: LocalArrayKernel) -> Result<Option<f64>> {
        let function = self.dut.kernel(implementation, kernel.kernel())?;
        Ok(Some(function.resources().local_bytes_per_thread as f64))
    }

    /// The JIT's info log of the implementation's module.
    fn compiler_log(&self, implementation: Implementation, _: LocalArrayKernel) -> Option<&str> {
        self.dut.module(implementation).ok().map(|module| module.jit_info_log())
    }
}

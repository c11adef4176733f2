use super::opencl::local_array;
use super::{LocalArrayCase, LocalArrayKernel, LocalArrayRunner};
use crate::error::{Error, Result};
use crate::opencl::{ClBuffer, OpenClTwins};
use crate::run_settings::RunSettings;
use crate::testbed::{Implementation, OpenClSide};
use crate::timing::{OpenClTimer, time_per_launch};

/// The local-memory arrays' OpenCL C twins on the OpenCL device that is the
/// GPU under test, on an output buffer of their own; the spilled kernel's
/// twin is a program of its own, where it could be built.
pub struct OpenClLocalArrayRunner<'a> {
    side: &'a OpenClSide,
    spilled: Option<OpenClTwins>,
    out: ClBuffer<u32>,
}

impl<'a> OpenClLocalArrayRunner<'a> {
    /// With an output word for up to `max_threads` work-items; `spilled`:
    /// [`build_spilled_twin`](super::opencl::build_spilled_twin)'s program, if built.
    pub fn new(side: &'a OpenClSide, spilled: Option<OpenClTwins>, max_threads: usize) -> Result<Self> {
        Ok(Self {
            side,
            spilled,
            out: ClBuffer::new(side.context(), max_threads)?,
        })
    }

    fn twins(&self, kernel: LocalArrayKernel) -> Option<&OpenClTwins> {
        program_of(kernel, self.side, self.spilled.as_ref())
    }
}

/// The program that holds `kernel`'s twin: the suite's, or `spilled` for the
/// spilled kernel (`None` where it was not built).
fn program_of<'t>(
    kernel: LocalArrayKernel,
    side: &'t OpenClSide,
    spilled: Option<&'t OpenClTwins>,
) -> Option<&'t OpenClTwins> {
    match kernel {
        LocalArrayKernel::Spilled => spilled,
        _ => Some(side.twins()),
    }
}

/// One launch of `case`'s twin from its program into `out`.
fn enqueue(
    (side, spilled): (&OpenClSide, Option<&OpenClTwins>),
    case: &LocalArrayCase,
    out: &mut ClBuffer<u32>,
) -> Result<()> {
    let twins = program_of(case.kernel, side, spilled).ok_or_else(|| {
        Error::Waived(format!(
            "{} has no OpenCL C twin here (no register cap)",
            case.kernel.kernel()
        ))
    })?;
    local_array(
        twins,
        side.queue(),
        case.kernel,
        (case.shift, case.rounds),
        (case.block_threads, case.blocks),
        out,
    )
}

impl LocalArrayRunner for OpenClLocalArrayRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &[Implementation::OpenClC]
    }

    fn runs(&self, kernel: LocalArrayKernel) -> bool {
        self.twins(kernel).is_some()
    }

    fn on_cuda_context(&self) -> bool {
        false
    }

    fn fill_out(&mut self, value: u32) -> Result<()> {
        Ok(self.out.fill(self.side.queue(), value)?)
    }

    fn launch(&mut self, _: Implementation, case: &LocalArrayCase) -> Result<()> {
        let Self { side, spilled, out } = self;
        enqueue((side, spilled.as_ref()), case, out)
    }

    fn time(&mut self, _: Implementation, case: &LocalArrayCase, settings: &RunSettings) -> Result<Vec<f64>> {
        let Self { side, spilled, out } = self;
        time_per_launch(&mut OpenClTimer(side.queue()), settings, &mut || {
            enqueue((side, spilled.as_ref()), case, out)
        })
    }

    fn read_out(&mut self) -> Result<Vec<u32>> {
        Ok(self.out.to_host(self.side.queue())?)
    }

    /// The compiler's private bytes a work-item (`CL_KERNEL_PRIVATE_MEM_SIZE`: CUDA's local memory).
    fn local_bytes(&self, _: Implementation, kernel: LocalArrayKernel) -> Result<Option<f64>> {
        let twin = self.twins(kernel).and_then(|twins| twins.kernel(kernel.kernel()).ok());
        Ok(twin.map(|twin| twin.resources().private_memory_bytes as f64))
    }

    /// The build log of the program that holds the twin (`-cl-nv-verbose`: ptxas's spills).
    fn compiler_log(&self, _: Implementation, kernel: LocalArrayKernel) -> Option<&str> {
        self.twins(kernel).map(|twins| twins.program().build_log())
    }
}

use kernels_gpu::block_span::BLOCK_SPAN_WORDS;

use super::{BANK_BLOCK_THREADS, BankCase, BankKernel, BankRunner, BankTimes, bank_kernel};
use crate::error::{Error, Result};
use crate::gpu::DeviceBuffer;
use crate::launchers::{LaunchOutputs, TimedLaunches, held_timer};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};
use crate::timing::CudaTimer;

/// The bank kernels on one CUDA device, in Rust and as CUDA C twins: every
/// launch's block spans kept for the SM clocks, the checksums, and the spans
/// of the counters pass's launches (read by no one).
pub struct CudaBankRunner<'a> {
    dut: &'a DeviceUnderTest,
    implementations: Vec<Implementation>,
    buffers: Option<CudaBankBuffers>,
    timer: CudaTimer<'a>,
}

/// The buffers of [`CudaBankRunner::reserve`].
struct CudaBankBuffers {
    spans: LaunchOutputs<u64>,
    checksums: DeviceBuffer<u32>,
    counter_spans: DeviceBuffer<u64>,
}

impl<'a> CudaBankRunner<'a> {
    pub fn new(dut: &'a DeviceUnderTest, implementations: Vec<Implementation>) -> Result<Self> {
        Ok(Self {
            dut,
            implementations,
            buffers: None,
            timer: held_timer(dut)?,
        })
    }
}

fn not_reserved() -> Error {
    Error::InvalidInput("no bank-kernel buffers reserved".into())
}

impl BankRunner for CudaBankRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &self.implementations
    }

    fn blocks_per_sm(&self, implementation: Implementation, kernel: BankKernel) -> Result<u32> {
        let blocks = self
            .dut
            .kernel(implementation, kernel.kernel())?
            .max_active_blocks_per_sm(BANK_BLOCK_THREADS, kernel.shared_bytes())?;
        Ok(blocks.max(1) as u32)
    }

    fn reserve(&mut self, blocks: u32, settings: &RunSettings) -> Result<()> {
        self.buffers = None; // free the last reservation first
        let gpu = self.dut.gpu();
        let span_words = BLOCK_SPAN_WORDS * blocks as usize;
        self.buffers = Some(CudaBankBuffers {
            spans: LaunchOutputs::for_settings(gpu, settings, span_words)?,
            checksums: DeviceBuffer::uninit(gpu, (blocks * BANK_BLOCK_THREADS) as usize)?,
            counter_spans: DeviceBuffer::uninit(gpu, span_words)?,
        });
        Ok(())
    }

    fn fill_checksums(&mut self, value: u32) -> Result<()> {
        self.buffers.as_mut().ok_or_else(not_reserved)?.checksums.fill(value)
    }

    fn time(&mut self, implementation: Implementation, case: &BankCase, settings: &RunSettings) -> Result<BankTimes> {
        let Self {
            dut, buffers, timer, ..
        } = self;
        let CudaBankBuffers { spans, checksums, .. } = buffers.as_mut().ok_or_else(not_reserved)?;
        let TimedLaunches {
            times_ms,
            written,
            reps,
        } = spans.time(timer, settings, &mut |spans| {
            bank_kernel(
                dut,
                implementation,
                case.kernel,
                case.stride,
                case.rounds,
                (BANK_BLOCK_THREADS, case.blocks),
                spans,
                checksums,
            )
        })?;
        Ok(BankTimes {
            times_ms,
            spans: Some(written),
            reps,
        })
    }

    fn read_checksums(&mut self) -> Result<Vec<u32>> {
        self.buffers.as_ref().ok_or_else(not_reserved)?.checksums.to_host()
    }

    fn launch(&mut self, implementation: Implementation, case: &BankCase) -> Result<()> {
        let CudaBankBuffers {
            checksums,
            counter_spans,
            ..
        } = self.buffers.as_mut().ok_or_else(not_reserved)?;
        bank_kernel(
            self.dut,
            implementation,
            case.kernel,
            case.stride,
            case.rounds,
            (BANK_BLOCK_THREADS, case.blocks),
            counter_spans,
            checksums,
        )
    }
}

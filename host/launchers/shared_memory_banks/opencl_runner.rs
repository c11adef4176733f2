use super::opencl::bank_kernel;
use super::{BANK_BLOCK_THREADS, BankCase, BankKernel, BankRunner, BankTimes};
use crate::error::{Error, Result};
use crate::opencl::{ClBuffer, ClContext, ClQueue, OpenClTwins};
use crate::run_settings::RunSettings;
use crate::testbed::Implementation;
use crate::timing::{OpenClTimer, time_per_launch};

/// The bank kernels' OpenCL C twins on one OpenCL device (the GPU under
/// test's), timed by profiling events on its in-order queue, with checksums
/// of their own; they record no block spans.
pub struct OpenClBankRunner<'a> {
    context: &'a ClContext,
    queue: &'a ClQueue,
    twins: &'a OpenClTwins,
    /// Work-groups resident on one SM for each kernel: the CUDA side's figure
    /// for the Rust kernel, so that both launch the same full wave.
    occupancy: Vec<(BankKernel, u32)>,
    checksums: Option<ClBuffer<u32>>,
}

impl<'a> OpenClBankRunner<'a> {
    pub fn new(
        (context, queue, twins): (&'a ClContext, &'a ClQueue, &'a OpenClTwins),
        occupancy: Vec<(BankKernel, u32)>,
    ) -> Self {
        Self {
            context,
            queue,
            twins,
            occupancy,
            checksums: None,
        }
    }
}

fn not_reserved() -> Error {
    Error::InvalidInput("no bank-kernel checksums reserved".into())
}

impl BankRunner for OpenClBankRunner<'_> {
    fn implementations(&self) -> &[Implementation] {
        &[Implementation::OpenClC]
    }

    fn blocks_per_sm(&self, _: Implementation, kernel: BankKernel) -> Result<u32> {
        self.occupancy
            .iter()
            .find(|(k, _)| *k == kernel)
            .map(|&(_, blocks)| blocks)
            .ok_or_else(|| Error::InvalidInput(format!("no occupancy given for {}'s twin", kernel.kernel())))
    }

    fn reserve(&mut self, blocks: u32, _: &RunSettings) -> Result<()> {
        self.checksums = None; // free the last reservation first
        self.checksums = Some(ClBuffer::new(self.context, (blocks * BANK_BLOCK_THREADS) as usize)?);
        Ok(())
    }

    fn fill_checksums(&mut self, value: u32) -> Result<()> {
        let queue = self.queue;
        Ok(self.checksums.as_mut().ok_or_else(not_reserved)?.fill(queue, value)?)
    }

    fn time(&mut self, implementation: Implementation, case: &BankCase, settings: &RunSettings) -> Result<BankTimes> {
        ours(implementation)?;
        let (queue, twins) = (self.queue, self.twins);
        let checksums = self.checksums.as_mut().ok_or_else(not_reserved)?;
        let times_ms = time_per_launch(&mut OpenClTimer(queue), settings, &mut || {
            launch(twins, queue, case, checksums)
        })?;
        Ok(BankTimes {
            times_ms,
            spans: None,
            reps: settings.reps,
        })
    }

    fn read_checksums(&mut self) -> Result<Vec<u32>> {
        Ok(self.checksums.as_ref().ok_or_else(not_reserved)?.to_host(self.queue)?)
    }

    fn launch(&mut self, implementation: Implementation, case: &BankCase) -> Result<()> {
        ours(implementation)?;
        let checksums = self.checksums.as_mut().ok_or_else(not_reserved)?;
        launch(self.twins, self.queue, case, checksums)
    }
}

/// `Ok` for [`Implementation::OpenClC`], the one implementation this runner launches.
fn ours(implementation: Implementation) -> Result<()> {
    if implementation == Implementation::OpenClC {
        return Ok(());
    }
    Err(Error::InvalidInput(format!(
        "the OpenCL runner launches no {} kernels",
        implementation.label()
    )))
}

/// One launch of `case`'s twin.
fn launch(twins: &OpenClTwins, queue: &ClQueue, case: &BankCase, checksums: &mut ClBuffer<u32>) -> Result<()> {
    bank_kernel(
        twins,
        queue,
        case.kernel,
        (case.stride, case.rounds),
        (BANK_BLOCK_THREADS, case.blocks),
        checksums,
    )
}

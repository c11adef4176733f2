use super::{BANK_BLOCK_THREADS, BankKernel, CudaBankRunner, OpenClBankRunner};
use crate::error::Result;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// One launch of a bank kernel as every implementation runs it: `rounds`
/// rounds of 32 accesses a lane at `stride` (the tile's pitch, the
/// permutation's multiplier) on `blocks` blocks of [`BANK_BLOCK_THREADS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BankCase {
    pub kernel: BankKernel,
    pub stride: u32,
    pub rounds: u32,
    pub blocks: u32,
}

impl BankCase {
    /// Threads of the launch: one checksum each.
    pub fn threads(&self) -> u64 {
        self.blocks as u64 * BANK_BLOCK_THREADS as u64
    }
}

/// What timing a case measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BankTimes {
    /// Milliseconds per launch of each sample ([`crate::timing::time_per_launch`]).
    pub times_ms: Vec<f64>,
    /// Each launch's block spans (`kernels_gpu::block_span`, `BLOCK_SPAN_WORDS` a
    /// block), the warm-up first; `None` where the implementation records none
    /// (OpenCL C has no SM clock to read).
    pub spans: Option<Vec<Vec<u64>>>,
    /// Launches per sample: `--reps`, fewer where the spans of every launch
    /// would not fit ([`kept_reps`](super::kept_reps)).
    pub reps: u32,
}

/// One programming model's side of the bank-conflict family, with its own
/// checksums (and block spans, where it records them) for launches of up to
/// the blocks it was reserved for.
pub trait BankRunner {
    /// The implementations whose kernels it launches, in the order reports list their series.
    fn implementations(&self) -> &[Implementation];
    /// Blocks of [`BANK_BLOCK_THREADS`] threads with `kernel`'s table that are
    /// resident on one SM at once (at least 1): a full wave is this many per SM.
    fn blocks_per_sm(&self, implementation: Implementation, kernel: BankKernel) -> Result<u32>;
    /// Makes the buffers for cases of up to `blocks` blocks timed with `settings`: before any timing.
    fn reserve(&mut self, blocks: u32, settings: &RunSettings) -> Result<()>;
    /// Sets every checksum to `value`.
    fn fill_checksums(&mut self, value: u32) -> Result<()>;
    /// Times `case` by `implementation` ([`crate::timing::time_per_launch`]:
    /// a warm-up, then the samples), keeping every launch's spans where it records them.
    fn time(&mut self, implementation: Implementation, case: &BankCase, settings: &RunSettings) -> Result<BankTimes>;
    /// Every checksum of the buffer (the last launch wrote the first [`BankCase::threads`]).
    fn read_checksums(&mut self) -> Result<Vec<u32>>;
    /// One more launch of `case`, untimed (the counters pass); its spans are read by no one.
    fn launch(&mut self, implementation: Implementation, case: &BankCase) -> Result<()>;
}

/// Every runner of the family on `dut`: the one place a programming model is
/// added. Returns the runners and, for each selected implementation left out,
/// why (the CUDA C twins' reasons first, then OpenCL's).
#[allow(clippy::type_complexity)]
pub fn bank_runners(dut: &DeviceUnderTest) -> Result<(Vec<Box<dyn BankRunner + '_>>, Vec<(Implementation, String)>)> {
    let (implementations, waived) = dut.ptx_implementations();
    let mut waived: Vec<(Implementation, String)> =
        waived.into_iter().map(|why| (Implementation::CudaC, why)).collect();
    let cuda = CudaBankRunner::new(dut, implementations)?;
    let mut runners: Vec<Box<dyn BankRunner + '_>> = Vec::new();
    match dut.opencl_or_waiver() {
        (Some(side), _) => {
            // OpenCL reports no occupancy: the twins launch the Rust kernel's full wave.
            let occupancy = BankKernel::ALL
                .into_iter()
                .chain(BankKernel::GUIDE_CASES)
                .map(|kernel| Ok((kernel, cuda.blocks_per_sm(Implementation::Rust, kernel)?)))
                .collect::<Result<Vec<_>>>()?;
            runners.push(Box::new(cuda));
            runners.push(Box::new(OpenClBankRunner::new(
                (side.context(), side.queue(), side.twins()),
                occupancy,
            )));
        }
        (None, why) => {
            runners.push(Box::new(cuda));
            waived.extend(why.map(|why| (Implementation::OpenClC, why)));
        }
    }
    Ok((runners, waived))
}

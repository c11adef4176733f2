//! The hardware counters' self-test, and the workloads `counters-probe`
//! runs: kernels whose counters a model predicts beyond doubt — a unit-stride
//! copy of buffers four times the L2 moves each byte through device memory
//! once each way, and 4-byte shared-memory reads take one pass through the
//! banks per request at stride 1 and 32 at stride 32 — collected through
//! the same counters pass as `run --counters`.

use super::SelfTest;
use super::checks::first;
use crate::counters::{CounterOutcome, SharedAccess, count_traced};
use crate::error::{Error, Result};
use crate::experiments::stride_copy_bytes;
use crate::gpu::DeviceBuffer;
use crate::launchers::{
    BANK_BLOCK_THREADS, BankAccess, BankKernel, CopyKernel, CopyRunner, CudaCopyRunner, bank_kernel,
};
use crate::reference::{conflict_degree, strided_lane_addresses};
use crate::report::CounterCheck;
use crate::testbed::{Implementation, Testbed};

/// The checks of the hardware counters, in the order `ptxsuite selftest` runs them (gathered with
/// the other families' by [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const SELF_TESTS: &[SelfTest] = &[SelfTest {
    name: "hardware counters (CUPTI): stride_copy DRAM bytes, bank_read passes",
    run: hardware_counters,
}];

/// A workload whose counters a model predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterWorkload {
    /// `stride_copy` (f32, Rust) at this stride over buffers of four times the L2.
    StrideCopy(i32),
    /// `bank_read_b32` (Rust) at this stride, one block per SM.
    BankRead(u32),
}

impl CounterWorkload {
    pub fn label(self) -> String {
        match self {
            Self::StrideCopy(stride) => format!("stride_copy at stride {stride}"),
            Self::BankRead(stride) => format!("bank_read_b32 at stride {stride}"),
        }
    }
}

/// One workload's counters and the model's checks of them.
#[derive(Clone, Debug)]
pub struct CounterRun {
    pub workload: CounterWorkload,
    pub outcome: CounterOutcome,
    pub checks: Vec<CounterCheck>,
    /// Seconds the counters pass took.
    pub seconds: f64,
}

/// Rounds of the bank reads (32 accesses a lane each).
const BANK_ROUNDS: u32 = 8;

/// Runs each of `workloads` on the first device under the counters pass,
/// telling `trace` CUPTI's steps; stops early when the counters are off.
pub fn counter_runs(
    testbed: &Testbed,
    workloads: &[CounterWorkload],
    trace: &mut dyn FnMut(&str),
) -> Result<Vec<CounterRun>> {
    let dut = first(testbed);
    let info = dut.info();
    let bytes = (4 * info.l2_cache_bytes.max(0) as u64).max(256 << 20);
    let len = (bytes / 4) as usize;
    let mut copies: Option<CudaCopyRunner<'_, f32>> = None;
    let sms = info.multiprocessors.max(1) as u32;
    let mut cycles = DeviceBuffer::<u64>::uninit(dut.gpu(), kernels_gpu::block_span::BLOCK_SPAN_WORDS * sms as usize)?;
    let mut checksums = DeviceBuffer::<u32>::uninit(dut.gpu(), (sms * BANK_BLOCK_THREADS) as usize)?;
    let mut runs = Vec::new();
    for &workload in workloads {
        let start = std::time::Instant::now();
        let (outcome, checks) = match workload {
            CounterWorkload::StrideCopy(stride) => {
                if copies.is_none() {
                    copies = Some(CudaCopyRunner::new(dut, vec![Implementation::Rust], len)?);
                }
                let runner = copies.as_mut().expect("made above");
                let threads = CopyKernel::Stride.threads(len, stride);
                let outcome = count_traced(
                    testbed,
                    dut,
                    &mut || runner.launch(Implementation::Rust, CopyKernel::Stride, threads, stride),
                    trace,
                )?;
                let modelled = stride_copy_bytes(threads, stride, 4) as f64;
                let checks = match &outcome {
                    CounterOutcome::Counted(c) => c
                        .dram_bytes()
                        .map(|counted| {
                            CounterCheck::new(format!("DRAM bytes of {}", workload.label()), modelled, counted)
                        })
                        .into_iter()
                        .collect(),
                    _ => Vec::new(),
                };
                (outcome, checks)
            }
            CounterWorkload::BankRead(stride) => {
                let kernel = BankKernel::StridedRead(BankAccess::Bytes4);
                let blocks = sms;
                let outcome = count_traced(
                    testbed,
                    dut,
                    &mut || {
                        bank_kernel(
                            dut,
                            Implementation::Rust,
                            kernel,
                            stride,
                            BANK_ROUNDS,
                            (BANK_BLOCK_THREADS, blocks),
                            &mut cycles,
                            &mut checksums,
                        )
                    },
                    trace,
                )?;
                let passes = conflict_degree(&strided_lane_addresses(stride as u64, 4), 4, 32, 4) as f64;
                let checks = match &outcome {
                    CounterOutcome::Counted(c) => c
                        .wavefronts_per_request(SharedAccess::Load)
                        .map(|counted| {
                            CounterCheck::new(
                                format!("shared-memory passes per request of {}", workload.label()),
                                passes,
                                counted,
                            )
                        })
                        .into_iter()
                        .collect(),
                    _ => Vec::new(),
                };
                (outcome, checks)
            }
        };
        let off = matches!(outcome, CounterOutcome::Off(_));
        runs.push(CounterRun {
            workload,
            outcome,
            checks,
            seconds: start.elapsed().as_secs_f64(),
        });
        if off {
            break;
        }
    }
    Ok(runs)
}

/// The self-test row: a unit-stride copy's DRAM bytes and the bank reads'
/// passes at strides 1 and 32 from the counters, each within 10% of the
/// model; waived without CUPTI, permission or support.
pub(super) fn hardware_counters(testbed: &Testbed) -> Result<()> {
    if let Err(why) = testbed.counters() {
        return Err(Error::Waived(why.to_string()));
    }
    let workloads = [
        CounterWorkload::StrideCopy(1),
        CounterWorkload::BankRead(1),
        CounterWorkload::BankRead(32),
    ];
    for run in counter_runs(testbed, &workloads, &mut |_| {})? {
        let label = run.workload.label();
        match run.outcome {
            CounterOutcome::Off(why) => return Err(Error::Waived(why)),
            CounterOutcome::Failed(why) => {
                return Err(Error::Library(format!("counters of {label}: {why}")));
            }
            CounterOutcome::Counted(_) if run.checks.is_empty() => {
                return Err(Error::Library(format!(
                    "counters of {label}: CUPTI gave none of the metrics its check needs"
                )));
            }
            CounterOutcome::Counted(_) => {
                if let Some(check) = run.checks.iter().find(|c| !c.agrees()) {
                    return Err(Error::Verification {
                        what: format!("hardware counters of {label}"),
                        detail: format!("{} (more than 10% apart)", check.describe()),
                    });
                }
            }
        }
    }
    Ok(())
}

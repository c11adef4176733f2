use super::CudaAllocationRunner;
use crate::error::Result;
use crate::gpu::MemoryPool;
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation};

/// What one series of the family measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocationCase {
    /// `cuMemAlloc` then `cuMemFree` of the size.
    AllocFree,
    /// `cuMemAllocAsync` then `cuMemFreeAsync` from the default pool, the stream waited for once per sample.
    PooledAllocFree,
    /// Reuse: a 4-byte copy into a kept buffer and back, waited for (no allocation at all).
    Reuse,
    /// One kernel launch (a one-element copy) waited for.
    LaunchAndWait,
}

impl AllocationCase {
    pub const ALL: [Self; 4] = [Self::AllocFree, Self::PooledAllocFree, Self::Reuse, Self::LaunchAndWait];

    pub fn label(self) -> &'static str {
        match self {
            Self::AllocFree => "cuMemAlloc + cuMemFree",
            Self::PooledAllocFree => "cuMemAllocAsync + cuMemFreeAsync (pooled)",
            Self::Reuse => "reuse: 4-byte copy into a kept buffer and back",
            Self::LaunchAndWait => "one kernel launch, waited for",
        }
    }

    /// (call or kernel, implementation, variant) of the series key.
    pub fn key(self) -> (&'static str, Implementation, &'static str) {
        match self {
            Self::AllocFree => ("cuMemAlloc+cuMemFree", Implementation::CopyEngine, ""),
            Self::PooledAllocFree => ("cuMemAllocAsync+cuMemFreeAsync", Implementation::CopyEngine, "pooled"),
            Self::Reuse => ("cuMemcpy 4 B", Implementation::CopyEngine, "reuse"),
            Self::LaunchAndWait => ("vector_copy", Implementation::Rust, "launch and wait"),
        }
    }
}

/// What proving a case's memory read back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CaseReadBack {
    /// The memory cases: the last 32-bit word, written and read back.
    LastWord(u32),
    /// The launch: the element a one-element copy of 1.0 wrote into an output zeroed before it.
    CopiedElement(f32),
}

/// One programming model's side of the allocation family: its allocator,
/// its pool (holding what is freed until the runner is dropped), a kept
/// buffer of the largest size and a one-element copy, each case timed by the
/// host clock with the queue waited for at the end of every sample (the
/// blocking calls' time and the stream-ordered calls' work alike).
pub trait AllocationRunner {
    /// Proof that `case`'s memory at `bytes` is real: one allocation of the
    /// case (the kept buffer for reuse) with `value` written into its last
    /// word and read back, or the one-element copy launched and read back.
    fn prove(&mut self, case: AllocationCase, bytes: u64, value: u32) -> Result<CaseReadBack>;
    /// Allocations of `sizes` from the allocator, all held at once, each with
    /// its value written into its last word and read back: (its address, what came back).
    fn odd_sizes(&mut self, sizes: &[(u64, u32)]) -> Result<Vec<(u64, u32)>>;
    /// Milliseconds per pair (or per reuse with `value`, or per launch) of
    /// each sample of `case` at `bytes`
    /// ([`timed_launches`](crate::timing::timed_launches): probed, paced, warmed up).
    fn time(&mut self, case: AllocationCase, bytes: u64, value: u32, settings: &RunSettings) -> Result<Vec<f64>>;
    /// Bytes the pool holds from the device now.
    fn pool_reserved_bytes(&self) -> Result<u64>;
}

/// Whether `dut` has stream-ordered memory pools (what the pooled case draws on).
pub fn stream_ordered_pools(dut: &DeviceUnderTest) -> Result<bool> {
    MemoryPool::supported(dut.gpu())
}

/// Every runner of the family on `dut`, with room for cases of up to
/// `largest` bytes: the one place a programming model is added. Returns the
/// runners (CUDA's driver calls) and, for each series left out, what and why:
/// none, since OpenCL has no stream-ordered allocator to set beside it.
#[allow(clippy::type_complexity)]
pub fn allocation_runners(
    dut: &DeviceUnderTest,
    largest: u64,
) -> Result<(Vec<Box<dyn AllocationRunner + '_>>, Vec<(String, String)>)> {
    let runners: Vec<Box<dyn AllocationRunner + '_>> = vec![Box::new(CudaAllocationRunner::new(dut, largest)?)];
    Ok((runners, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::AllocationCase;
    use crate::testbed::Implementation::{CopyEngine, Rust};

    #[test]
    fn the_cases_keep_their_series_keys_labels_and_order() {
        let keys: Vec<_> = AllocationCase::ALL.iter().map(|c| (c.key(), c.label())).collect();
        assert_eq!(
            keys,
            [
                (("cuMemAlloc+cuMemFree", CopyEngine, ""), "cuMemAlloc + cuMemFree"),
                (
                    ("cuMemAllocAsync+cuMemFreeAsync", CopyEngine, "pooled"),
                    "cuMemAllocAsync + cuMemFreeAsync (pooled)"
                ),
                (
                    ("cuMemcpy 4 B", CopyEngine, "reuse"),
                    "reuse: 4-byte copy into a kept buffer and back"
                ),
                (
                    ("vector_copy", Rust, "launch and wait"),
                    "one kernel launch, waited for"
                ),
            ]
        );
    }
}

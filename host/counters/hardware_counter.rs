//! The hardware counters the suite asks CUPTI for, by their metric names
//! (Nsight Compute's and CUPTI's names, on Volta and later GPUs), each with
//! what it counts over one launch. All are the SM's and the memory system's
//! own counters: none of the `smsp__sass_*` metrics, which CUPTI counts
//! outside the hardware's per-pass budget and the range profiler may refuse
//! (their hardware twins, `smsp__inst_executed_op_shared_ld` and
//! `smsp__thread_inst_executed`, count the same instructions).

/// One counter of the set every collection asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HardwareCounter {
    /// Bytes read from device memory (DRAM/HBM).
    DramReadBytes,
    /// Bytes written to device memory.
    DramWriteBytes,
    /// Bytes of every request the L2 served (reads, writes, atomics).
    L2Bytes,
    /// Shared-memory wavefronts (passes through the banks), loads and stores.
    SharedWavefronts,
    /// Shared-memory wavefronts of loads.
    SharedLoadWavefronts,
    /// Shared-memory wavefronts of stores.
    SharedStoreWavefronts,
    /// Bank conflicts of shared-memory loads (extra wavefronts, as the hardware counts them).
    SharedLoadConflicts,
    /// Bank conflicts of shared-memory stores.
    SharedStoreConflicts,
    /// Shared-memory load instructions executed (warp requests).
    SharedLoadRequests,
    /// Shared-memory store instructions executed (warp requests).
    SharedStoreRequests,
    /// Bytes of local-memory loads at L1.
    LocalLoadBytes,
    /// Bytes of local-memory stores at L1.
    LocalStoreBytes,
    /// SASS instructions executed, counted once per warp.
    WarpInstructions,
    /// SASS instructions executed, counted once per active thread.
    ThreadInstructions,
    /// Warps launched.
    WarpsLaunched,
    /// SM cycles elapsed over the range (mean over the SMs).
    SmCycles,
}

impl HardwareCounter {
    /// Every counter, in the order a collection asks for them.
    pub const ALL: [Self; 16] = [
        Self::DramReadBytes,
        Self::DramWriteBytes,
        Self::L2Bytes,
        Self::SharedWavefronts,
        Self::SharedLoadWavefronts,
        Self::SharedStoreWavefronts,
        Self::SharedLoadConflicts,
        Self::SharedStoreConflicts,
        Self::SharedLoadRequests,
        Self::SharedStoreRequests,
        Self::LocalLoadBytes,
        Self::LocalStoreBytes,
        Self::WarpInstructions,
        Self::ThreadInstructions,
        Self::WarpsLaunched,
        Self::SmCycles,
    ];

    /// The metric's name as CUPTI takes it.
    pub fn metric(self) -> &'static str {
        match self {
            Self::DramReadBytes => "dram__bytes_read.sum",
            Self::DramWriteBytes => "dram__bytes_write.sum",
            Self::L2Bytes => "lts__t_bytes.sum",
            Self::SharedWavefronts => "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
            Self::SharedLoadWavefronts => "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
            Self::SharedStoreWavefronts => "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
            Self::SharedLoadConflicts => "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
            Self::SharedStoreConflicts => "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
            Self::SharedLoadRequests => "smsp__inst_executed_op_shared_ld.sum",
            Self::SharedStoreRequests => "smsp__inst_executed_op_shared_st.sum",
            Self::LocalLoadBytes => "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum",
            Self::LocalStoreBytes => "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum",
            Self::WarpInstructions => "smsp__inst_executed.sum",
            Self::ThreadInstructions => "smsp__thread_inst_executed.sum",
            Self::WarpsLaunched => "smsp__warps_launched.sum",
            Self::SmCycles => "sm__cycles_elapsed.avg",
        }
    }

    /// The counter of a metric name.
    pub fn of_metric(metric: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.metric() == metric)
    }

    /// Every metric name, for a collection.
    pub fn metrics() -> Vec<&'static str> {
        Self::ALL.iter().map(|c| c.metric()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::HardwareCounter;

    #[test]
    fn every_counter_has_its_own_metric_and_comes_back_from_it() {
        let metrics = HardwareCounter::metrics();
        for (i, m) in metrics.iter().enumerate() {
            assert!(!metrics[..i].contains(m), "{m} twice");
            assert!(
                m.contains("__") && m.contains('.'),
                "{m} is not a unit__counter.rollup name"
            );
            assert_eq!(HardwareCounter::of_metric(m).map(|c| c.metric()), Some(*m));
        }
        assert_eq!(HardwareCounter::of_metric("nonsense__x.sum"), None);
    }
}

//! The counters of one launch, as the report uses them: raw metric values
//! by name, and the figures the experiments put beside their models.

use std::collections::BTreeMap;

use super::HardwareCounter;

/// A point's extra figures that come from the counters (the "(counters)" suffix marks them).
pub const DRAM_GBPS: &str = "DRAM GB/s (counters)";
pub const WAVEFRONTS_PER_REQUEST: &str = "shared wavefronts/request (counters)";
pub const CONFLICTS_PER_REQUEST: &str = "bank conflicts/request (counters)";
pub const LOCAL_BYTES_PER_THREAD: &str = "local B/thread (counters)";
pub const SASS_PER_ELEMENT: &str = "SASS instructions/element (counters)";
pub const SASS_PER_WARP: &str = "SASS instructions/warp (counters)";

/// Whether a shared-memory figure is about loads or stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedAccess {
    Load,
    Store,
}

/// One launch's counters: every metric the chip gave, by metric name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counted {
    pub values: BTreeMap<String, f64>,
    /// Replays the collection needed.
    pub passes: usize,
}

impl Counted {
    /// Counters from (metric, value) pairs; values that are not finite and non-negative are left out.
    pub fn of(values: impl IntoIterator<Item = (String, f64)>, passes: usize) -> Self {
        Self {
            values: values.into_iter().filter(|(_, v)| v.is_finite() && *v >= 0.0).collect(),
            passes,
        }
    }

    /// The counters a report point stored.
    pub fn stored(values: &BTreeMap<String, f64>) -> Option<Self> {
        (!values.is_empty()).then(|| Self {
            values: values.clone(),
            passes: 0,
        })
    }

    pub fn get(&self, counter: HardwareCounter) -> Option<f64> {
        self.values.get(counter.metric()).copied()
    }

    /// Bytes read from and written to device memory.
    pub fn dram_bytes(&self) -> Option<f64> {
        Some(self.get(HardwareCounter::DramReadBytes)? + self.get(HardwareCounter::DramWriteBytes)?)
    }

    /// Local-memory bytes loaded and stored at L1.
    pub fn local_bytes(&self) -> Option<f64> {
        Some(self.get(HardwareCounter::LocalLoadBytes)? + self.get(HardwareCounter::LocalStoreBytes)?)
    }

    fn shared(&self, access: SharedAccess) -> [Option<f64>; 3] {
        match access {
            SharedAccess::Load => [
                self.get(HardwareCounter::SharedLoadWavefronts),
                self.get(HardwareCounter::SharedLoadConflicts),
                self.get(HardwareCounter::SharedLoadRequests),
            ],
            SharedAccess::Store => [
                self.get(HardwareCounter::SharedStoreWavefronts),
                self.get(HardwareCounter::SharedStoreConflicts),
                self.get(HardwareCounter::SharedStoreRequests),
            ],
        }
    }

    /// Shared-memory wavefronts per warp request of `access`: the passes the banks
    /// needed (1 without conflicts for 4-byte words).
    pub fn wavefronts_per_request(&self, access: SharedAccess) -> Option<f64> {
        let [wavefronts, _, requests] = self.shared(access);
        let requests = requests.filter(|&r| r > 0.0)?;
        Some(wavefronts? / requests)
    }

    /// Bank conflicts per warp request of `access`, as the hardware counts them.
    pub fn conflicts_per_request(&self, access: SharedAccess) -> Option<f64> {
        let [_, conflicts, requests] = self.shared(access);
        let requests = requests.filter(|&r| r > 0.0)?;
        Some(conflicts? / requests)
    }

    /// SASS instructions per element, counting each active thread's (`elements`: the work items
    /// the experiment counts, e.g. elements copied, operations).
    pub fn thread_instructions_per(&self, elements: f64) -> Option<f64> {
        (elements > 0.0).then(|| self.get(HardwareCounter::ThreadInstructions).map(|i| i / elements))?
    }

    /// SASS instructions per warp launched (each counted once per warp).
    pub fn instructions_per_warp(&self) -> Option<f64> {
        let warps = self.get(HardwareCounter::WarpsLaunched).filter(|&w| w > 0.0)?;
        Some(self.get(HardwareCounter::WarpInstructions)? / warps)
    }
}

#[cfg(test)]
mod tests {
    use super::{Counted, SharedAccess};
    use crate::counters::HardwareCounter;

    fn counted(pairs: &[(HardwareCounter, f64)]) -> Counted {
        Counted::of(pairs.iter().map(|(c, v)| (c.metric().to_string(), *v)), 2)
    }

    #[test]
    fn figures_come_from_their_metrics() {
        let c = counted(&[
            (HardwareCounter::DramReadBytes, 3e9),
            (HardwareCounter::DramWriteBytes, 1e9),
            (HardwareCounter::SharedLoadWavefronts, 3200.0),
            (HardwareCounter::SharedLoadConflicts, 3100.0),
            (HardwareCounter::SharedLoadRequests, 100.0),
            (HardwareCounter::LocalLoadBytes, 10.0),
            (HardwareCounter::LocalStoreBytes, 6.0),
            (HardwareCounter::WarpInstructions, 640.0),
            (HardwareCounter::ThreadInstructions, 20480.0),
            (HardwareCounter::WarpsLaunched, 64.0),
        ]);
        assert_eq!(c.dram_bytes(), Some(4e9));
        assert_eq!(c.local_bytes(), Some(16.0));
        assert_eq!(c.wavefronts_per_request(SharedAccess::Load), Some(32.0));
        assert_eq!(c.conflicts_per_request(SharedAccess::Load), Some(31.0));
        assert_eq!(c.wavefronts_per_request(SharedAccess::Store), None, "no store counters");
        assert_eq!(c.instructions_per_warp(), Some(10.0));
        assert_eq!(c.thread_instructions_per(2048.0), Some(10.0));
        assert_eq!(c.thread_instructions_per(0.0), None);
    }

    #[test]
    fn impossible_values_and_missing_halves_give_no_figure() {
        let c = Counted::of(
            [
                ("dram__bytes_read.sum".to_string(), f64::NAN),
                ("dram__bytes_write.sum".to_string(), 5.0),
                ("smsp__inst_executed_op_shared_ld.sum".to_string(), 0.0),
                ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum".to_string(), 4.0),
                ("lts__t_bytes.sum".to_string(), -1.0),
            ],
            1,
        );
        assert_eq!(c.values.len(), 3, "NaN and negative values dropped");
        assert_eq!(c.dram_bytes(), None, "no read bytes, no total");
        assert_eq!(c.wavefronts_per_request(SharedAccess::Load), None, "no requests");
    }
}

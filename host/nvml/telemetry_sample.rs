//! Reading a GPU's clocks, power, temperature and clock event reasons, and
//! one such reading of every GPU of the run.

use super::NvmlDevice;
use super::nvml_device::ClockDomain;
use crate::facts::TelemetrySample;

/// The NVML layer fills the report's telemetry samples from the library.
impl TelemetrySample {
    /// Reads `device` now (a handful of NVML calls, well under a millisecond each).
    pub fn read(device: &NvmlDevice) -> Self {
        Self {
            sm_clock_mhz: device.clock_mhz(ClockDomain::Sm).ok(),
            memory_clock_mhz: device.clock_mhz(ClockDomain::Memory).ok(),
            power_mw: device.power_usage_mw().ok(),
            temperature_c: device.temperature_c().ok(),
            reason_bits: device.clock_event_reason_bits().ok(),
            pcie_generation: device.current_pcie_generation().ok(),
        }
    }
}

/// One reading of every GPU of the run, `at_ms` after sampling started.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleRound {
    pub at_ms: f64,
    /// One per GPU, in the order of [`NvmlGpus::gpus`](super::NvmlGpus::gpus).
    pub samples: Vec<TelemetrySample>,
}

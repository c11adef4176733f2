//! One reading of a GPU's clocks, power, temperature and clock event reasons.

use super::NvmlDevice;
use super::nvml_device::ClockDomain;

/// What a GPU reported at one instant; a figure it would not give is `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TelemetrySample {
    pub sm_clock_mhz: Option<u32>,
    pub memory_clock_mhz: Option<u32>,
    pub power_mw: Option<u32>,
    pub temperature_c: Option<u32>,
    /// [`ClockEventReason`](super::ClockEventReason) bits.
    pub reason_bits: Option<u64>,
    pub pcie_generation: Option<u32>,
}

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

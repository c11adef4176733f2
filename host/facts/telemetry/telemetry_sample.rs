//! One reading of a GPU's clocks, power, temperature and clock event reasons.

/// What a GPU reported at one instant; a figure it would not give is `None`.
/// The NVML layer reads it (`TelemetrySample::read` in host/nvml/).
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

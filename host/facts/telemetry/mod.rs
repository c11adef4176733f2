//! The report's telemetry section as data: per GPU what NVML says does not
//! change during a run (its PCI location, PCIe link, NVLinks, maximum clocks,
//! power limit) and what its clocks, power and temperature did, summarised
//! for the whole run and per experiment; the link bandwidths derived from it.
//!
//! The NVML layer (host/nvml/) reads the library and fills these in; the
//! report stores and renders them without depending on that layer.

mod clock_event_reasons;
mod interconnect;
mod link_speeds;
mod matched_by;
mod nvml_device_facts;
mod pci_location;
mod telemetry_record;
mod telemetry_sample;
mod telemetry_summary;

pub use clock_event_reasons::ClockEventReason;
pub use interconnect::{Interconnect, NvLinkRoute};
pub use link_speeds::{NvLinkVersion, pcie_lane_gbps, pcie_theoretical_gbps};
pub use matched_by::MatchedBy;
pub use nvml_device_facts::{LinkEnd, LinkSpeedSource, NvLinkFacts, NvmlDeviceFacts, PcieLinkFacts};
pub use pci_location::PciLocation;
pub use telemetry_record::{DeviceTelemetry, ExperimentTelemetry, TelemetryRecord};
pub use telemetry_sample::TelemetrySample;
pub use telemetry_summary::{ReasonCount, TelemetrySummary};

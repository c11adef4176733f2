//! NVIDIA's management library (NVML), loaded at run time: which GPU is
//! which, the links between them and to the host (NVLink, PCIe), and the
//! clocks, power, temperature and clock event reasons during a run.
//!
//! A sibling of [`crate::gpu`] and [`crate::opencl`], never imported by
//! them. `libnvidia-ml.so.1` is opened with `dlopen` (libloading) and a
//! few dozen entry points are resolved by name; nothing is needed to build.
//! A machine without NVML gets a note in its report, never an error.

mod clock_event_reasons;
mod device_facts;
mod device_match;
mod ffi;
mod interconnect;
mod library;
mod link_speeds;
mod nvml_device;
mod nvml_error;
mod nvml_gpus;
mod pci_location;
mod telemetry_record;
mod telemetry_sample;
mod telemetry_sampler;
mod telemetry_summary;

pub use clock_event_reasons::ClockEventReason;
pub use device_facts::{LinkEnd, LinkSpeedSource, NvLinkFacts, NvmlDeviceFacts, PcieLinkFacts};
pub use device_match::{CudaDeviceId, MatchedBy, NvmlDeviceId, match_device};
pub use interconnect::{Interconnect, NvLinkRoute};
pub use library::{NVML_LIBRARY_CANDIDATES, Nvml};
pub use link_speeds::{NvLinkVersion, pcie_lane_gbps, pcie_theoretical_gbps};
pub use nvml_device::{ClockDomain, NvmlDevice};
pub use nvml_error::{NvmlError, NvmlResult};
pub use nvml_gpus::{MatchedGpu, NvmlGpus};
pub use pci_location::PciLocation;
pub use telemetry_record::{DeviceTelemetry, ExperimentTelemetry, ExperimentWindow, TelemetryRecord};
pub use telemetry_sample::{SampleRound, TelemetrySample};
pub use telemetry_sampler::{DEFAULT_SAMPLE_INTERVAL, TelemetrySampler, WindowStart};
pub use telemetry_summary::{ReasonCount, TelemetrySummary};

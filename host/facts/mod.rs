//! The plain facts a run records and a report stores: a GPU's properties and
//! CUDA ordinal, what the compilers made of each kernel, who wrote the code
//! being measured, and what NVML said of each GPU's links, clocks and power
//! (the report's telemetry section).
//!
//! This module imports nothing from the rest of the crate but
//! [`crate::stats::Summary`] (min / median / max, itself importing nothing):
//! the runtime layers (host/gpu/, host/opencl/, host/nvml/, host/testbed/)
//! fill these types in, and the report (host/report/) stores and reads them
//! without depending on those layers. `tests/layers.rs` keeps it so.

mod cl_kernel_resources;
mod cuda_ordinal;
mod device_info;
mod implementation;
mod kernel_resources;
mod telemetry;

pub use cl_kernel_resources::ClKernelResources;
pub use cuda_ordinal::CudaOrdinal;
pub use device_info::DeviceInfo;
pub use implementation::Implementation;
pub use kernel_resources::KernelResources;
pub use telemetry::{
    ClockEventReason, DeviceTelemetry, ExperimentTelemetry, Interconnect, LinkEnd, LinkSpeedSource, MatchedBy,
    NvLinkFacts, NvLinkRoute, NvLinkVersion, NvmlDeviceFacts, PciLocation, PcieLinkFacts, ReasonCount, TelemetryRecord,
    TelemetrySample, TelemetrySummary, pcie_lane_gbps, pcie_theoretical_gbps,
};

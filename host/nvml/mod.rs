//! NVIDIA's management library (NVML), loaded at run time: which GPU is
//! which, the links between them and to the host (NVLink, PCIe), and the
//! clocks, power, temperature and clock event reasons during a run.
//!
//! A sibling of [`crate::gpu`] and [`crate::opencl`], never imported by
//! them. `libnvidia-ml.so.1` is opened with `dlopen` (libloading) and a
//! few dozen entry points are resolved by name; nothing is needed to build.
//! A machine without NVML gets a note in its report, never an error.
//!
//! A pure runtime layer: what it reads is the report's data, defined in
//! [`crate::facts`] (`NvmlDeviceFacts`, `TelemetrySample`, `TelemetryRecord`…)
//! and filled in here.

mod device_facts;
mod device_match;
mod ffi;
mod library;
mod nvml_device;
mod nvml_error;
mod nvml_gpus;
mod telemetry_record;
mod telemetry_sample;
mod telemetry_sampler;

pub use device_match::{CudaDeviceId, NvmlDeviceId, match_device};
pub use library::{NVML_LIBRARY_CANDIDATES, Nvml};
pub use nvml_device::{ClockDomain, NvmlDevice};
pub use nvml_error::{NvmlError, NvmlResult};
pub use nvml_gpus::{MatchedGpu, NvmlGpus};
pub use telemetry_record::ExperimentWindow;
pub use telemetry_sample::SampleRound;
pub use telemetry_sampler::{DEFAULT_SAMPLE_INTERVAL, TelemetrySampler, WindowStart};

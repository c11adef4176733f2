//! What the suite reports about a GPU: the facts the driver gives (`ptxsuite
//! info` and every report). The GPU layer (host/gpu/) queries them.

use serde::{Deserialize, Serialize};

use super::CudaOrdinal;

/// What the suite reports about a GPU (in `ptxsuite info` and every report).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// The GPU's CUDA ordinal (what reports call it by), not its place in the run.
    pub ordinal: CudaOrdinal,
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessors: i32,
    pub l2_cache_bytes: i64,
    pub total_memory_bytes: u64,
    /// Peak memory clock in kHz, as the driver reports it (0 if it does not).
    pub memory_clock_khz: i64,
    pub memory_bus_width_bits: i64,
    /// Peak SM clock in kHz, as the driver reports it.
    pub sm_clock_khz: i64,
    /// `memory clock × bus width / 8 × 2` (double data rate), GB = 1e9 bytes.
    pub theoretical_bandwidth_gbps: f64,
    pub ecc_enabled: bool,
    pub can_map_host_memory: bool,
    pub async_copy_engines: i32,
    pub max_threads_per_multiprocessor: i32,
    pub max_shared_memory_per_multiprocessor: i64,
    pub pci_bus_id: String,
    /// Texels a 1-D texture over linear memory may have (the texture path's size limit).
    #[serde(default)]
    pub max_texture_1d_linear_texels: i64,
    /// `cuDeviceGetUuid`: what OpenCL (`cl_khr_device_uuid`), NVML and EGL
    /// call the same GPU by (reports written before it load with none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    /// `cuDriverGetVersion`, e.g. 13000 for CUDA 13.0.
    pub driver_version: i32,
    /// The PCIe link the GPU sits on, from Linux sysfs (e.g. "32.0 GT/s PCIe x16"),
    /// when the system exposes it.
    #[serde(default)]
    pub pcie_link: Option<String>,
}

impl DeviceInfo {
    /// `13.0` from 13000.
    pub fn driver_version_string(&self) -> String {
        format!("{}.{}", self.driver_version / 1000, (self.driver_version % 1000) / 10)
    }

    /// The compute capability as `(major, minor)` (the driver reports non-negative ints).
    pub fn architecture(&self) -> (u32, u32) {
        let (major, minor) = self.compute_capability;
        (major.max(0) as u32, minor.max(0) as u32)
    }

    /// `sm_90` for compute capability 9.0.
    pub fn sm_name(&self) -> String {
        format!("sm_{}{}", self.compute_capability.0, self.compute_capability.1)
    }
}

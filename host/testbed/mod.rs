//! The testbed: the GPUs under test and the implementations available on
//! them. This is where the suite's own code (the Rust PTX, the CUDA C twins,
//! later other runtimes) meets the pure driver layer of [`crate::gpu`].
//!
//! Experiments ask the testbed what it has ([`Testbed::devices`],
//! [`DeviceUnderTest::ptx_implementations`], [`DeviceUnderTest::cublas`]) and
//! are *waived*, with the reason, when it lacks what they need.

mod cuda_c_twins;
mod device_selection;
mod device_under_test;
mod implementation;
mod opencl_side;

/// Who wrote the code being measured (the report's name for a series).
pub use crate::facts::Implementation;
pub use cuda_c_twins::{CUDA_C_SOURCE, FAST_MATH_OPTION, compile_fast_math_twins, compile_twins};
pub use device_selection::DeviceSelection;
pub use device_under_test::DeviceUnderTest;
pub use implementation::ImplementationSet;
pub use opencl_side::OpenClSide;

use std::sync::OnceLock;

use crate::cupti::CounterCollector;
use crate::error::{Error, Result};
use crate::facts::CudaOrdinal;
use crate::gpu::Gpu;
use crate::nvml::{CudaDeviceId, NvmlGpus};

/// The devices under test and what the run may measure on them.
pub struct Testbed {
    devices: Vec<DeviceUnderTest>,
    selected: ImplementationSet,
    /// NVML and the devices it matched, opened on first use, or why not.
    nvml: OnceLock<std::result::Result<NvmlGpus, String>>,
    /// CUPTI for the hardware counters, opened on first use (`--counters`), or why not.
    counters: OnceLock<std::result::Result<CounterCollector, String>>,
}

impl Testbed {
    /// Opens the selected devices with the selected implementations loaded.
    /// The selection is checked against the machine before anything is opened.
    pub fn open(devices: &DeviceSelection, selected: &ImplementationSet) -> Result<Self> {
        let ordinals = devices.resolve(Gpu::device_count()?)?;
        let devices = ordinals
            .into_iter()
            .map(|ordinal| DeviceUnderTest::open(ordinal, selected))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            devices,
            selected: selected.clone(),
            nvml: OnceLock::new(),
            counters: OnceLock::new(),
        })
    }

    /// A testbed of devices opened elsewhere (tests, selftest).
    pub fn of(devices: Vec<DeviceUnderTest>, selected: ImplementationSet) -> Result<Self> {
        if devices.is_empty() {
            return Err(Error::NoDevice);
        }
        Ok(Self {
            devices,
            selected,
            nvml: OnceLock::new(),
            counters: OnceLock::new(),
        })
    }

    pub fn devices(&self) -> &[DeviceUnderTest] {
        &self.devices
    }

    /// The implementations the run selected (`--impl`).
    pub fn selected(&self) -> &ImplementationSet {
        &self.selected
    }

    /// `Ok` when the testbed has at least `count` GPUs, else the waiver's reason.
    pub fn needs_gpus(&self, count: usize) -> std::result::Result<(), String> {
        if self.devices.len() >= count {
            Ok(())
        } else {
            Err(format!(
                "needs {count} GPUs; this run has {} (--device)",
                self.devices.len()
            ))
        }
    }

    /// NVML with the devices under test matched to their NVML devices (opened on first
    /// use), or why not: the telemetry, the link facts and the theoretical link bandwidths.
    pub fn nvml(&self) -> std::result::Result<&NvmlGpus, &str> {
        self.nvml
            .get_or_init(|| {
                let ids: Vec<CudaDeviceId> = self.devices.iter().map(|d| CudaDeviceId::of(d.info())).collect();
                NvmlGpus::open(&ids).map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// CUPTI for the hardware counters (opened on first use), or why there are none.
    pub fn counters(&self) -> std::result::Result<&CounterCollector, &str> {
        self.counters
            .get_or_init(|| CounterCollector::open().map_err(|e| e.waiver_reason()))
            .as_ref()
            .map_err(String::as_str)
    }

    /// Theoretical NVLink bandwidth from GPU `src` to GPU `dst` (CUDA ordinals), GB/s per
    /// direction: the links between them × their speed, from NVML. `None` without NVML or
    /// without an NVLink route between them.
    pub fn nvlink_theoretical_gbps(&self, src: CudaOrdinal, dst: CudaOrdinal) -> Option<f64> {
        self.nvml().ok()?.interconnect().nvlink_theoretical_gbps(src, dst)
    }

    /// Theoretical PCIe bandwidth of GPU `ordinal`'s host link, GB/s per direction, at the
    /// link's maximum generation and width (NVML); `None` without NVML.
    pub fn pcie_theoretical_gbps(&self, ordinal: CudaOrdinal) -> Option<f64> {
        self.nvml().ok()?.interconnect().pcie_theoretical_gbps(ordinal)
    }
}

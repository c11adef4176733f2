//! The OpenCL runtime, loaded at run time: the ICD loader (`libOpenCL.so.1`)
//! through cl3's `dynamic` feature, and every device of every platform it lists.

use std::sync::Mutex;

use cl3::device::{CL_DEVICE_TYPE_ALL, get_device_ids};
use cl3::platform::get_platform_ids;

use super::device_matching::{DeviceMatch, match_device};
use super::{ClDeviceType, OpenClDevice, OpenClDeviceInfo};

/// `CL_PLATFORM_NOT_FOUND_KHR`: the ICD loader found no driver.
const CL_PLATFORM_NOT_FOUND_KHR: i32 = -1001;

/// The OpenCL devices of this machine.
pub struct OpenClRuntime {
    devices: Vec<OpenClDevice>,
}

impl OpenClRuntime {
    /// Loads the ICD loader and lists every device of every platform. `Err`
    /// says why OpenCL is not usable here (no loader, no platform, no device),
    /// in words a report can show.
    pub fn load() -> Result<Self, String> {
        // Serialized: a first clGetPlatformIDs from several threads at once lost
        // PoCL's device or crashed (ocl-icd 2.3 with PoCL 3.1, tests run in parallel).
        static LOADING: Mutex<()> = Mutex::new(());
        let _one_at_a_time = LOADING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !cl3::is_opencl_runtime_available() {
            return Err("libOpenCL.so.1 (the OpenCL ICD loader) could not be loaded; install \
                        ocl-icd-libopencl1 and a driver (NVIDIA's, or pocl-opencl-icd for the CPU)"
                .into());
        }
        let platforms = match get_platform_ids() {
            Ok(platforms) => platforms,
            Err(CL_PLATFORM_NOT_FOUND_KHR) => Vec::new(),
            Err(code) => {
                return Err(format!(
                    "clGetPlatformIDs failed: {} ({code})",
                    cl3::error_codes::error_text(code)
                ));
            }
        };
        if platforms.is_empty() {
            return Err("the OpenCL ICD loader lists no platform (no driver registered in /etc/OpenCL/vendors)".into());
        }
        let mut devices = Vec::new();
        for platform in platforms {
            let ids = get_device_ids(platform, CL_DEVICE_TYPE_ALL)
                .map_err(|code| format!("clGetDeviceIDs failed: {} ({code})", cl3::error_codes::error_text(code)))?;
            for id in ids {
                let info =
                    OpenClDeviceInfo::query(platform, id).map_err(|e| format!("describing an OpenCL device: {e}"))?;
                devices.push(OpenClDevice::new(platform, id, info));
            }
        }
        if devices.is_empty() {
            return Err("the OpenCL platforms list no device".into());
        }
        Ok(Self { devices })
    }

    pub fn devices(&self) -> &[OpenClDevice] {
        &self.devices
    }

    /// The OpenCL device that is the CUDA device with `uuid` (all zeros when
    /// unknown) at PCI bus id `pci_bus_id` (CUDA's `0000:00:06.0` form); `Err`
    /// says why none is, listing what every device offers.
    pub fn device_matching(&self, uuid: [u8; 16], pci_bus_id: &str) -> Result<OpenClDevice, String> {
        self.device_matching_how(uuid, pci_bus_id).map(|(device, _)| device)
    }

    /// As [`device_matching`](Self::device_matching), also saying whether the UUID or the PCI address matched.
    pub fn device_matching_how(&self, uuid: [u8; 16], pci_bus_id: &str) -> Result<(OpenClDevice, DeviceMatch), String> {
        let infos: Vec<&OpenClDeviceInfo> = self.devices.iter().map(OpenClDevice::info).collect();
        let (index, how) = match_device(&infos, uuid, pci_bus_id)?;
        Ok((self.devices[index].clone(), how))
    }

    /// The first CPU device (PoCL's, in the tests).
    pub fn first_cpu_device(&self) -> Option<OpenClDevice> {
        self.devices
            .iter()
            .find(|d| d.info().device_type == ClDeviceType::Cpu)
            .cloned()
    }

    /// The first GPU of NVIDIA's OpenCL driver. For tests that only need some
    /// NVIDIA device; measurements pick theirs with [`device_matching`](Self::device_matching).
    pub fn first_nvidia_gpu(&self) -> Option<OpenClDevice> {
        self.devices
            .iter()
            .find(|d| d.info().device_type == ClDeviceType::Gpu && d.info().is_nvidia())
            .cloned()
    }
}

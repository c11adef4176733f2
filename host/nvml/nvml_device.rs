//! One GPU as NVML sees it: a handle and the typed queries the suite makes.

use std::ffi::{c_char, c_int, c_uint, c_ulonglong};
use std::sync::Arc;

use super::Nvml;
use super::ffi::{
    FieldValue, NVML_CLOCK_MEM, NVML_CLOCK_SM, NVML_FEATURE_ENABLED, NVML_TEMPERATURE_GPU, PciInfo, RawDevice,
    TEXT_BUFFER_LEN, TemperatureV1, text_of,
};
use super::library::{DeviceText, DeviceUint, DeviceUintOf};
use super::nvml_error::{NvmlError, NvmlResult};
use crate::facts::PciLocation;

/// A clock domain of `nvmlDeviceGetClockInfo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockDomain {
    Sm,
    Memory,
}

impl ClockDomain {
    fn nvml(self) -> c_uint {
        match self {
            Self::Sm => NVML_CLOCK_SM,
            Self::Memory => NVML_CLOCK_MEM,
        }
    }
}

/// A GPU's NVML handle, with the library it belongs to kept alive.
#[derive(Clone)]
pub struct NvmlDevice {
    nvml: Arc<Nvml>,
    handle: RawDevice,
}

// SAFETY: an nvmlDevice_t is an opaque handle that NVML allows any thread to use ("NVML is
// thread-safe so it is safe to make simultaneous NVML calls from multiple threads"); it stays
// valid while the `Nvml` it came from (held here) is initialised.
unsafe impl Send for NvmlDevice {}
// SAFETY: as above; every method only passes the handle to NVML.
unsafe impl Sync for NvmlDevice {}

impl NvmlDevice {
    pub(super) fn new(nvml: Arc<Nvml>, handle: RawDevice) -> Self {
        Self { nvml, handle }
    }

    fn text(&self, call: &'static str, f: DeviceText) -> NvmlResult<String> {
        let mut buffer = [0 as c_char; TEXT_BUFFER_LEN];
        // SAFETY: NVML writes at most `length` bytes, NUL-terminated, into the buffer.
        let status = unsafe { f(self.handle, buffer.as_mut_ptr(), TEXT_BUFFER_LEN as c_uint) };
        self.nvml.check(call, status)?;
        Ok(text_of(&buffer))
    }

    fn uint(&self, call: &'static str, f: Option<DeviceUint>) -> NvmlResult<u32> {
        let f = f.ok_or(NvmlError::MissingFunction(call))?;
        let mut value: c_uint = 0;
        // SAFETY: writes one unsigned int through a valid pointer.
        let status = unsafe { f(self.handle, &mut value) };
        self.nvml.check(call, status)?;
        Ok(value)
    }

    fn uint_of(&self, call: &'static str, f: Option<DeviceUintOf>, argument: c_uint) -> NvmlResult<u32> {
        let f = f.ok_or(NvmlError::MissingFunction(call))?;
        let mut value: c_uint = 0;
        // SAFETY: `argument` is a link index or an enum value the call takes by value; writes one
        // unsigned int (or int-sized enum) through a valid pointer.
        let status = unsafe { f(self.handle, argument, &mut value) };
        self.nvml.check(call, status)?;
        Ok(value)
    }

    /// `GPU-…`.
    pub fn uuid(&self) -> NvmlResult<String> {
        self.text("nvmlDeviceGetUUID", self.nvml.functions().uuid)
    }

    pub fn name(&self) -> NvmlResult<String> {
        self.text("nvmlDeviceGetName", self.nvml.functions().name)
    }

    pub fn pci_location(&self) -> NvmlResult<PciLocation> {
        let mut info = PciInfo::zeroed();
        // SAFETY: fills one nvmlPciInfo_t (layout per nvml.h) through a valid pointer.
        let status = unsafe { (self.nvml.functions().pci_info)(self.handle, &mut info) };
        self.nvml.check("nvmlDeviceGetPciInfo", status)?;
        Ok(PciLocation {
            domain: info.domain,
            bus: info.bus,
            device: info.device,
        })
    }

    pub fn current_pcie_generation(&self) -> NvmlResult<u32> {
        let f = self.nvml.functions().current_pcie_generation;
        self.uint("nvmlDeviceGetCurrPcieLinkGeneration", f)
    }

    /// The highest generation this GPU in this slot can train to.
    pub fn max_pcie_generation(&self) -> NvmlResult<u32> {
        let f = self.nvml.functions().max_pcie_generation;
        self.uint("nvmlDeviceGetMaxPcieLinkGeneration", f)
    }

    /// The highest generation the GPU itself supports (the slot may allow less).
    pub fn gpu_max_pcie_generation(&self) -> NvmlResult<u32> {
        let f = self.nvml.functions().gpu_max_pcie_generation;
        self.uint("nvmlDeviceGetGpuMaxPcieLinkGeneration", f)
    }

    pub fn current_pcie_width(&self) -> NvmlResult<u32> {
        let f = self.nvml.functions().current_pcie_width;
        self.uint("nvmlDeviceGetCurrPcieLinkWidth", f)
    }

    pub fn max_pcie_width(&self) -> NvmlResult<u32> {
        let f = self.nvml.functions().max_pcie_width;
        self.uint("nvmlDeviceGetMaxPcieLinkWidth", f)
    }

    /// The clock now, MHz.
    pub fn clock_mhz(&self, domain: ClockDomain) -> NvmlResult<u32> {
        let f = self.nvml.functions().clock;
        self.uint_of("nvmlDeviceGetClockInfo", f, domain.nvml())
    }

    /// The highest clock the GPU runs at, MHz.
    pub fn max_clock_mhz(&self, domain: ClockDomain) -> NvmlResult<u32> {
        let f = self.nvml.functions().max_clock;
        self.uint_of("nvmlDeviceGetMaxClockInfo", f, domain.nvml())
    }

    /// Board power draw, milliwatts.
    pub fn power_usage_mw(&self) -> NvmlResult<u32> {
        let f = self.nvml.functions().power_usage;
        self.uint("nvmlDeviceGetPowerUsage", f)
    }

    /// The power limit in force, milliwatts.
    pub fn power_limit_mw(&self) -> NvmlResult<u32> {
        let f = self.nvml.functions().power_limit;
        self.uint("nvmlDeviceGetEnforcedPowerLimit", f)
    }

    /// GPU die temperature, °C (through `nvmlDeviceGetTemperatureV` where the older query
    /// is gone or refuses).
    pub fn temperature_c(&self) -> NvmlResult<u32> {
        let f = self.nvml.functions().temperature;
        let old = self.uint_of("nvmlDeviceGetTemperature", f, NVML_TEMPERATURE_GPU);
        let Err(first) = old else {
            return old;
        };
        let Some(query) = self.nvml.functions().temperature_v else {
            return Err(first);
        };
        let mut reading = TemperatureV1::request();
        // SAFETY: fills one versioned nvmlTemperature_v1_t (layout per nvml.h, version set) through
        // a valid pointer.
        let status = unsafe { query(self.handle, &mut reading) };
        self.nvml.check("nvmlDeviceGetTemperatureV", status)?;
        u32::try_from(reading.temperature).map_err(|_| first)
    }

    /// The bits of [`ClockEventReason`](super::ClockEventReason) in force now.
    pub fn clock_event_reason_bits(&self) -> NvmlResult<u64> {
        let call = "nvmlDeviceGetCurrentClocksEventReasons";
        let f = self
            .nvml
            .functions()
            .clock_event_reasons
            .ok_or(NvmlError::MissingFunction(call))?;
        let mut bits: c_ulonglong = 0;
        // SAFETY: writes one unsigned long long through a valid pointer.
        let status = unsafe { f(self.handle, &mut bits) };
        self.nvml.check(call, status)?;
        Ok(bits)
    }

    /// Whether NVLink `link` is up; `Err` (invalid argument, not supported) for a link the GPU lacks.
    pub fn nvlink_active(&self, link: u32) -> NvmlResult<bool> {
        let f = self.nvml.functions().nvlink_state;
        Ok(self.uint_of("nvmlDeviceGetNvLinkState", f, link)? == NVML_FEATURE_ENABLED)
    }

    /// `nvmlNvlinkVersion_t` of `link` (see [`NvLinkVersion::from_nvml`](super::NvLinkVersion::from_nvml)).
    pub fn nvlink_version_code(&self, link: u32) -> NvmlResult<u32> {
        let f = self.nvml.functions().nvlink_version;
        self.uint_of("nvmlDeviceGetNvLinkVersion", f, link)
    }

    /// The PCI location of what `link` leads to (a GPU, an NVSwitch, a CPU).
    pub fn nvlink_remote_location(&self, link: u32) -> NvmlResult<PciLocation> {
        let call = "nvmlDeviceGetNvLinkRemotePciInfo_v2";
        let f = self
            .nvml
            .functions()
            .nvlink_remote_pci
            .ok_or(NvmlError::MissingFunction(call))?;
        let mut info = PciInfo::zeroed();
        // SAFETY: fills one nvmlPciInfo_t through a valid pointer.
        let status = unsafe { f(self.handle, link, &mut info) };
        self.nvml.check(call, status)?;
        Ok(PciLocation {
            domain: info.domain,
            bus: info.bus,
            device: info.device,
        })
    }

    /// `nvmlIntNvLinkDeviceType_t` of what `link` leads to (0 GPU, 1 IBM NPU, 2 switch, 255 unknown).
    pub fn nvlink_remote_type_code(&self, link: u32) -> NvmlResult<u32> {
        let f = self.nvml.functions().nvlink_remote_type;
        self.uint_of("nvmlDeviceGetNvLinkRemoteDeviceType", f, link)
    }

    /// `nvmlDeviceGetFieldValues` for `(field id, scope id)` pairs: each value, or `None`
    /// where NVML could not give it.
    pub fn field_values(&self, requests: &[(u32, u32)]) -> NvmlResult<Vec<Option<f64>>> {
        let call = "nvmlDeviceGetFieldValues";
        let f = self
            .nvml
            .functions()
            .field_values
            .ok_or(NvmlError::MissingFunction(call))?;
        if requests.is_empty() {
            return Ok(Vec::new());
        }
        let mut values: Vec<FieldValue> = requests
            .iter()
            .map(|&(field, scope)| FieldValue::request(field, scope))
            .collect();
        // More than c_int::MAX requests cannot be made; NVML then fills the first ones.
        let count = values.len().min(c_int::MAX as usize) as c_int;
        // SAFETY: `values` holds `count` initialised nvmlFieldValue_t with their field ids set; NVML
        // writes each entry's status and value in place.
        let status = unsafe { f(self.handle, count, values.as_mut_ptr()) };
        self.nvml.check(call, status)?;
        Ok(values.iter().map(FieldValue::number).collect())
    }
}

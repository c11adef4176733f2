//! `libnvidia-ml.so.1`, opened at run time with `dlopen` (libloading) and
//! initialised; [`Nvml`] shuts it down when dropped.

use std::ffi::{c_char, c_int, c_uint, c_ulonglong};
use std::path::Path;

use libloading::Library;

use super::NvmlDevice;
use super::ffi::{FieldValue, NVML_SUCCESS, NvmlReturn, PciInfo, RawDevice, TEXT_BUFFER_LEN, TemperatureV1, text_of};
use super::nvml_error::{NvmlError, NvmlResult};

/// Where NVML is looked for, in order: the loader's search path, then where
/// drivers and container runtimes put it when that path does not list it.
pub const NVML_LIBRARY_CANDIDATES: &[&str] = &[
    "libnvidia-ml.so.1",
    "/usr/local/nvidia/lib64/libnvidia-ml.so.1",
    "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
    "/usr/lib/aarch64-linux-gnu/libnvidia-ml.so.1",
    "/usr/lib64/libnvidia-ml.so.1",
    "/usr/lib/wsl/lib/libnvidia-ml.so.1",
];

type Status = unsafe extern "C" fn() -> NvmlReturn;
type ErrorString = unsafe extern "C" fn(NvmlReturn) -> *const c_char;
type Count = unsafe extern "C" fn(*mut c_uint) -> NvmlReturn;
type HandleByIndex = unsafe extern "C" fn(c_uint, *mut RawDevice) -> NvmlReturn;
type SystemText = unsafe extern "C" fn(*mut c_char, c_uint) -> NvmlReturn;
pub(super) type DeviceText = unsafe extern "C" fn(RawDevice, *mut c_char, c_uint) -> NvmlReturn;
type DevicePci = unsafe extern "C" fn(RawDevice, *mut PciInfo) -> NvmlReturn;
pub(super) type DeviceUint = unsafe extern "C" fn(RawDevice, *mut c_uint) -> NvmlReturn;
pub(super) type DeviceUintOf = unsafe extern "C" fn(RawDevice, c_uint, *mut c_uint) -> NvmlReturn;
pub(super) type DeviceUlonglong = unsafe extern "C" fn(RawDevice, *mut c_ulonglong) -> NvmlReturn;
pub(super) type LinkPci = unsafe extern "C" fn(RawDevice, c_uint, *mut PciInfo) -> NvmlReturn;
pub(super) type TemperatureQuery = unsafe extern "C" fn(RawDevice, *mut TemperatureV1) -> NvmlReturn;
pub(super) type FieldValues = unsafe extern "C" fn(RawDevice, c_int, *mut FieldValue) -> NvmlReturn;

/// The entry points the suite calls. The first group is required (drivers of the last
/// years all export it); each later one is `None` where this library lacks it.
pub(super) struct Functions {
    init: Status,
    shutdown: Status,
    error_string: ErrorString,
    device_count: Count,
    handle_by_index: HandleByIndex,
    pub uuid: DeviceText,
    pub name: DeviceText,
    pub pci_info: DevicePci,
    pub driver_version: Option<SystemText>,
    pub nvml_version: Option<SystemText>,
    pub nvlink_state: Option<DeviceUintOf>,
    pub nvlink_version: Option<DeviceUintOf>,
    pub nvlink_remote_pci: Option<LinkPci>,
    pub nvlink_remote_type: Option<DeviceUintOf>,
    pub field_values: Option<FieldValues>,
    pub current_pcie_generation: Option<DeviceUint>,
    pub max_pcie_generation: Option<DeviceUint>,
    pub gpu_max_pcie_generation: Option<DeviceUint>,
    pub current_pcie_width: Option<DeviceUint>,
    pub max_pcie_width: Option<DeviceUint>,
    pub clock: Option<DeviceUintOf>,
    pub max_clock: Option<DeviceUintOf>,
    pub power_usage: Option<DeviceUint>,
    pub power_limit: Option<DeviceUint>,
    pub temperature: Option<DeviceUintOf>,
    pub temperature_v: Option<TemperatureQuery>,
    pub clock_event_reasons: Option<DeviceUlonglong>,
}

/// An initialised NVML. Thread-safe (NVML's own guarantee), so the telemetry
/// sampler shares it through an `Arc`.
pub struct Nvml {
    functions: Functions,
    /// Which file was opened.
    path: String,
    /// Kept open while the function pointers above are in use; dropped last.
    _library: Library,
}

/// A function of type `T` named `name` in `library`, if it exports one.
///
/// # Safety
/// `T` must be the C signature of `name` as NVML declares it.
unsafe fn symbol<T: Copy>(library: &Library, name: &str) -> Option<T> {
    // SAFETY: the caller guarantees the signature; the pointer is copied out and used only while
    // `library` stays loaded (both live in one `Nvml`).
    unsafe { library.get::<T>(name) }.ok().map(|s| *s)
}

/// As [`symbol`], for a function the suite cannot do without.
///
/// # Safety
/// As [`symbol`].
unsafe fn required<T: Copy>(library: &Library, name: &'static str) -> NvmlResult<T> {
    // SAFETY: forwarded from the caller.
    unsafe { symbol(library, name) }.ok_or(NvmlError::MissingFunction(name))
}

impl Functions {
    /// # Safety
    /// `library` must be NVML.
    unsafe fn resolve(library: &Library) -> NvmlResult<Self> {
        // SAFETY: every name below is paired with its signature from nvml.h.
        unsafe {
            Ok(Self {
                init: required(library, "nvmlInit_v2")?,
                shutdown: required(library, "nvmlShutdown")?,
                error_string: required(library, "nvmlErrorString")?,
                device_count: required(library, "nvmlDeviceGetCount_v2")?,
                handle_by_index: required(library, "nvmlDeviceGetHandleByIndex_v2")?,
                uuid: required(library, "nvmlDeviceGetUUID")?,
                name: required(library, "nvmlDeviceGetName")?,
                pci_info: required(library, "nvmlDeviceGetPciInfo_v3")?,
                driver_version: symbol(library, "nvmlSystemGetDriverVersion"),
                nvml_version: symbol(library, "nvmlSystemGetNVMLVersion"),
                nvlink_state: symbol(library, "nvmlDeviceGetNvLinkState"),
                nvlink_version: symbol(library, "nvmlDeviceGetNvLinkVersion"),
                nvlink_remote_pci: symbol(library, "nvmlDeviceGetNvLinkRemotePciInfo_v2"),
                nvlink_remote_type: symbol(library, "nvmlDeviceGetNvLinkRemoteDeviceType"),
                field_values: symbol(library, "nvmlDeviceGetFieldValues"),
                current_pcie_generation: symbol(library, "nvmlDeviceGetCurrPcieLinkGeneration"),
                max_pcie_generation: symbol(library, "nvmlDeviceGetMaxPcieLinkGeneration"),
                gpu_max_pcie_generation: symbol(library, "nvmlDeviceGetGpuMaxPcieLinkGeneration"),
                current_pcie_width: symbol(library, "nvmlDeviceGetCurrPcieLinkWidth"),
                max_pcie_width: symbol(library, "nvmlDeviceGetMaxPcieLinkWidth"),
                clock: symbol(library, "nvmlDeviceGetClockInfo"),
                max_clock: symbol(library, "nvmlDeviceGetMaxClockInfo"),
                power_usage: symbol(library, "nvmlDeviceGetPowerUsage"),
                power_limit: symbol(library, "nvmlDeviceGetEnforcedPowerLimit"),
                temperature: symbol(library, "nvmlDeviceGetTemperature"),
                temperature_v: symbol(library, "nvmlDeviceGetTemperatureV"),
                // Renamed in driver 535; the old name stays exported for older drivers.
                clock_event_reasons: symbol(library, "nvmlDeviceGetCurrentClocksEventReasons")
                    .or_else(|| symbol(library, "nvmlDeviceGetCurrentClocksThrottleReasons")),
            })
        }
    }

    fn error(&self, call: &'static str, status: NvmlReturn) -> NvmlError {
        // SAFETY: nvmlErrorString accepts any status and returns a static string (or null).
        let text = unsafe { (self.error_string)(status) };
        let text = if text.is_null() {
            "unknown error".to_string()
        } else {
            // SAFETY: non-null, NUL-terminated and static per nvml.h.
            unsafe { std::ffi::CStr::from_ptr(text) }.to_string_lossy().into_owned()
        };
        NvmlError::Call {
            call,
            code: status,
            text,
        }
    }
}

impl Nvml {
    /// Opens and initialises NVML from the first of [`NVML_LIBRARY_CANDIDATES`] that loads.
    pub fn open() -> NvmlResult<Self> {
        Self::open_first(NVML_LIBRARY_CANDIDATES)
    }

    /// Opens and initialises NVML from the first of `candidates` (file names or paths) that
    /// loads; the error lists every one tried.
    pub fn open_first<S: AsRef<str>>(candidates: &[S]) -> NvmlResult<Self> {
        let mut tried = Vec::new();
        for candidate in candidates {
            let candidate = candidate.as_ref();
            let is_path = candidate.contains('/');
            if is_path && !Path::new(candidate).exists() {
                tried.push(format!("{candidate} (no such file)"));
                continue;
            }
            // SAFETY: loading NVIDIA's management library runs its initialisers, which have no
            // preconditions; nothing else is loaded under this name.
            match unsafe { Library::new(candidate) } {
                Ok(library) => return Self::initialise(library, candidate),
                Err(e) => tried.push(format!("{candidate} ({e})")),
            }
        }
        Err(NvmlError::NotLoaded(format!(
            "libnvidia-ml could not be loaded (tried {})",
            tried.join("; ")
        )))
    }

    fn initialise(library: Library, path: &str) -> NvmlResult<Self> {
        // SAFETY: `library` is the file NVIDIA ships as libnvidia-ml.
        let functions = unsafe { Functions::resolve(&library) }?;
        // SAFETY: nvmlInit_v2 takes no arguments; it is reference-counted, and the nvmlShutdown
        // in Drop pairs with it: an `Nvml` exists only once it succeeded.
        let status = unsafe { (functions.init)() };
        if status != NVML_SUCCESS {
            return Err(functions.error("nvmlInit_v2", status));
        }
        Ok(Self {
            functions,
            path: path.to_string(),
            _library: library,
        })
    }

    /// The file NVML was loaded from.
    pub fn path(&self) -> &str {
        &self.path
    }

    pub(super) fn functions(&self) -> &Functions {
        &self.functions
    }

    /// The typed error of a failed `call`, with NVML's text for `status`.
    pub(super) fn error(&self, call: &'static str, status: NvmlReturn) -> NvmlError {
        self.functions.error(call, status)
    }

    /// `Ok` for success, else the typed error of `call`.
    pub(super) fn check(&self, call: &'static str, status: NvmlReturn) -> NvmlResult<()> {
        if status == NVML_SUCCESS {
            Ok(())
        } else {
            Err(self.error(call, status))
        }
    }

    /// "driver 580.82.07, NVML 13.580.82" (what it knows of itself).
    pub fn version(&self) -> String {
        let read = |f: Option<SystemText>| {
            let f = f?;
            let mut buffer = [0 as c_char; TEXT_BUFFER_LEN];
            // SAFETY: NVML writes at most `length` bytes, NUL-terminated, into the buffer.
            let status = unsafe { f(buffer.as_mut_ptr(), TEXT_BUFFER_LEN as c_uint) };
            (status == NVML_SUCCESS).then(|| text_of(&buffer))
        };
        let mut parts = Vec::new();
        if let Some(driver) = read(self.functions.driver_version) {
            parts.push(format!("driver {driver}"));
        }
        if let Some(nvml) = read(self.functions.nvml_version) {
            parts.push(format!("NVML {nvml}"));
        }
        if parts.is_empty() {
            "version not reported".into()
        } else {
            parts.join(", ")
        }
    }

    /// How many GPUs NVML sees (all of the machine's, whatever `CUDA_VISIBLE_DEVICES` says).
    pub fn device_count(&self) -> NvmlResult<u32> {
        let mut count: c_uint = 0;
        // SAFETY: writes one unsigned int through a valid pointer.
        let status = unsafe { (self.functions.device_count)(&mut count) };
        self.check("nvmlDeviceGetCount_v2", status)?;
        Ok(count)
    }

    /// The GPU NVML lists at `index` (NVML's order: PCI bus order, not CUDA's).
    pub fn device(self: &std::sync::Arc<Self>, index: u32) -> NvmlResult<NvmlDevice> {
        let mut handle: RawDevice = std::ptr::null_mut();
        // SAFETY: writes one handle through a valid pointer.
        let status = unsafe { (self.functions.handle_by_index)(index, &mut handle) };
        self.check("nvmlDeviceGetHandleByIndex_v2", status)?;
        Ok(NvmlDevice::new(self.clone(), handle))
    }
}

impl Drop for Nvml {
    fn drop(&mut self) {
        // SAFETY: paired with the successful nvmlInit_v2 of `initialise`; the library is still
        // loaded (fields drop after this).
        let _ = unsafe { (self.functions.shutdown)() };
    }
}

#[cfg(test)]
mod tests {
    use super::Nvml;
    use crate::nvml::NvmlError;

    #[test]
    fn a_missing_library_is_a_typed_error_naming_every_path_tried() {
        let error = Nvml::open_first(&["/nonexistent/libnvidia-ml.so.1", "libnvidia-ml-not-here.so.1"])
            .err()
            .expect("no such library");
        let NvmlError::NotLoaded(why) = &error else {
            panic!("expected NotLoaded, got {error:?}");
        };
        assert!(why.contains("/nonexistent/libnvidia-ml.so.1 (no such file)"), "{why}");
        assert!(why.contains("libnvidia-ml-not-here.so.1 ("), "{why}");
        assert!(error.to_string().starts_with("NVML is not available"), "{error}");
    }
}

use std::ffi::{CStr, c_char, c_void};
use std::sync::Arc;

use khronos_egl as egl;

use crate::error::{Error, Result};

/// The EGL library, loaded once per use (`dlopen` is reference-counted).
pub(super) type Egl = egl::DynamicInstance<egl::EGL1_5>;

/// The loader's usual name: glvnd's `libEGL.so.1`, which dispatches to the vendor's EGL.
const EGL_LIBRARY: &str = "libEGL.so.1";

const EGL_PLATFORM_DEVICE_EXT: egl::Enum = 0x313F;
const EGL_PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;
const EGL_CUDA_DEVICE_NV: egl::Int = 0x323A;
const EGL_DRM_DEVICE_FILE_EXT: egl::Int = 0x3233;

type EglDevice = *mut c_void;
type QueryDevices = unsafe extern "system" fn(egl::Int, *mut EglDevice, *mut egl::Int) -> egl::Boolean;
type QueryDeviceAttrib = unsafe extern "system" fn(EglDevice, egl::Int, *mut egl::Attrib) -> egl::Boolean;
type QueryDeviceString = unsafe extern "system" fn(EglDevice, egl::Int) -> *const c_char;

/// Which EGL device to open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EglDeviceChoice {
    /// The EGL device that is this CUDA device (NVIDIA's `EGL_CUDA_DEVICE_NV`
    /// attribute gives each EGL device's CUDA ordinal): interop only works
    /// when GL and CUDA run on the same GPU.
    CudaOrdinal(usize),
    /// A software renderer, for tests without a GPU: Mesa's software EGL
    /// device (`EGL_MESA_device_software`), or failing that Mesa's
    /// surfaceless platform.
    Software,
}

/// An initialized EGL display on one EGL device.
///
/// It is not terminated on drop: EGL hands every caller asking for the same
/// device the same display, so `eglTerminate` would pull it from under any
/// other context on it (tests run in parallel); an initialized display costs
/// nothing until the process ends.
pub struct EglDisplay {
    pub(super) egl: Arc<Egl>,
    pub(super) display: egl::Display,
    version: (i32, i32),
    description: String,
}

fn not_available(reason: String) -> Error {
    Error::Waived(reason)
}

/// The space-separated extension string of `display` (or the client's, for `None`).
fn extensions(egl: &Egl, display: Option<egl::Display>) -> String {
    egl.query_string(display, egl::EXTENSIONS)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn has_extension(list: &str, name: &str) -> bool {
    list.split_whitespace().any(|e| e == name)
}

/// One EGL device as enumerated, with what it says about itself.
struct DeviceEntry {
    handle: EglDevice,
    extensions: String,
    cuda_ordinal: Option<usize>,
    drm_file: Option<String>,
}

impl DeviceEntry {
    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(ordinal) = self.cuda_ordinal {
            parts.push(format!("CUDA device {ordinal}"));
        }
        if let Some(file) = &self.drm_file {
            parts.push(file.clone());
        }
        if has_extension(&self.extensions, "EGL_MESA_device_software") {
            parts.push("Mesa software".into());
        }
        if parts.is_empty() {
            parts.push("unidentified".into());
        }
        parts.join(", ")
    }
}

impl EglDisplay {
    /// Loads `libEGL.so.1`; `Err(Waived)` where it is missing.
    pub(super) fn load_egl() -> Result<Arc<Egl>> {
        // SAFETY: loading the system's EGL loader runs its initializers, which expect nothing of us.
        let egl = unsafe { Egl::load_required_from_filename(EGL_LIBRARY) }.map_err(|e| {
            not_available(format!(
                "{EGL_LIBRARY} not found or incomplete ({e}); OpenGL needs the glvnd EGL loader (Debian: libegl1) and a vendor EGL (NVIDIA's driver, or Mesa: libegl-mesa0)"
            ))
        })?;
        Ok(Arc::new(egl))
    }

    /// An extension entry point of the client library, typed as `F`.
    ///
    /// # Safety
    /// `F` must be the function-pointer type of the entry point `name`.
    unsafe fn client_function<F: Copy>(egl: &Egl, name: &str) -> Result<F> {
        let function = egl
            .get_proc_address(name)
            .ok_or_else(|| not_available(format!("the EGL loader has no {name}")))?;
        assert_eq!(size_of::<F>(), size_of::<extern "system" fn()>());
        // SAFETY: the caller names F as name's real signature; both are plain function pointers.
        Ok(unsafe { std::mem::transmute_copy::<extern "system" fn(), F>(&function) })
    }

    fn devices(egl: &Egl) -> Result<Vec<DeviceEntry>> {
        let client = extensions(egl, None);
        let enumeration = has_extension(&client, "EGL_EXT_device_base")
            || (has_extension(&client, "EGL_EXT_device_enumeration") && has_extension(&client, "EGL_EXT_device_query"));
        if !enumeration || !has_extension(&client, "EGL_EXT_platform_device") {
            return Err(not_available(format!(
                "the EGL client lacks EGL_EXT_device_enumeration/device_query or EGL_EXT_platform_device (client extensions: {client})"
            )));
        }
        // SAFETY: the types are the extensions' documented signatures.
        let (query_devices, query_attrib, query_string) = unsafe {
            (
                Self::client_function::<QueryDevices>(egl, "eglQueryDevicesEXT")?,
                Self::client_function::<QueryDeviceAttrib>(egl, "eglQueryDeviceAttribEXT")?,
                Self::client_function::<QueryDeviceString>(egl, "eglQueryDeviceStringEXT")?,
            )
        };
        let mut count: egl::Int = 0;
        // SAFETY: with a null array EGL only writes the device count through a valid pointer.
        if unsafe { query_devices(0, std::ptr::null_mut(), &mut count) } != egl::TRUE {
            return Err(not_available("eglQueryDevicesEXT failed".into()));
        }
        let mut handles = vec![std::ptr::null_mut(); count.max(0) as usize];
        // SAFETY: the array holds `count` handles and EGL writes at most that many.
        if unsafe { query_devices(count, handles.as_mut_ptr(), &mut count) } != egl::TRUE {
            return Err(not_available("eglQueryDevicesEXT failed".into()));
        }
        handles.truncate(count.max(0) as usize);
        let string = |device: EglDevice, name: egl::Int| -> Option<String> {
            // SAFETY: device is a handle EGL just returned; a non-null result is a NUL-terminated string EGL owns.
            let text = unsafe { query_string(device, name) };
            // SAFETY: as above.
            (!text.is_null()).then(|| unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned())
        };
        Ok(handles
            .into_iter()
            .map(|handle| {
                let extensions = string(handle, egl::EXTENSIONS).unwrap_or_default();
                let mut value: egl::Attrib = 0;
                let cuda_ordinal = (has_extension(&extensions, "EGL_NV_device_cuda")
                    // SAFETY: a device handle from EGL and a valid out pointer.
                    && unsafe { query_attrib(handle, EGL_CUDA_DEVICE_NV, &mut value) } == egl::TRUE)
                    .then_some(value);
                let drm_file = has_extension(&extensions, "EGL_EXT_device_drm")
                    .then(|| string(handle, EGL_DRM_DEVICE_FILE_EXT))
                    .flatten();
                DeviceEntry {
                    handle,
                    extensions,
                    cuda_ordinal,
                    drm_file,
                }
            })
            .collect())
    }

    fn initialize(egl: Arc<Egl>, display: egl::Display, description: String) -> Result<Self> {
        let version = egl
            .initialize(display)
            .map_err(|e| not_available(format!("eglInitialize on {description} failed: {e}")))?;
        Ok(Self {
            egl,
            display,
            version,
            description,
        })
    }

    /// Opens and initializes the display of the chosen EGL device.
    pub fn open(choice: EglDeviceChoice) -> Result<Self> {
        let egl = Self::load_egl()?;
        let devices = Self::devices(&egl);
        let on_device = |device: &DeviceEntry| -> Result<egl::Display> {
            // SAFETY: a device handle is the native display of EGL_PLATFORM_DEVICE_EXT; the attribute list is empty.
            unsafe { egl.get_platform_display(EGL_PLATFORM_DEVICE_EXT, device.handle, &[egl::ATTRIB_NONE]) }.map_err(
                |e| {
                    not_available(format!(
                        "eglGetPlatformDisplay on EGL device {} failed: {e}",
                        device.describe()
                    ))
                },
            )
        };
        match choice {
            EglDeviceChoice::CudaOrdinal(ordinal) => {
                let devices = devices?;
                let Some(device) = devices.iter().find(|d| d.cuda_ordinal == Some(ordinal)) else {
                    let seen: Vec<String> = devices.iter().map(DeviceEntry::describe).collect();
                    return Err(not_available(format!(
                        "no EGL device is CUDA device {ordinal} (EGL devices: [{}]); NVIDIA's EGL may be missing: set __EGL_VENDOR_LIBRARY_FILENAMES to its glvnd json (e.g. /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json)",
                        seen.join("; ")
                    )));
                };
                let display = on_device(device)?;
                Self::initialize(egl.clone(), display, format!("EGL device {}", device.describe()))
            }
            EglDeviceChoice::Software => {
                if let Ok(devices) = &devices
                    && let Some(device) = devices
                        .iter()
                        .find(|d| has_extension(&d.extensions, "EGL_MESA_device_software"))
                    && let Ok(display) = on_device(device)
                    && let Ok(opened) = Self::initialize(egl.clone(), display, "Mesa's software EGL device".into())
                {
                    return Ok(opened);
                }
                if !has_extension(&extensions(&egl, None), "EGL_MESA_platform_surfaceless") {
                    return Err(not_available(
                        "no software EGL device and no EGL_MESA_platform_surfaceless: install Mesa's EGL (Debian: libegl-mesa0 libgl1-mesa-dri)".into(),
                    ));
                }
                // SAFETY: the surfaceless platform takes EGL_DEFAULT_DISPLAY (null); the attribute list is empty.
                let display = unsafe {
                    egl.get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, std::ptr::null_mut(), &[egl::ATTRIB_NONE])
                }
                .map_err(|e| not_available(format!("eglGetPlatformDisplay(surfaceless) failed: {e}")))?;
                Self::initialize(egl.clone(), display, "Mesa's surfaceless platform".into())
            }
        }
    }

    /// The EGL version the display reports.
    pub fn version(&self) -> (i32, i32) {
        self.version
    }

    /// Which device this is (CUDA ordinal, DRM file, software).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The display's extension string.
    pub fn extensions(&self) -> String {
        extensions(&self.egl, Some(self.display))
    }

    /// `EGL_VENDOR` of the display.
    pub fn vendor(&self) -> String {
        self.egl
            .query_string(Some(self.display), egl::VENDOR)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    pub(super) fn has_extension(&self, name: &str) -> bool {
        has_extension(&self.extensions(), name)
    }
}

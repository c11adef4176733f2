//! `libcupti.so`, opened at run time with `dlopen` (libloading), and the
//! entry points of its profiling API resolved by name.

use std::ffi::c_char;
use std::path::{Path, PathBuf};

use libloading::Library;

use super::cupti_error::{CuptiError, CuptiResult};
use super::ffi::{
    CUPTI_SUCCESS, CounterAvailability, CuptiStatus, DeviceChipName, DeviceSupported, HostBaseMetrics,
    HostConfigAddMetrics, HostConfigImage, HostConfigImageSize, HostDeinitialize, HostEvaluate, HostInitialize,
    HostMetricProperties, HostPassCount, ProfilerInitialize, RangeCounterDataInfo, RangeCounterDataInitialize,
    RangeCounterDataSize, RangeDecode, RangeEnable, RangeObject, RangePush, RangeSetConfig, RangeStop, text_of,
};

/// The variable that names CUPTI's file (or the folder holding `libcupti.so`) when
/// it is not on the loader path.
pub const CUPTI_PATH_VARIABLE: &str = "PTXSUITE_CUPTI";

/// Where CUPTI is looked for after [`CUPTI_PATH_VARIABLE`]: the loader's search
/// path, then where CUDA toolkits put it.
pub const CUPTI_LIBRARY_CANDIDATES: &[&str] = &[
    "libcupti.so",
    "libcupti.so.13",
    "libcupti.so.12",
    "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
    "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so",
    "/usr/local/cuda/lib64/libcupti.so",
    "/usr/local/cuda/targets/sbsa-linux/lib/libcupti.so",
];

/// CUPTI's file names in a folder `$PTXSUITE_CUPTI` names (toolkits have the first, the
/// `nvidia-cuda-cupti` wheels only a versioned one).
const FOLDER_NAMES: [&str; 3] = ["libcupti.so", "libcupti.so.13", "libcupti.so.12"];

/// The host metric-evaluation libraries CUPTI opens by name; beside a CUPTI
/// opened by path they are opened first, so that CUPTI finds them loaded.
const METRIC_LIBRARIES: [&str; 2] = ["libnvperf_host.so", "libnvperf_target.so"];

type Call<T> = unsafe extern "C" fn(*mut T) -> CuptiStatus;
type StatusText = unsafe extern "C" fn(CuptiStatus, *mut *const c_char) -> CuptiStatus;
type Version = unsafe extern "C" fn(*mut u32) -> CuptiStatus;

/// The entry points the suite calls, each paired with its parameter struct.
pub(super) struct Functions {
    pub result_string: StatusText,
    pub error_message: Option<StatusText>,
    pub version: Option<Version>,
    pub profiler_initialize: Call<ProfilerInitialize>,
    pub profiler_deinitialize: Call<ProfilerInitialize>,
    pub device_chip_name: Call<DeviceChipName>,
    pub counter_availability: Call<CounterAvailability>,
    pub device_supported: Option<Call<DeviceSupported>>,
    pub host_initialize: Call<HostInitialize>,
    pub host_deinitialize: Call<HostDeinitialize>,
    pub host_base_metrics: Call<HostBaseMetrics>,
    pub host_metric_properties: Call<HostMetricProperties>,
    pub host_config_add_metrics: Call<HostConfigAddMetrics>,
    pub host_config_image_size: Call<HostConfigImageSize>,
    pub host_config_image: Call<HostConfigImage>,
    pub host_pass_count: Call<HostPassCount>,
    pub host_evaluate: Call<HostEvaluate>,
    pub range_enable: Call<RangeEnable>,
    pub range_disable: Call<RangeObject>,
    pub range_set_config: Call<RangeSetConfig>,
    pub range_start: Call<RangeObject>,
    pub range_stop: Call<RangeStop>,
    pub range_push: Call<RangePush>,
    pub range_pop: Call<RangeObject>,
    pub range_decode: Call<RangeDecode>,
    pub range_counter_data_size: Call<RangeCounterDataSize>,
    pub range_counter_data_initialize: Call<RangeCounterDataInitialize>,
    pub range_counter_data_info: Call<RangeCounterDataInfo>,
}

/// A function of type `T` named `name` in `library`, if it exports one.
///
/// # Safety
/// `T` must be the C signature of `name` as CUPTI declares it.
unsafe fn symbol<T: Copy>(library: &Library, name: &str) -> Option<T> {
    // SAFETY: the caller guarantees the signature; the pointer is copied out and used only while
    // `library` stays loaded (both live in one `Cupti`, which never unloads it).
    unsafe { library.get::<T>(name) }.ok().map(|s| *s)
}

/// As [`symbol`], for a function the suite cannot do without.
///
/// # Safety
/// As [`symbol`].
unsafe fn required<T: Copy>(library: &Library, name: &'static str) -> CuptiResult<T> {
    // SAFETY: forwarded from the caller.
    unsafe { symbol(library, name) }.ok_or(CuptiError::MissingFunction(name))
}

impl Functions {
    /// # Safety
    /// `library` must be CUPTI.
    unsafe fn resolve(library: &Library) -> CuptiResult<Self> {
        // SAFETY: every name below is paired with its signature from CUPTI's headers (ffi.rs).
        unsafe {
            Ok(Self {
                result_string: required(library, "cuptiGetResultString")?,
                error_message: symbol(library, "cuptiGetErrorMessage"),
                version: symbol(library, "cuptiGetVersion"),
                profiler_initialize: required(library, "cuptiProfilerInitialize")?,
                profiler_deinitialize: required(library, "cuptiProfilerDeInitialize")?,
                device_chip_name: required(library, "cuptiDeviceGetChipName")?,
                counter_availability: required(library, "cuptiProfilerGetCounterAvailability")?,
                device_supported: symbol(library, "cuptiProfilerDeviceSupported"),
                host_initialize: required(library, "cuptiProfilerHostInitialize")?,
                host_deinitialize: required(library, "cuptiProfilerHostDeinitialize")?,
                host_base_metrics: required(library, "cuptiProfilerHostGetBaseMetrics")?,
                host_metric_properties: required(library, "cuptiProfilerHostGetMetricProperties")?,
                host_config_add_metrics: required(library, "cuptiProfilerHostConfigAddMetrics")?,
                host_config_image_size: required(library, "cuptiProfilerHostGetConfigImageSize")?,
                host_config_image: required(library, "cuptiProfilerHostGetConfigImage")?,
                host_pass_count: required(library, "cuptiProfilerHostGetNumOfPasses")?,
                host_evaluate: required(library, "cuptiProfilerHostEvaluateToGpuValues")?,
                range_enable: required(library, "cuptiRangeProfilerEnable")?,
                range_disable: required(library, "cuptiRangeProfilerDisable")?,
                range_set_config: required(library, "cuptiRangeProfilerSetConfig")?,
                range_start: required(library, "cuptiRangeProfilerStart")?,
                range_stop: required(library, "cuptiRangeProfilerStop")?,
                range_push: required(library, "cuptiRangeProfilerPushRange")?,
                range_pop: required(library, "cuptiRangeProfilerPopRange")?,
                range_decode: required(library, "cuptiRangeProfilerDecodeData")?,
                range_counter_data_size: required(library, "cuptiRangeProfilerGetCounterDataSize")?,
                range_counter_data_initialize: required(library, "cuptiRangeProfilerCounterDataImageInitialize")?,
                range_counter_data_info: required(library, "cuptiRangeProfilerGetCounterDataInfo")?,
            })
        }
    }
}

/// CUPTI, loaded. Thread-safe calls; the suite makes them from one thread.
///
/// The library is never unloaded (CUPTI installs hooks in the driver that
/// outlive its last call): dropping a `Cupti` keeps the file mapped.
pub struct Cupti {
    functions: Functions,
    path: String,
    /// The metric libraries opened beside it, kept loaded like CUPTI itself.
    _companions: Vec<Library>,
    library: Option<Library>,
}

impl Cupti {
    /// Opens CUPTI from `$PTXSUITE_CUPTI` (a file, or a folder holding `libcupti.so`)
    /// when set, else from the first of [`CUPTI_LIBRARY_CANDIDATES`] that loads.
    pub fn open() -> CuptiResult<Self> {
        match std::env::var_os(CUPTI_PATH_VARIABLE) {
            Some(value) if !value.is_empty() => {
                let path = PathBuf::from(value);
                let files: Vec<String> = if path.is_dir() {
                    FOLDER_NAMES
                        .iter()
                        .map(|name| path.join(name))
                        .filter(|file| file.exists())
                        .map(|file| file.display().to_string())
                        .collect()
                } else {
                    vec![path.display().to_string()]
                };
                let files = if files.is_empty() {
                    vec![path.join(FOLDER_NAMES[0]).display().to_string()]
                } else {
                    files
                };
                Self::open_first(&files)
                    .map_err(|e| CuptiError::NotLoaded(format!("{CUPTI_PATH_VARIABLE} names no usable CUPTI: {e}")))
            }
            _ => Self::open_first(CUPTI_LIBRARY_CANDIDATES),
        }
    }

    /// Opens CUPTI from the first of `candidates` (file names or paths) that loads;
    /// the error lists every one tried.
    pub fn open_first<S: AsRef<str>>(candidates: &[S]) -> CuptiResult<Self> {
        let mut tried = Vec::new();
        for candidate in candidates {
            let candidate = candidate.as_ref();
            let is_path = candidate.contains('/');
            if is_path && !Path::new(candidate).exists() {
                tried.push(format!("{candidate} (no such file)"));
                continue;
            }
            let companions = if is_path {
                Path::new(candidate).parent().map(open_companions).unwrap_or_default()
            } else {
                Vec::new()
            };
            // SAFETY: loading CUPTI runs its initialisers, which have no preconditions.
            match unsafe { Library::new(candidate) } {
                Ok(library) => {
                    // SAFETY: `library` is the file CUDA toolkits ship as libcupti.
                    let functions = unsafe { Functions::resolve(&library) }?;
                    return Ok(Self {
                        functions,
                        path: candidate.to_string(),
                        _companions: companions,
                        library: Some(library),
                    });
                }
                Err(e) => tried.push(format!("{candidate} ({e})")),
            }
        }
        Err(CuptiError::NotLoaded(format!(
            "libcupti.so could not be loaded (tried {}); install a CUDA toolkit or the nvidia-cuda-cupti wheel and \
             set {CUPTI_PATH_VARIABLE} to its libcupti.so",
            tried.join("; ")
        )))
    }

    /// The file CUPTI was loaded from.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// CUPTI's API version (`cuptiGetVersion`: 24 for CUDA 12.6, higher since), if it says.
    pub fn api_version(&self) -> Option<u32> {
        let version = self.functions.version?;
        let mut value = 0u32;
        // SAFETY: writes one u32 through a valid pointer.
        (unsafe { version(&mut value) } == CUPTI_SUCCESS).then_some(value)
    }

    pub(super) fn functions(&self) -> &Functions {
        &self.functions
    }

    /// The typed error of a failed `call`: CUPTI's name for `status` and its message.
    pub(super) fn error(&self, call: &'static str, status: CuptiStatus) -> CuptiError {
        let read = |f: StatusText| {
            let mut text: *const c_char = std::ptr::null();
            // SAFETY: CUPTI writes a pointer to a static string (or nothing, for an unknown status).
            let ok = unsafe { f(status, &mut text) } == CUPTI_SUCCESS;
            // SAFETY: on success the pointer is null or a static NUL-terminated string.
            ok.then(|| unsafe { text_of(text) }).flatten()
        };
        let name = read(self.functions.result_string).unwrap_or_else(|| format!("CUPTI status {status}"));
        let text = self
            .functions
            .error_message
            .and_then(read)
            .filter(|t| *t != name)
            .unwrap_or_else(|| "no further message".into());
        CuptiError::Call {
            call,
            code: status,
            name,
            text,
        }
    }

    /// `Ok` for success, else the typed error of `call`.
    pub(super) fn check(&self, call: &'static str, status: CuptiStatus) -> CuptiResult<()> {
        if status == CUPTI_SUCCESS {
            Ok(())
        } else {
            Err(self.error(call, status))
        }
    }
}

impl Drop for Cupti {
    fn drop(&mut self) {
        // CUPTI is not meant to be unloaded from a process that used it: keep it mapped.
        if let Some(library) = self.library.take() {
            std::mem::forget(library);
        }
    }
}

/// The metric libraries in `folder`, opened (those that are there and load).
fn open_companions(folder: &Path) -> Vec<Library> {
    METRIC_LIBRARIES
        .iter()
        .map(|name| folder.join(name))
        .filter(|path| path.exists())
        // SAFETY: NVIDIA's metric libraries; their initialisers have no preconditions.
        .filter_map(|path| unsafe { Library::new(&path) }.ok())
        .collect()
}

/// A null-terminated list of `*const c_char` for CUPTI's `const char**` parameters.
pub(super) struct CNames {
    owned: Vec<std::ffi::CString>,
    pointers: Vec<*const c_char>,
}

impl CNames {
    /// Names without interior NULs (metric names never have them).
    pub fn new<S: AsRef<str>>(names: &[S]) -> Self {
        let owned: Vec<std::ffi::CString> = names
            .iter()
            .map(|n| std::ffi::CString::new(n.as_ref().replace('\0', "")).expect("NULs removed"))
            .collect();
        let pointers = owned.iter().map(|c| c.as_ptr()).collect();
        Self { owned, pointers }
    }

    pub fn len(&self) -> usize {
        self.owned.len()
    }

    /// The array CUPTI reads; valid while `self` lives.
    pub fn as_ptr(&self) -> *const *const c_char {
        self.pointers.as_ptr()
    }
}

#[cfg(test)]
mod tests {
    use super::{CNames, Cupti};
    use crate::cupti::CuptiError;

    #[test]
    fn a_missing_library_is_a_typed_error_naming_every_path_tried() {
        let error = Cupti::open_first(&["/nonexistent/libcupti.so", "libcupti-not-here.so"])
            .err()
            .expect("no such library");
        let CuptiError::NotLoaded(why) = &error else {
            panic!("expected NotLoaded, got {error:?}");
        };
        assert!(why.contains("/nonexistent/libcupti.so (no such file)"), "{why}");
        assert!(why.contains("libcupti-not-here.so ("), "{why}");
        assert!(why.contains("PTXSUITE_CUPTI"), "{why}");
        assert!(error.is_waiver());
    }

    #[test]
    fn names_become_c_strings_in_order() {
        let names = CNames::new(&["dram__bytes_read.sum", "smsp__inst_executed.sum"]);
        assert_eq!(names.len(), 2);
        // SAFETY: two valid NUL-terminated strings owned by `names`.
        let second = unsafe { std::ffi::CStr::from_ptr(*names.as_ptr().add(1)) };
        assert_eq!(second.to_str().unwrap(), "smsp__inst_executed.sum");
    }
}

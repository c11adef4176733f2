//! The error type of the host library.

use cudarc::driver::DriverError;

/// Everything that can go wrong on the host side.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// libcuda could not be loaded: no NVIDIA driver on this machine.
    #[error(
        "no NVIDIA driver found (libcuda could not be loaded); GPU commands need an NVIDIA GPU and its driver, the CUDA toolkit is not needed"
    )]
    NoDriver,
    /// The driver is there but reports no device.
    #[error("the NVIDIA driver reports no CUDA device")]
    NoDevice,
    /// A device index that does not exist.
    #[error("device {requested} does not exist: this machine has {available} CUDA device(s)")]
    DeviceIndex { requested: usize, available: usize },
    /// A driver call failed.
    #[error("{call} failed: {}", describe_driver_error(.source))]
    Driver { call: &'static str, source: DriverError },
    /// The driver rejected the PTX; `log` is the JIT compiler's message.
    #[error("the driver could not load the PTX module ({}): {log}{hint}", describe_driver_error(.source))]
    ModuleLoad {
        source: DriverError,
        log: String,
        hint: String,
    },
    /// A kernel name that the module does not export.
    #[error("the PTX module has no kernel named {0:?}")]
    MissingKernel(String),
    /// A variable name that the module does not define (`cuModuleGetGlobal`).
    #[error("the PTX module has no variable named {0:?}")]
    MissingSymbol(String),
    /// A launch that would leave its buffers, or an invalid launch shape.
    #[error("refusing to launch {kernel}: {reason}")]
    InvalidLaunch { kernel: &'static str, reason: String },
    /// A kernel's PTX `.param` list is not the Rust signature a launch passes
    /// (a CUDA C twin out of step with its Rust kernel, or a wrong marker type).
    #[error("kernel {kernel}: {reason}")]
    ParamMismatch { kernel: String, reason: String },
    /// Bad user input (sizes, names, options, files).
    #[error("{0}")]
    InvalidInput(String),
    /// A command line that cannot be carried out as given (an unknown experiment, an output that is one of
    /// the inputs): the binary exits 2, as for the options its parser refuses.
    #[error("{0}")]
    Usage(String),
    /// Not enough device memory for what was asked.
    #[error("not enough device memory: {needed_mib} MiB needed, {free_mib} MiB free; use a smaller --size-mib")]
    OutOfDeviceMemory { needed_mib: u64, free_mib: u64 },
    /// A result that does not match the host reference.
    #[error("verification failed for {what}: {detail}")]
    Verification { what: String, detail: String },
    /// File output.
    #[error("{context}: {source}")]
    Io { context: String, source: std::io::Error },
    /// Report serialization or parsing.
    #[error("{context}: {source}")]
    Json { context: String, source: serde_json::Error },
    /// A run-time loaded library (cuBLAS) failed or is missing.
    #[error("{0}")]
    Library(String),
    /// GPU work that did not finish within the kernel time limit (`--kernel-timeout`).
    #[error(
        "{what} did not finish within the kernel time limit of {limit_s} s; if it legitimately needs longer, raise the limit with --kernel-timeout <seconds>"
    )]
    KernelTimeout { what: String, limit_s: f64 },
    /// The run was stopped by Ctrl-C; the partial report was written.
    #[error(
        "interrupted: stopped after the point in progress; partial report written to {report} (incomplete: {incomplete})"
    )]
    Interrupted { report: String, incomplete: String },
    /// Something this machine lacks (NVRTC, cuBLAS, mapped host memory, a second GPU): what needs it is
    /// *waived* with this reason, never failed.
    #[error("{0}")]
    Waived(String),
    /// Plot rendering.
    #[error("plotting {0}")]
    Plot(String),
    /// The OpenCL layer's error (`crate::opencl::OpenClError`, converted there: this base type names
    /// no layer above it, so modules that only need `Error` never reach OpenCL).
    #[error(transparent)]
    OpenCl(Box<dyn std::error::Error + Send + Sync>),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `CUDA_ERROR_NAME: description`, without panicking if the driver cannot say.
pub fn describe_driver_error(error: &DriverError) -> String {
    let name = error
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("{:?}", error.0));
    let text = error
        .error_string()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if text.is_empty() {
        name
    } else {
        format!("{name}: {text}")
    }
}

/// Attaches the name of the driver call to a cudarc error.
pub trait DriverResultExt<T> {
    fn during(self, call: &'static str) -> Result<T>;
}

impl<T> DriverResultExt<T> for std::result::Result<T, DriverError> {
    fn during(self, call: &'static str) -> Result<T> {
        self.map_err(|source| Error::Driver { call, source })
    }
}

impl Error {
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }
}

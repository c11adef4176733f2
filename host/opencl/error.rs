//! The error type of the OpenCL layer: OpenCL status codes with the call that
//! returned them, build failures with the compiler's log, and the layer's own
//! refusals. It converts into the crate's [`Error`](crate::Error).

use cl3::error_codes::error_text;

/// Everything that can go wrong in [`crate::opencl`].
#[derive(Debug, thiserror::Error)]
pub enum OpenClError {
    /// No OpenCL ICD loader (libOpenCL.so.1), or it lists no platform.
    #[error("no OpenCL runtime: {0}")]
    NoRuntime(String),
    /// An OpenCL call returned an error status.
    #[error("{call} failed: {} ({code})", error_text(*.code))]
    Call { call: &'static str, code: i32 },
    /// The OpenCL C compiler rejected a program; `log` is its build log.
    #[error("the OpenCL C program did not build for {device} (options \"{options}\"): {} ({code}); build log:\n{log}", error_text(*.code))]
    Build {
        device: String,
        options: String,
        code: i32,
        log: String,
    },
    /// A kernel name the program does not define.
    #[error("the OpenCL program has no kernel named {0:?}")]
    MissingKernel(String),
    /// A request the layer refuses before calling OpenCL (sizes, ranges, device limits).
    #[error("{0}")]
    Invalid(String),
}

pub type ClResult<T> = std::result::Result<T, OpenClError>;

impl From<OpenClError> for crate::error::Error {
    fn from(error: OpenClError) -> Self {
        crate::error::Error::OpenCl(Box::new(error))
    }
}

/// Attaches the name of the OpenCL call to a cl3 status code.
pub(crate) trait ClStatusExt<T> {
    fn during(self, call: &'static str) -> ClResult<T>;
}

impl<T> ClStatusExt<T> for std::result::Result<T, i32> {
    fn during(self, call: &'static str) -> ClResult<T> {
        self.map_err(|code| OpenClError::Call { call, code })
    }
}

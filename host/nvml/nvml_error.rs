//! What can go wrong with NVML. None of it is an error of a run: without
//! NVML the report says so and the measurements go on.

/// An NVML failure, typed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NvmlError {
    /// No `libnvidia-ml.so.1` could be opened (no NVIDIA driver, or a container without it).
    #[error("NVML is not available: {0}")]
    NotLoaded(String),
    /// The library is older than a function the suite asks for.
    #[error("this NVML has no {0} (an older driver)")]
    MissingFunction(&'static str),
    /// A call returned an error status.
    #[error("{call} failed: {text} (NVML status {code})")]
    Call {
        call: &'static str,
        code: u32,
        text: String,
    },
    /// A CUDA device that NVML does not list (by UUID or PCI address).
    #[error("{0}")]
    NoMatch(String),
}

impl NvmlError {
    /// The device or the driver does not offer this query (`NVML_ERROR_NOT_SUPPORTED`),
    /// or the library lacks the function: a fact to leave out, not a failure.
    pub fn is_not_supported(&self) -> bool {
        matches!(self, Self::MissingFunction(_))
            || matches!(self, Self::Call { code, .. } if *code == super::ffi::NVML_ERROR_NOT_SUPPORTED)
    }
}

pub type NvmlResult<T> = std::result::Result<T, NvmlError>;

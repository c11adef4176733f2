//! What can go wrong with CUPTI. The absence of CUPTI, of the permission to
//! profile or of support for the GPU *waives* the counters (with the reason);
//! any other failure names the call, CUPTI's result code and its text.

use super::ffi::{
    CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED, CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED, CUPTI_ERROR_HARDWARE_BUSY,
    CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, CUPTI_ERROR_INVALID_METRIC_NAME, CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED,
    CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED, CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, CUPTI_ERROR_NOT_SUPPORTED,
    CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED, CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES,
    CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED, CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED, CuptiStatus,
};

/// A CUPTI failure, typed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CuptiError {
    /// No `libcupti.so` could be opened.
    #[error("CUPTI is not available: {0}")]
    NotLoaded(String),
    /// The library predates an entry point the suite calls (the range profiler came with CUDA 12.6).
    #[error("this CUPTI has no {0} (the range profiler needs CUPTI from CUDA 12.6 or later)")]
    MissingFunction(&'static str),
    /// A call returned an error status: which call, the code, CUPTI's name and text for it.
    #[error("{call} failed: {name} ({code}): {text}")]
    Call {
        call: &'static str,
        code: CuptiStatus,
        name: String,
        text: String,
    },
    /// The GPU cannot be profiled, by CUPTI's own check (`cuptiProfilerDeviceSupported`).
    #[error("CUPTI cannot profile this GPU: {0}")]
    Unsupported(String),
    /// CUPTI did something the suite does not expect (no range recorded, ranges dropped).
    #[error("{0}")]
    Unexpected(String),
}

impl CuptiError {
    /// The status of a failed call, if this is one.
    pub fn code(&self) -> Option<CuptiStatus> {
        match self {
            Self::Call { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// The driver restricts the GPU's performance counters to administrators
    /// (`NVreg_RestrictProfilingToAdminUsers=1`, the default of many drivers).
    pub fn is_permission_denied(&self) -> bool {
        matches!(
            self.code(),
            Some(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES | CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        )
    }

    /// The GPU, its configuration (vGPU, MIG, SLI, WSL, confidential computing) or this CUPTI
    /// cannot profile it.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, Self::Unsupported(_) | Self::MissingFunction(_))
            || matches!(
                self.code(),
                Some(
                    CUPTI_ERROR_NOT_SUPPORTED
                        | CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED
                        | CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED
                        | CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED
                        | CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED
                        | CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED
                        | CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED
                        | CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED
                )
            )
    }

    /// Another tool holds the GPU's counters or CUPTI's callbacks (compute-sanitizer, Nsight, a
    /// second profiler).
    pub fn is_in_use(&self) -> bool {
        matches!(
            self.code(),
            Some(CUPTI_ERROR_HARDWARE_BUSY | CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        )
    }

    /// A metric this chip does not have.
    pub fn is_unknown_metric(&self) -> bool {
        self.code() == Some(CUPTI_ERROR_INVALID_METRIC_NAME)
    }

    /// Whether this is a reason to waive the counters (no library, no permission, no support)
    /// rather than a failure of the suite's use of CUPTI.
    pub fn is_waiver(&self) -> bool {
        matches!(self, Self::NotLoaded(_)) || self.is_permission_denied() || self.is_unsupported() || self.is_in_use()
    }

    /// The reason a report gives when the counters are waived for this error.
    pub fn waiver_reason(&self) -> String {
        if self.is_permission_denied() {
            format!(
                "no permission to read the GPU's performance counters: the driver restricts profiling to \
                 administrators (NVreg_RestrictProfilingToAdminUsers=1); run as root or set the module option to 0 \
                 ({self})"
            )
        } else if self.is_in_use() {
            format!("another tool holds the GPU's counters or CUPTI (compute-sanitizer, Nsight): {self}")
        } else {
            self.to_string()
        }
    }
}

pub type CuptiResult<T> = std::result::Result<T, CuptiError>;

#[cfg(test)]
mod tests {
    use super::CuptiError;

    fn call(code: u32) -> CuptiError {
        CuptiError::Call {
            call: "cuptiRangeProfilerEnable",
            code,
            name: "CUPTI_ERROR_X".into(),
            text: "text".into(),
        }
    }

    #[test]
    fn permission_support_and_metric_errors_are_told_apart() {
        assert!(call(35).is_permission_denied() && call(35).is_waiver());
        assert!(call(40).is_permission_denied());
        assert!(call(27).is_unsupported() && call(27).is_waiver());
        assert!(call(43).is_unsupported(), "MIG");
        assert!(call(39).is_in_use() && call(39).is_waiver(), "under compute-sanitizer");
        assert!(call(26).waiver_reason().starts_with("another tool holds"));
        assert!(call(17).is_unknown_metric() && !call(17).is_waiver());
        assert!(
            !call(1).is_waiver(),
            "an invalid parameter is the suite's bug, never a waiver"
        );
        assert!(CuptiError::NotLoaded("x".into()).is_waiver());
        assert!(CuptiError::MissingFunction("cuptiRangeProfilerEnable").is_waiver());
        assert!(!CuptiError::Unexpected("no range".into()).is_waiver());
    }

    #[test]
    fn messages_name_the_call_the_code_and_the_driver_option() {
        assert_eq!(
            call(1).to_string(),
            "cuptiRangeProfilerEnable failed: CUPTI_ERROR_X (1): text"
        );
        let reason = call(35).waiver_reason();
        assert!(reason.contains("NVreg_RestrictProfilingToAdminUsers"), "{reason}");
        assert!(reason.contains("(35)"), "{reason}");
    }
}

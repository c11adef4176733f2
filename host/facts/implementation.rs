//! Who wrote the code being measured: the names reports give their series.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Who wrote the code being measured: the programming model of a series.
///
/// Reports compare every implementation against the Rust one, point by point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Implementation {
    /// A kernel of the `kernels-gpu` crate, compiled by rustc to PTX.
    Rust,
    /// Its CUDA C twin (`host/cuda_c/`), compiled at run time by NVRTC to PTX for the same target.
    CudaC,
    /// Its OpenCL C twin (`host/opencl_c/`), built at run time by the platform's OpenCL compiler.
    #[serde(rename = "opencl-c")]
    OpenClC,
    /// NVIDIA's cuBLAS library (the vendor baseline).
    Cublas,
    /// The driver's copy engines (`cuMemcpy*`), no kernel of ours.
    #[serde(alias = "driver")]
    CopyEngine,
    /// A performance model's prediction, not a measurement.
    Model,
}

impl Implementation {
    /// Every implementation, in the order reports list them.
    pub const ALL: [Self; 6] = [
        Self::Rust,
        Self::CudaC,
        Self::OpenClC,
        Self::Cublas,
        Self::CopyEngine,
        Self::Model,
    ];

    /// The ones `--impl` can pick (a model is not run, it is computed).
    pub const SELECTABLE: [Self; 5] = [Self::Rust, Self::CudaC, Self::OpenClC, Self::Cublas, Self::CopyEngine];

    pub fn label(self) -> &'static str {
        match self {
            Self::Rust => "Rust",
            Self::CudaC => "CUDA C",
            Self::OpenClC => "OpenCL C",
            Self::Cublas => "cuBLAS",
            Self::CopyEngine => "copy engine",
            Self::Model => "model",
        }
    }

    /// The name `--impl` takes.
    pub fn flag(self) -> &'static str {
        match self {
            Self::Rust => "rust",
            Self::CudaC => "cuda-c",
            Self::OpenClC => "opencl",
            Self::Cublas => "cublas",
            Self::CopyEngine => "copy-engine",
            Self::Model => "model",
        }
    }

    /// Whether the implementation runs kernels from a module of its own (and so has twins of the Rust kernels).
    pub fn is_kernel_twin(self) -> bool {
        matches!(self, Self::CudaC | Self::OpenClC)
    }
}

impl fmt::Display for Implementation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::Implementation;

    #[test]
    fn reports_of_the_first_schema_call_the_copy_engine_driver() {
        let old: Implementation = serde_json::from_str("\"driver\"").unwrap();
        assert_eq!(old, Implementation::CopyEngine);
        assert_eq!(serde_json::to_string(&Implementation::OpenClC).unwrap(), "\"opencl-c\"");
    }
}

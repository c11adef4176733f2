use serde::{Deserialize, Serialize};

/// Who wrote the code being measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Implementation {
    /// A kernel of the `kernels-gpu` crate, compiled by rustc to PTX.
    Rust,
    /// Its CUDA C twin (`host/cuda_c/`), compiled at run time by NVRTC to PTX for the same target.
    CudaC,
    /// The driver itself (`cuMemcpyDtoDAsync`).
    Driver,
    /// NVIDIA's cuBLAS library (the vendor baseline).
    Cublas,
    /// A performance model's prediction, not a measurement.
    Model,
}

impl Implementation {
    pub fn label(self) -> &'static str {
        match self {
            Implementation::Rust => "Rust",
            Implementation::CudaC => "CUDA C",
            Implementation::Driver => "driver",
            Implementation::Cublas => "cuBLAS",
            Implementation::Model => "model",
        }
    }
}

//! Which implementations of a kernel a run can measure.

use crate::gpu::{Gpu, Implementation};

/// Rust always; the CUDA C twin when NVRTC compiled it. The note says why not.
pub(crate) fn kernel_implementations(gpu: &Gpu) -> (Vec<Implementation>, Vec<String>) {
    match gpu.twins() {
        Ok(_) => (vec![Implementation::Rust, Implementation::CudaC], Vec::new()),
        Err(why) => (vec![Implementation::Rust], vec![why.to_string()]),
    }
}

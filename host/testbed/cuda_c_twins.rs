//! The CUDA C twins of the Rust kernels, compiled at run time with NVRTC.

use std::sync::OnceLock;

use cudarc::nvrtc;

use crate::ptx::PTX_ARCH;

/// CUDA C versions of the kernels: same algorithms, same launch shapes.
pub const CUDA_C_SOURCE: &str = concat!(
    include_str!("../cuda_c/block_span.cu"),
    "\n",
    include_str!("../cuda_c/global_memory.cu"),
    "\n",
    include_str!("../cuda_c/matrix_vector.cu"),
    "\n",
    include_str!("../cuda_c/guide_multiply.cu"),
    "\n",
    include_str!("../cuda_c/sgemm.cu"),
    "\n",
    include_str!("../cuda_c/particles.cu"),
    "\n",
    include_str!("../cuda_c/shared_memory_banks.cu"),
    "\n",
    include_str!("../cuda_c/constant_memory.cu"),
    "\n",
    include_str!("../cuda_c/local_memory.cu"),
    "\n",
    include_str!("../cuda_c/latency.cu"),
    "\n",
    include_str!("../cuda_c/occupancy.cu"),
    "\n",
    include_str!("../cuda_c/instruction_throughput.cu"),
    "\n",
    include_str!("../cuda_c/math_accuracy.cu"),
    "\n",
    include_str!("../cuda_c/divergence.cu"),
    "\n",
    include_str!("../cuda_c/loop_counters.cu"),
    "\n",
    include_str!("../cuda_c/streams.cu")
);

/// Compiles the twins to PTX for the same virtual architecture as the Rust
/// PTX (`compute_75` for `sm_75`), so the driver JITs both the same way.
/// `Err` says why there are no twins (NVRTC missing, or its message).
/// Compiled once per process: experiments that read the twins' PTX (loop
/// bodies, predication) get the text the device loaded without a second NVRTC run.
pub fn compile_twins() -> Result<String, String> {
    static TWINS: OnceLock<Result<String, String>> = OnceLock::new();
    TWINS.get_or_init(compile_twins_uncached).clone()
}

fn compile_twins_uncached() -> Result<String, String> {
    // SAFETY: only tries to dlopen libnvrtc.
    if !unsafe { nvrtc::sys::is_culib_present() } {
        return Err("NVRTC (libnvrtc) not found: CUDA C twins skipped; install the CUDA toolkit's NVRTC or add its lib64 to LD_LIBRARY_PATH".into());
    }
    static ARCH: OnceLock<String> = OnceLock::new();
    let arch = ARCH.get_or_init(|| format!("compute_{}", PTX_ARCH.trim_start_matches("sm_")));
    let options = nvrtc::CompileOptions {
        arch: Some(arch.as_str()),
        options: vec!["--std=c++17".into()],
        ..Default::default()
    };
    nvrtc::compile_ptx_with_opts(CUDA_C_SOURCE, options)
        .map(|ptx| ptx.to_src())
        .map_err(|e| format!("NVRTC could not compile the CUDA C twins: {e:?}"))
}

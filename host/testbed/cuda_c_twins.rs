//! The CUDA C twins of the Rust kernels, compiled at run time with NVRTC.

use std::sync::OnceLock;

use cudarc::nvrtc;

use crate::ptx::PTX_ARCH;

/// CUDA C versions of the kernels: same algorithms, same launch shapes.
/// A new file joins last, by hand (`tests/ptx_checks.rs` names any file of
/// host/cuda_c/ left out): the order matters, as later files use
/// `block_span.cu`'s span helpers and `instruction_throughput.cu`'s chain macros.
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
    include_str!("../cuda_c/math_functions.cu"),
    "\n",
    include_str!("../cuda_c/sqrt_compare_convert.cu"),
    "\n",
    include_str!("../cuda_c/math_accuracy.cu"),
    "\n",
    include_str!("../cuda_c/divergence.cu"),
    "\n",
    include_str!("../cuda_c/loop_counters.cu"),
    "\n",
    include_str!("../cuda_c/streams.cu"),
    "\n",
    include_str!("../cuda_c/reduction.cu")
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

/// The instruction-throughput twins with the math-library pairs, alone: what
/// [`compile_fast_math_twins`] compiles.
pub const FAST_MATH_SOURCE: &str = concat!(
    include_str!("../cuda_c/instruction_throughput.cu"),
    "\n",
    include_str!("../cuda_c/math_functions.cu")
);

/// The NVRTC option the Best Practices Guide §5.1.4 names: every `functionName()` with an
/// intrinsic becomes `__functionName()`, plus `-ftz=true -prec-div=false -prec-sqrt=false -fmad=true`.
pub const FAST_MATH_OPTION: &str = "-use_fast_math";

/// [`FAST_MATH_SOURCE`] compiled with [`FAST_MATH_OPTION`], for the same
/// target as the twins; `Err` says why not. Compiled once per process.
pub fn compile_fast_math_twins() -> Result<String, String> {
    static FAST: OnceLock<Result<String, String>> = OnceLock::new();
    FAST.get_or_init(|| compile(FAST_MATH_SOURCE, &[FAST_MATH_OPTION], "the -use_fast_math twins"))
        .clone()
}

fn compile_twins_uncached() -> Result<String, String> {
    compile(CUDA_C_SOURCE, &[], "the CUDA C twins")
}

fn compile(source: &str, extra_options: &[&str], what: &str) -> Result<String, String> {
    // SAFETY: only tries to dlopen libnvrtc.
    if !unsafe { nvrtc::sys::is_culib_present() } {
        return Err(format!(
            "NVRTC (libnvrtc) not found: {what} skipped; install the CUDA toolkit's NVRTC or add its lib64 to LD_LIBRARY_PATH"
        ));
    }
    static ARCH: OnceLock<String> = OnceLock::new();
    let arch = ARCH.get_or_init(|| format!("compute_{}", PTX_ARCH.trim_start_matches("sm_")));
    let options = nvrtc::CompileOptions {
        arch: Some(arch.as_str()),
        options: std::iter::once("--std=c++17")
            .chain(extra_options.iter().copied())
            .map(String::from)
            .collect(),
        ..Default::default()
    };
    nvrtc::compile_ptx_with_opts(source, options)
        .map(|ptx| ptx.to_src())
        .map_err(|e| format!("NVRTC could not compile {what}: {e:?}"))
}

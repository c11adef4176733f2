//! The local-memory kernels' OpenCL C twins (`host/opencl_c/local_memory.cl`):
//! the CUDA launcher's checks ([`local_array_shape`]), the same work-groups
//! and grid, launched on an OpenCL queue; `local_array_spilled`'s twin built
//! in a program of its own under NVIDIA's register cap ([`build_spilled_twin`]).

use kernels_gpu::device::KernelSignature;
use kernels_gpu::launch_bounds::LAUNCH_BOUND_FOR_SPILLS;
use kernels_gpu::local_memory::{local_array_dynamic_params, local_array_registers_params, local_array_spilled_params};

use super::{LocalArrayKernel, local_array_shape};
use crate::error::{Error, Result};
use crate::launchers::opencl_nd_range::nd_range;
use crate::opencl::{
    ClBuffer, ClContext, ClQueue, DIVERGENCE_UNROLL_OPTION, LOCAL_ARRAY_SPILLED_OPTION, LOCAL_MEMORY_SOURCE,
    MatvecReduction, OpenClTwins, PRAGMA_UNROLL_EXTENSION,
};

/// The OpenCL C twins of the local-memory arrays (`local_memory.cl`; `local_array_spilled` is built
/// apart): kernels of the twins' program (gathered with the other families' by
/// [`opencl_c_kernels`](fn@crate::launchers::opencl_c_kernels)).
pub(in crate::launchers) const OPENCL_C_KERNELS: &[&str] = &["local_array_registers", "local_array_dynamic"];

/// Registers a thread the Rust kernel's launch bound for spills leaves: an
/// SM's 64 Ki registers over its `max_threads × min_blocks_per_sm` threads (64).
pub const SPILL_REGISTER_CAP: u32 =
    65536 / (LAUNCH_BOUND_FOR_SPILLS.max_threads * LAUNCH_BOUND_FOR_SPILLS.min_blocks_per_sm);

/// NVIDIA's extension whose `-cl-nv-maxrregcount` caps a program's registers.
const COMPILER_OPTIONS_EXTENSION: &str = "cl_nv_compiler_options";

/// `local_array_spilled`'s twin: [`LOCAL_MEMORY_SOURCE`] built with
/// [`LOCAL_ARRAY_SPILLED_OPTION`] under `-cl-nv-maxrregcount` of
/// [`SPILL_REGISTER_CAP`] and `-cl-nv-verbose` (the build log then gives
/// ptxas's spills), its loops unrolled as the suite's program's are. The extension's first text spells the option `=N`, the
/// registry's ` N`: the first is tried, then the second. A device without
/// the extension (any but NVIDIA's) has no register cap: [`Error::Waived`].
pub fn build_spilled_twin(context: &ClContext) -> Result<OpenClTwins> {
    let device = context.device();
    if !device.info().has_extension(COMPILER_OPTIONS_EXTENSION) {
        return Err(Error::Waived(format!(
            "local_array_spilled's OpenCL C twin needs a register cap, and {} has no {COMPILER_OPTIONS_EXTENSION}",
            device.name().trim()
        )));
    }
    // The word loops unrolled in full where the compiler honours `#pragma unroll`, as in the suite's program,
    // so that the array's indices are constants and only the cap sends words to memory.
    let unroll = if device.info().has_extension(PRAGMA_UNROLL_EXTENSION) {
        DIVERGENCE_UNROLL_OPTION
    } else {
        ""
    };
    let base = format!("-cl-kernel-arg-info -cl-nv-verbose {LOCAL_ARRAY_SPILLED_OPTION} {unroll}");
    let build = |cap: String| {
        OpenClTwins::build_source(
            context,
            LOCAL_MEMORY_SOURCE,
            &format!("{base} {cap}"),
            MatvecReduction::LocalMemory,
        )
    };
    build(format!("-cl-nv-maxrregcount={SPILL_REGISTER_CAP}"))
        .or_else(|_| build(format!("-cl-nv-maxrregcount {SPILL_REGISTER_CAP}")))
        .map_err(|e| Error::Waived(format!("building local_array_spilled's OpenCL C twin: {e}")))
}

/// Launches the OpenCL C twin of `kernel` from `twins` (the suite's twins, or
/// [`build_spilled_twin`]'s for [`LocalArrayKernel::Spilled`]): work-item `t`
/// writes `reference::local_array(t, shift, rounds)` to `out[t]`.
pub fn local_array(
    twins: &OpenClTwins,
    queue: &ClQueue,
    kernel: LocalArrayKernel,
    (shift, rounds): (u32, u32),
    (group_size, groups): (u32, u32),
    out: &mut ClBuffer<u32>,
) -> Result<()> {
    let shape = local_array_shape(kernel, shift, (group_size, groups), out.len())?;
    let range = nd_range(&shape);
    let twin = match kernel {
        LocalArrayKernel::DynamicIndex => {
            let twin = twins.kernel_of(local_array_dynamic_params::SIGNATURE)?;
            // SAFETY: (uint, uint, uint*) is the twin's signature (kernel_of checked it); one word per work-item.
            unsafe { queue.launch(twin, &range, &[&shift, &rounds, &*out])? };
            return Ok(());
        }
        LocalArrayKernel::Registers => twins.kernel_of(local_array_registers_params::SIGNATURE)?,
        LocalArrayKernel::Spilled => twins.kernel_of(local_array_spilled_params::SIGNATURE)?,
    };
    // SAFETY: (uint, uint*) is the twin's signature (kernel_of checked it); one word per work-item.
    unsafe { queue.launch(twin, &range, &[&rounds, &*out])? };
    Ok(())
}

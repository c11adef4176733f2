//! The OpenCL C twins of the throughput kernels (`host/opencl_c/instruction_throughput.cl`):
//! built with a measured option, launched like the PTX kernels (one work-item per thread,
//! work-groups of [`THROUGHPUT_BLOCK_THREADS`]).

use kernels_gpu::instruction_throughput::{ChainParams, THROUGHPUT_BLOCK_THREADS, ThroughputKernel};

use super::{ChainValue, throughput_shape};
use crate::error::{Error, Result};
use crate::opencl::{
    ClBuffer, ClContext, ClQueue, MatvecReduction, NdRange, OPENCL_C_THROUGHPUT_SOURCE, OpenClTwins,
    THROUGHPUT_BASE_OPTIONS,
};

/// [`OPENCL_C_THROUGHPUT_SOURCE`] built for `context`'s device with `option`
/// (`""`, `-cl-mad-enable`, `-cl-fast-relaxed-math`) after the base options;
/// a compile error carries the compiler's log.
pub fn build_throughput_twins(context: &ClContext, option: &str) -> Result<OpenClTwins> {
    let options = format!("{THROUGHPUT_BASE_OPTIONS} {option}");
    // The reduction only matters to the matrix-vector twins, which this source does not hold.
    Ok(OpenClTwins::build_source(
        context,
        OPENCL_C_THROUGHPUT_SOURCE,
        options.trim(),
        MatvecReduction::LocalMemory,
    )?)
}

/// Launches the OpenCL C twin of the `f32` throughput kernel `kernel` from
/// `twins` ([`build_throughput_twins`]): `groups` work-groups of
/// [`THROUGHPUT_BLOCK_THREADS`], `iterations` rounds, chain `c` of work-item
/// `t` into `out[c · items + t]`. The twin's arguments are checked against
/// the Rust kernel's parameters, the output's length against the launch.
pub fn opencl_throughput(
    queue: &ClQueue,
    twins: &OpenClTwins,
    kernel: ThroughputKernel,
    out: &mut ClBuffer<f32>,
    params: ChainParams<f32>,
    (iterations, groups): (u32, u32),
) -> Result<()> {
    let Some(signature) = f32::signature(kernel) else {
        return Err(Error::InvalidLaunch {
            kernel: kernel.entry(),
            reason: format!("its chains are {:?}, not f32", kernel.element()),
        });
    };
    throughput_shape(kernel, groups, out.len(), None)?;
    let twin = twins.kernel_of(signature)?;
    let nd = NdRange::groups_1d(groups as usize, THROUGHPUT_BLOCK_THREADS as usize);
    let ChainParams { start, step, a, b } = params;
    // SAFETY: matches (float*, float, float, float, float, uint), checked by kernel_of; the shape check proved
    // that `out` holds THROUGHPUT_CHAINS values per work-item.
    unsafe { queue.launch(twin, &nd, &[&*out, &start, &step, &a, &b, &iterations])? };
    Ok(())
}

use kernels_gpu::device::{Dim3, WARP_SIZE};

use crate::error::{Error, Result};
use crate::gpu::LaunchShape;

/// A 1-D grid of `blocks` blocks of `block_threads` threads, without dynamic
/// shared memory, once checked: 1 to `i32::MAX` blocks, 1 to `max_threads`
/// threads a block, and whole warps only when the kernel needs every lane
/// of every warp (`whole_warps`).
pub(crate) fn block_grid(
    kernel: &'static str,
    (block_threads, blocks): (u32, u32),
    max_threads: u32,
    whole_warps: bool,
) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch { kernel, reason };
    if block_threads == 0 || block_threads > max_threads {
        return Err(invalid(format!("{block_threads} threads a block: 1 to {max_threads}")));
    }
    if whole_warps && !block_threads.is_multiple_of(WARP_SIZE) {
        return Err(invalid(format!(
            "{block_threads} threads a block: this kernel needs whole warps (a multiple of {WARP_SIZE})"
        )));
    }
    if blocks == 0 || blocks > i32::MAX as u32 {
        return Err(invalid(format!("{blocks} blocks: 1 to {}", i32::MAX)));
    }
    Ok(LaunchShape {
        grid: Dim3::x(blocks),
        block: Dim3::x(block_threads),
        shared_bytes: 0,
    })
}

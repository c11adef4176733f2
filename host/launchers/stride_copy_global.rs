//! `stride_copy` (the global-memory family's Listing 3.6 kernel,
//! `kernels-gpu/src/global_memory/stride_copy.rs`) reading any
//! device-visible memory: mapped host memory for zero copy with a stride
//! (§3.1.3's uncoalesced mapped access). Its buffers come as pointers with
//! their lengths; the family's own shape check proves the launch in bounds.

use kernels_gpu::device::{GlobalMutPtr, GlobalPtr};
use kernels_gpu::global_memory::stride_copy_params;

use super::stride_copy_shape;
use crate::error::Result;
use crate::testbed::{DeviceUnderTest, Implementation};

/// Launches `implementation`'s `stride_copy` on the device's stream:
/// `out[t·stride] = inp[t·stride]` for `t < threads`, each pointer with the
/// number of floats it addresses.
pub fn stride_copy_global(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    (out, out_len): (GlobalMutPtr<f32>, usize),
    (inp, in_len): (GlobalPtr<f32>, usize),
    threads: u64,
    stride: i32,
) -> Result<()> {
    let shape = stride_copy_shape(threads, stride, out_len, in_len)?;
    // SAFETY: the shape check proved (threads - 1) · stride inside both lengths, which the caller states.
    unsafe { dut.launch::<stride_copy_params>(implementation, shape, (out, inp, stride)) }
}

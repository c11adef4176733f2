//! The kernels written in Rust-CUDA's `cuda_std` style
//! (`kernels-gpu/src/compat_layer/`, launched with Rust-CUDA's slice ABI)
//! and their `ptx-device` twins, against the CPU.

use super::SelfTest;
use super::checks::{first, verified};
use crate::copy_element::first_mismatch;
use crate::error::Result;
use crate::gpu::DeviceBuffer;
use crate::input_values::matrix_value;
use crate::launchers::{self, CompatKernel, KernelLayer};
use crate::reference::{block_tree_sums, vector_add};
use crate::testbed::Testbed;

use kernels_gpu::compat_layer::COMPAT_BLOCK_THREADS;

/// The checks of the compatibility-layer pairs, in the order `ptxsuite selftest` runs them
/// (gathered with the other families' by [`SELF_TESTS`](super::SELF_TESTS)).
pub(super) const SELF_TESTS: &[SelfTest] = &[SelfTest {
    name: "cuda_std kernels (vecadd, block_sum) and their ptx-device twins",
    run: compat_layer_kernels,
}];

/// Elements per launch: 64 whole blocks and a partial one (the kernels' tail guard).
const N: usize = 64 * COMPAT_BLOCK_THREADS as usize + 77;
/// Elements past `N` in the outputs, which no kernel may write.
const ROOM: usize = COMPAT_BLOCK_THREADS as usize;

/// `cuda_std_vecadd` and `cuda_std_block_sum` beside `ptx_device_vecadd` and
/// `ptx_device_block_sum`: bit for bit against the CPU (the block sums in the
/// kernels' tree order), and nothing written past the launch's elements.
pub(super) fn compat_layer_kernels(testbed: &Testbed) -> Result<()> {
    let dut = first(testbed);
    let a: Vec<f32> = (0..N).map(|i| matrix_value(i, 3)).collect();
    let b: Vec<f32> = (0..N).map(|i| matrix_value(i, 4)).collect();
    let (a_device, b_device) = (
        DeviceBuffer::from_host(dut.gpu(), &a)?,
        DeviceBuffer::from_host(dut.gpu(), &b)?,
    );
    let mut sums_expected = block_tree_sums(&a, COMPAT_BLOCK_THREADS as usize);
    let blocks = sums_expected.len();
    sums_expected.resize(blocks + ROOM, f32::NAN);
    let mut add_expected = vector_add(&a, &b);
    add_expected.resize(N + ROOM, f32::NAN);
    let mut c = DeviceBuffer::<f32>::uninit(dut.gpu(), N + ROOM)?;
    let mut partial = DeviceBuffer::<f32>::uninit(dut.gpu(), blocks + ROOM)?;
    for layer in KernelLayer::ALL {
        c.fill(f32::NAN)?;
        launchers::vecadd(dut, layer, &mut c, &a_device, &b_device, N as u64)?;
        verified(
            CompatKernel::VectorAdd.entry(layer),
            first_mismatch(&c.to_host()?, &add_expected),
        )?;
        partial.fill(f32::NAN)?;
        launchers::block_sum(dut, layer, &mut partial, &a_device, N as u64)?;
        verified(
            CompatKernel::BlockSum.entry(layer),
            first_mismatch(&partial.to_host()?, &sums_expected),
        )?;
    }
    Ok(())
}

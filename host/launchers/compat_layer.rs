//! The compatibility-layer pairs (`kernels-gpu/src/compat_layer/`): a vector
//! add and a block sum, each written against `cuda_std` (Rust-CUDA's API)
//! and against `ptx-device`, launched with the same shape on the same
//! buffers.
//!
//! The `cuda_std` kernels take Rust-CUDA's kernel ABI: every `&[f32]`
//! parameter is **two** driver parameters, the device pointer and its length
//! as a `u64` (`usize`), in the order `cust::launch!` passes them; a raw
//! `*mut f32` is one. The launchers pass the first `n` elements of each
//! buffer as the slice, so the kernels' own bounds checks can never fire.

use std::ffi::c_void;

use kernels_gpu::compat_layer::COMPAT_BLOCK_THREADS;

use super::block_grid::block_grid;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// What a compatibility-layer kernel is written against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelLayer {
    /// `cuda_std` (`crates/cuda-std`): `#[kernel]`, slices, `shared_array!`.
    CudaStd,
    /// `ptx-device`'s `kernel!`, as the rest of the suite: global pointers, dynamic shared memory.
    PtxDevice,
}

impl KernelLayer {
    pub const ALL: [Self; 2] = [Self::CudaStd, Self::PtxDevice];

    /// The name the report shows (`cuda_std`, `ptx-device`).
    pub fn label(self) -> &'static str {
        match self {
            Self::CudaStd => "cuda_std",
            Self::PtxDevice => "ptx-device",
        }
    }
}

/// An algorithm written against both layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompatKernel {
    /// `c[i] = a[i] + b[i]`, one element per thread.
    VectorAdd,
    /// One sum per block of 256 elements, a halving tree in shared memory.
    BlockSum,
}

impl CompatKernel {
    pub const ALL: [Self; 2] = [Self::VectorAdd, Self::BlockSum];

    /// The algorithm's name, the same for both layers (`vecadd`, `block_sum`).
    pub fn name(self) -> &'static str {
        match self {
            Self::VectorAdd => "vecadd",
            Self::BlockSum => "block_sum",
        }
    }

    /// The PTX entry of the algorithm written against `layer`.
    pub fn entry(self, layer: KernelLayer) -> &'static str {
        match (self, layer) {
            (Self::VectorAdd, KernelLayer::CudaStd) => "cuda_std_vecadd",
            (Self::VectorAdd, KernelLayer::PtxDevice) => "ptx_device_vecadd",
            (Self::BlockSum, KernelLayer::CudaStd) => "cuda_std_block_sum",
            (Self::BlockSum, KernelLayer::PtxDevice) => "ptx_device_block_sum",
        }
    }

    /// The kernel and layer of a PTX entry, if it is one of the four.
    pub fn of_entry(entry: &str) -> Option<(Self, KernelLayer)> {
        Self::ALL
            .into_iter()
            .flat_map(|k| KernelLayer::ALL.map(|l| (k, l)))
            .find(|(k, l)| k.entry(*l) == entry)
    }
}

/// Dynamic shared memory of a block sum: the `ptx-device` kernel's tile (the
/// `cuda_std` one declares its tile as a static `.shared` array instead).
pub fn block_sum_shared_bytes(layer: KernelLayer) -> u32 {
    match layer {
        KernelLayer::CudaStd => 0,
        KernelLayer::PtxDevice => COMPAT_BLOCK_THREADS * size_of::<f32>() as u32,
    }
}

/// The blocks a pair launches over `n` elements: one thread per element in
/// blocks of [`COMPAT_BLOCK_THREADS`]. `n` must be 1 to `u32::MAX` (the
/// kernels' thread index is 32-bit and must not wrap).
pub fn compat_blocks(kernel: CompatKernel, layer: KernelLayer, n: u64) -> Result<u32> {
    let entry = kernel.entry(layer);
    if n == 0 || n > u32::MAX as u64 {
        return Err(Error::InvalidLaunch {
            kernel: entry,
            reason: format!("{n} elements: 1 to {} (a 32-bit thread index)", u32::MAX),
        });
    }
    Ok(n.div_ceil(COMPAT_BLOCK_THREADS as u64) as u32)
}

/// Checks a vector add of the first `n` elements of `a` and `b` into `c`
/// (lengths `(c, a, b)`): every thread below `n` touches element `i` of all three.
pub fn vecadd_shape(layer: KernelLayer, n: u64, (c_len, a_len, b_len): (usize, usize, usize)) -> Result<LaunchShape> {
    let entry = CompatKernel::VectorAdd.entry(layer);
    let blocks = compat_blocks(CompatKernel::VectorAdd, layer, n)?;
    let shortest = c_len.min(a_len).min(b_len) as u64;
    if n > shortest {
        return Err(Error::InvalidLaunch {
            kernel: entry,
            reason: format!("{n} elements, but the buffers hold {c_len} (c), {a_len} (a) and {b_len} (b)"),
        });
    }
    block_grid(entry, (COMPAT_BLOCK_THREADS, blocks), COMPAT_BLOCK_THREADS, true)
}

/// Checks a block sum of the first `n` elements of `input` into `partial`:
/// thread `t` of block `b` reads element `256·b + t` when it is below `n`,
/// and each block writes `partial[b]`, so `partial` needs `ceil(n / 256)` elements.
pub fn block_sum_shape(layer: KernelLayer, n: u64, input_len: usize, partial_len: usize) -> Result<LaunchShape> {
    let entry = CompatKernel::BlockSum.entry(layer);
    let blocks = compat_blocks(CompatKernel::BlockSum, layer, n)?;
    if n > input_len as u64 || blocks as usize > partial_len {
        return Err(Error::InvalidLaunch {
            kernel: entry,
            reason: format!(
                "{n} elements in {blocks} blocks, but the input holds {input_len} and the partial sums {partial_len}"
            ),
        });
    }
    let shape = block_grid(entry, (COMPAT_BLOCK_THREADS, blocks), COMPAT_BLOCK_THREADS, true)?;
    Ok(LaunchShape {
        shared_bytes: block_sum_shared_bytes(layer),
        ..shape
    })
}

/// Launches the vector add written against `layer`: `c[i] = a[i] + b[i]` for `i < n`.
///
/// `cuda_std_vecadd(a: &[f32], b: &[f32], c: *mut f32)` gets `(a, n, b, n,
/// c)`, Rust-CUDA's slice ABI; `ptx_device_vecadd(c, a, b, n: u32)` its four.
pub fn vecadd(
    dut: &DeviceUnderTest,
    layer: KernelLayer,
    c: &mut DeviceBuffer<f32>,
    a: &DeviceBuffer<f32>,
    b: &DeviceBuffer<f32>,
    n: u64,
) -> Result<()> {
    let shape = vecadd_shape(layer, n, (c.len(), a.len(), b.len()))?;
    let kernel = dut.kernel(Implementation::Rust, CompatKernel::VectorAdd.entry(layer))?;
    let (mut a_ptr, mut b_ptr, mut c_ptr) = (a.device_ptr(), b.device_ptr(), c.device_ptr());
    match layer {
        KernelLayer::CudaStd => {
            let (mut a_len, mut b_len) = (n, n);
            let mut params = [
                (&raw mut a_ptr).cast::<c_void>(),
                (&raw mut a_len).cast::<c_void>(),
                (&raw mut b_ptr).cast::<c_void>(),
                (&raw mut b_len).cast::<c_void>(),
                (&raw mut c_ptr).cast::<c_void>(),
            ];
            // SAFETY: matches cuda_std_vecadd's entry (a: *const f32, usize, b: *const f32, usize, c: *mut f32);
            // the shape check proved n elements inside all three buffers.
            unsafe { kernel.launch(dut.gpu().stream(), shape, &mut params) }
        }
        KernelLayer::PtxDevice => {
            let mut n = n as u32; // compat_blocks checked n <= u32::MAX
            let mut params = [
                (&raw mut c_ptr).cast::<c_void>(),
                (&raw mut a_ptr).cast::<c_void>(),
                (&raw mut b_ptr).cast::<c_void>(),
                (&raw mut n).cast::<c_void>(),
            ];
            // SAFETY: matches ptx_device_vecadd(c, a, b, n: u32); the shape check proved n elements inside all three.
            unsafe { kernel.launch(dut.gpu().stream(), shape, &mut params) }
        }
    }
}

/// Launches the block sum written against `layer`: `partial[b]` = the tree
/// sum of elements `256·b ..` of the first `n` of `input` (zeros past `n`).
///
/// `cuda_std_block_sum(input: &[f32], partial: *mut f32)` gets `(input, n,
/// partial)`, Rust-CUDA's slice ABI; `ptx_device_block_sum(input, n: u32,
/// partial)` the same order with a 32-bit count, and its 1 KiB tile as
/// dynamic shared memory.
pub fn block_sum(
    dut: &DeviceUnderTest,
    layer: KernelLayer,
    partial: &mut DeviceBuffer<f32>,
    input: &DeviceBuffer<f32>,
    n: u64,
) -> Result<()> {
    let shape = block_sum_shape(layer, n, input.len(), partial.len())?;
    let kernel = dut.kernel(Implementation::Rust, CompatKernel::BlockSum.entry(layer))?;
    let (mut input_ptr, mut partial_ptr) = (input.device_ptr(), partial.device_ptr());
    let (mut length, mut count) = (n, n as u32); // compat_blocks checked n <= u32::MAX
    let length_param = match layer {
        KernelLayer::CudaStd => (&raw mut length).cast::<c_void>(),
        KernelLayer::PtxDevice => (&raw mut count).cast::<c_void>(),
    };
    let mut params = [
        (&raw mut input_ptr).cast::<c_void>(),
        length_param,
        (&raw mut partial_ptr).cast::<c_void>(),
    ];
    // SAFETY: matches cuda_std_block_sum (input: *const f32, usize, partial: *mut f32) and ptx_device_block_sum
    // (input, n: u32, partial); the shape check proved n elements inside input, one sum per block inside partial,
    // and gives the ptx-device kernel its 1 KiB of dynamic shared memory.
    unsafe { kernel.launch(dut.gpu().stream(), shape, &mut params) }
}

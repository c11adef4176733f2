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
//!
//! The family's runners, one per programming model ([`CompatLayerRunner`],
//! chosen by [`compat_layer_runners`]): CUDA's, launching both layers' Rust
//! kernels (the pairs have no CUDA C or OpenCL C twins).

mod cuda_runner;
mod runner;

pub use cuda_runner::CudaCompatLayerRunner;
pub use runner::{CompatLayerRunner, compat_layer_runners};

use kernels_gpu::compat_layer::{COMPAT_BLOCK_THREADS, ptx_device_block_sum_params, ptx_device_vecadd_params};
use kernels_gpu::device::{GlobalMutPtr, GlobalPtr, KernelSignature, Param, ParamKind};

use super::block_grid::block_grid;
use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the compatibility-layer pairs: the module must define each (gathered with the
/// other families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &[
    "cuda_std_vecadd",
    "ptx_device_vecadd",
    "cuda_std_block_sum",
    "ptx_device_block_sum",
];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    nominal_shape: Some(nominal_shape),
    ..Family::NONE
};

/// `cuda_std_vecadd(a: &[f32], b: &[f32], c: *mut f32)` as its PTX entry
/// takes it: `cuda_std`'s `#[kernel]` does not describe its parameters as
/// `kernel!` does, so its slice ABI is written out here (and checked against
/// the entry's `.param` list before each launch, as every signature is).
pub enum CudaStdVecadd {}

impl KernelSignature for CudaStdVecadd {
    const NAME: &'static str = "cuda_std_vecadd";
    type Args = (GlobalPtr<f32>, usize, GlobalPtr<f32>, usize, GlobalMutPtr<f32>);
    const PARAMS: &'static [Param] = &[
        Param {
            name: "a",
            kind: ParamKind::Pointer,
        },
        Param {
            name: "a.len()",
            kind: ParamKind::U64,
        },
        Param {
            name: "b",
            kind: ParamKind::Pointer,
        },
        Param {
            name: "b.len()",
            kind: ParamKind::U64,
        },
        Param {
            name: "c",
            kind: ParamKind::Pointer,
        },
    ];
}

/// `cuda_std_block_sum(input: &[f32], partial: *mut f32)` as its PTX entry
/// takes it (the slice ABI, as [`CudaStdVecadd`]).
pub enum CudaStdBlockSum {}

impl KernelSignature for CudaStdBlockSum {
    const NAME: &'static str = "cuda_std_block_sum";
    type Args = (GlobalPtr<f32>, usize, GlobalMutPtr<f32>);
    const PARAMS: &'static [Param] = &[
        Param {
            name: "input",
            kind: ParamKind::Pointer,
        },
        Param {
            name: "input.len()",
            kind: ParamKind::U64,
        },
        Param {
            name: "partial",
            kind: ParamKind::Pointer,
        },
    ];
}

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
            (Self::VectorAdd, KernelLayer::CudaStd) => CudaStdVecadd::NAME,
            (Self::VectorAdd, KernelLayer::PtxDevice) => ptx_device_vecadd_params::NAME,
            (Self::BlockSum, KernelLayer::CudaStd) => CudaStdBlockSum::NAME,
            (Self::BlockSum, KernelLayer::PtxDevice) => ptx_device_block_sum_params::NAME,
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

/// The shape a compatibility-layer kernel is reported with (occupancy,
/// resources): its launch over one block of elements; `None` for an entry
/// of another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    let (compat, layer) = CompatKernel::of_entry(entry)?;
    let one_block = COMPAT_BLOCK_THREADS as usize;
    match compat {
        CompatKernel::VectorAdd => vecadd_shape(layer, one_block as u64, (one_block, one_block, one_block)),
        CompatKernel::BlockSum => block_sum_shape(layer, one_block as u64, one_block, 1),
    }
    .ok()
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
    let (a, b, c) = (a.as_global(), b.as_global(), c.as_global_mut());
    match layer {
        KernelLayer::CudaStd => {
            let n = n as usize;
            // SAFETY: the shape check proved n elements inside all three buffers.
            unsafe { dut.launch::<CudaStdVecadd>(Implementation::Rust, shape, (a, n, b, n, c)) }
        }
        KernelLayer::PtxDevice => {
            let n = n as u32; // compat_blocks checked n <= u32::MAX
            // SAFETY: the shape check proved n elements inside all three.
            unsafe { dut.launch::<ptx_device_vecadd_params>(Implementation::Rust, shape, (c, a, b, n)) }
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
    let (input, partial) = (input.as_global(), partial.as_global_mut());
    // SAFETY (both): the shape check proved n elements inside input, one sum per block inside
    // partial, and gives the ptx-device kernel its 1 KiB of dynamic shared memory.
    match layer {
        KernelLayer::CudaStd => unsafe {
            dut.launch::<CudaStdBlockSum>(Implementation::Rust, shape, (input, n as usize, partial))
        },
        // compat_blocks checked n <= u32::MAX
        KernelLayer::PtxDevice => unsafe {
            dut.launch::<ptx_device_block_sum_params>(Implementation::Rust, shape, (input, n as u32, partial))
        },
    }
}

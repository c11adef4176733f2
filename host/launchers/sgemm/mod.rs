//! The general `C = A · B` (any m, n, k): the OpenCL guide's tiled kernel and
//! the register-blocked SGEMM, their launchers and shape checks, and the
//! family's runners, one per programming model ([`GemmRunner`]).

mod cublas_reference;
mod cuda_runner;
pub mod opencl;
mod opencl_runner;
mod runner;
mod tile_choice;

pub use cublas_reference::cublas_reference;
pub use cuda_runner::CudaGemmRunner;
pub use opencl_runner::OpenClGemmRunner;
pub use runner::{GemmEntry, GemmOp, GemmRunner, gemm_runners};
pub use tile_choice::{
    REGISTER_BLOCKED_TILES, RegisterBlockedPlan, SPLIT_K_MIN_TILES, SPLIT_K_PLAN, SPLIT_K_SPLITS, TileChoice,
    adds_into_c, register_blocked_plan, register_blocked_tile, register_blocked_tile_of_entry, split_k_deep_enough,
};

use half::f16;
use kernels_gpu::device::{Dim3, GlobalMutPtr, GlobalPtr, KernelSignature, Signature};
use kernels_gpu::sgemm::{
    SGEMM_THREADS, SGEMM_TILE_128X128, SGEMM_WARP_TILE_128X128, SgemmTile, TILED_SGEMM_TILE, hgemm_f16_storage_params,
    hgemm_f16_storage_whole_tiles_params, naive_sgemm_params, sgemm_register_blocked_128x64_guarded_edges_params,
    sgemm_register_blocked_128x64_params, sgemm_register_blocked_128x64_split_k_params,
    sgemm_register_blocked_128x64_whole_tiles_params, sgemm_register_blocked_guarded_edges_params,
    sgemm_register_blocked_params, sgemm_register_blocked_whole_tiles_params, sgemm_warp_tiled_params,
    sgemm_warp_tiled_whole_tiles_params, tiled_sgemm_params, tiled_sgemm_shared_bytes,
};
use serde::{Deserialize, Serialize};

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the general multiplies: the module must define each (gathered with the other
/// families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &[
    "tiled_sgemm",
    "sgemm_register_blocked",
    "sgemm_register_blocked_whole_tiles",
    "sgemm_register_blocked_128x64",
    "sgemm_register_blocked_128x64_whole_tiles",
    "sgemm_register_blocked_guarded_edges",
    "sgemm_register_blocked_128x64_guarded_edges",
    "sgemm_register_blocked_128x64_split_k",
    "sgemm_warp_tiled",
    "sgemm_warp_tiled_whole_tiles",
    "hgemm_f16_storage",
    "hgemm_f16_storage_whole_tiles",
];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    opencl_c_kernels: opencl::OPENCL_C_KERNELS,
    nominal_shape: Some(nominal_shape),
    ..Family::NONE
};

/// Checks that `A` (`m × k`), `B` (`k × n`) and `C` (`m × n`) fit their
/// buffers (lengths in elements) and that every index fits the kernels'
/// 32-bit arithmetic (and cuBLAS's `int` dimensions); `what` names the caller.
pub fn check_gemm_buffers(
    what: &'static str,
    (m, n, k): (u32, u32, u32),
    (a_len, b_len, c_len): (usize, usize, usize),
) -> Result<()> {
    let invalid = |reason: String| Error::InvalidLaunch { kernel: what, reason };
    if m == 0 || n == 0 || k == 0 {
        return Err(invalid(format!("C = A·B with m = {m}, n = {n}, k = {k} is empty")));
    }
    let (a_needed, b_needed, c_needed) = (m as u64 * k as u64, k as u64 * n as u64, m as u64 * n as u64);
    let largest = a_needed.max(b_needed).max(c_needed);
    if largest > i32::MAX as u64 {
        return Err(invalid(format!(
            "a {m} x {n} x {k} product has a matrix of {largest} elements, beyond 2^31 - 1 (32-bit indices)"
        )));
    }
    if (a_len as u64) < a_needed || (b_len as u64) < b_needed || (c_len as u64) < c_needed {
        return Err(invalid(format!(
            "a {m} x {n} x {k} product needs A >= {a_needed}, B >= {b_needed}, C >= {c_needed} elements; \
             got {a_len}, {b_len}, {c_len}"
        )));
    }
    Ok(())
}

/// The general `C = A · B` kernels (any `m`, `n`, `k`), f32 storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SgemmKernel {
    /// The OpenCL guide's §2.5 untiled kernel (a row of `A` and a column of `B` per thread).
    Naive,
    /// The OpenCL guide's §2.5 tiled kernel, edges guarded.
    Tiled,
    /// Block tiling, thread tiling, vectorized shared-memory loads.
    RegisterBlocked,
    /// The register-blocked design with warp tiles between the block and the
    /// thread, staged 16 deep (one 128 × 128 tile at every size, its own series).
    WarpTiled,
    /// The register-blocked kernel's split-K entry ([`SPLIT_K_PLAN`]): the
    /// 128 × 64 tile with `k` split in two at every size, `C` zeroed in the
    /// same launch sequence; its own series, beside the unsplit one, which
    /// never splits (see `tile_choice.rs`).
    RegisterBlockedSplitK,
}

impl SgemmKernel {
    pub const ALL: [Self; 5] = [
        Self::Naive,
        Self::Tiled,
        Self::RegisterBlocked,
        Self::WarpTiled,
        Self::RegisterBlockedSplitK,
    ];

    pub fn kernel(self) -> &'static str {
        match self {
            Self::Naive => naive_sgemm_params::NAME,
            Self::Tiled => tiled_sgemm_params::NAME,
            Self::RegisterBlocked => sgemm_register_blocked_params::NAME,
            Self::WarpTiled => sgemm_warp_tiled_params::NAME,
            Self::RegisterBlockedSplitK => sgemm_register_blocked_128x64_split_k_params::NAME,
        }
    }

    /// The launch shape for an `m × n` `C`; the register-blocked kernel's with
    /// `tile` (the split-K one's is always its plan's, [`SPLIT_K_PLAN`]).
    fn shape(self, (m, n): (u32, u32), tile: SgemmTile) -> LaunchShape {
        let t = TILED_SGEMM_TILE;
        match self {
            Self::Naive => LaunchShape {
                grid: Dim3::xy(n.div_ceil(t), m.div_ceil(t)),
                block: Dim3::xy(t, t),
                shared_bytes: 0,
            },
            Self::Tiled => LaunchShape {
                grid: Dim3::xy(n.div_ceil(t), m.div_ceil(t)),
                block: Dim3::xy(t, t),
                shared_bytes: tiled_sgemm_shared_bytes() as u32,
            },
            Self::RegisterBlocked => register_blocked_shape((m, n), tile),
            Self::WarpTiled => warp_tiled_shape((m, n)),
            Self::RegisterBlockedSplitK => plan_shape(SPLIT_K_PLAN, (m, n)),
        }
    }
}

/// The launch shape of the warp-tiled kernels ([`SGEMM_WARP_TILE_128X128`]).
fn warp_tiled_shape((m, n): (u32, u32)) -> LaunchShape {
    let tile = SGEMM_WARP_TILE_128X128;
    let (x, y) = tile.grid(m, n);
    LaunchShape {
        grid: Dim3::xy(x, y),
        block: Dim3::x(tile.threads()),
        shared_bytes: tile.shared_bytes() as u32,
    }
}

/// The warp-tiled entry for an `m × n × k` product: `_whole_tiles` where the shape allows.
pub fn warp_tiled_entry((m, n, k): (u32, u32, u32)) -> &'static str {
    if SGEMM_WARP_TILE_128X128.whole_tiles(m, n, k) {
        sgemm_warp_tiled_whole_tiles_params::NAME
    } else {
        sgemm_warp_tiled_params::NAME
    }
}

/// The launch shape of the register-blocked kernels (f32 and f16 storage) with `tile`.
fn register_blocked_shape((m, n): (u32, u32), tile: SgemmTile) -> LaunchShape {
    split_k_shape((m, n), tile, 1)
}

/// The launch shape of the register-blocked kernels with `tile`, `splits`
/// blocks per tile of `C` along `k` (`gridDim.z`; 1 for the unsplit entries).
fn split_k_shape((m, n): (u32, u32), tile: SgemmTile, splits: u32) -> LaunchShape {
    let (x, y) = tile.grid(m, n);
    LaunchShape {
        grid: Dim3::new(x, y, splits),
        block: Dim3::x(SGEMM_THREADS),
        shared_bytes: tile.shared_bytes() as u32,
    }
}

/// The launch shape of `plan` for an `m × n` `C`: its tile's grid, its splits deep.
fn plan_shape(plan: RegisterBlockedPlan, (m, n): (u32, u32)) -> LaunchShape {
    split_k_shape((m, n), plan.choice.tile, plan.splits)
}

/// Whether an `m × n × k` product is made of whole 128 × 128 × 8 tiles (the
/// f16-storage kernels' tile): then those launchers use the `_whole_tiles`
/// entries, which have no edge guards. The f32 kernels' tile and entry come from
/// [`register_blocked_plan`].
pub fn whole_register_blocked_tiles((m, n, k): (u32, u32, u32)) -> bool {
    SGEMM_TILE_128X128.whole_tiles(m, n, k)
}

/// The register-blocked entry for a product: `guarded`, or its `_whole_tiles` twin where the shape allows.
fn register_blocked_entry(guarded: &'static str, whole_tiles: &'static str, dims: (u32, u32, u32)) -> &'static str {
    if whole_register_blocked_tiles(dims) {
        whole_tiles
    } else {
        guarded
    }
}

/// Floating-point operations of one `m × n × k` product: a multiply and an add per term.
pub fn gemm_flops((m, n, k): (u32, u32, u32)) -> u64 {
    2 * m as u64 * n as u64 * k as u64
}

/// The launch shape of `kernel` for an `m × n × k` product, after checking the
/// buffers; the register-blocked kernel's for its 128 × 128 tile (see
/// [`sgemm_launch`] for the tile chosen per problem), the split-K series' its
/// plan's ([`SPLIT_K_PLAN`]).
pub fn sgemm_shape(
    kernel: SgemmKernel,
    (m, n, k): (u32, u32, u32),
    lens: (usize, usize, usize),
) -> Result<LaunchShape> {
    check_gemm_buffers(kernel.kernel(), (m, n, k), lens)?;
    Ok(kernel.shape((m, n), SGEMM_TILE_128X128))
}

/// The entry and launch shape that run `kernel` for an `m × n × k` product on
/// a GPU of `sm_count` SMs, after checking the buffers: for the
/// register-blocked kernel, the launch of [`register_blocked_plan`] (never
/// split): the tile's `_whole_tiles` entry where the shape allows, its
/// `_guarded_edges` one otherwise; for its split-K series, [`SPLIT_K_PLAN`]
/// at any shape (the split-K entry, two deep, on the 128 × 64 tile).
pub fn sgemm_launch(
    kernel: SgemmKernel,
    dims: (u32, u32, u32),
    lens: (usize, usize, usize),
    sm_count: u32,
) -> Result<(&'static str, LaunchShape)> {
    check_gemm_buffers(kernel.kernel(), dims, lens)?;
    Ok(match kernel {
        SgemmKernel::Naive | SgemmKernel::Tiled => {
            (kernel.kernel(), kernel.shape((dims.0, dims.1), SGEMM_TILE_128X128))
        }
        SgemmKernel::RegisterBlocked => {
            let plan = register_blocked_plan(dims, sm_count);
            (plan.entry(dims), plan_shape(plan, (dims.0, dims.1)))
        }
        SgemmKernel::RegisterBlockedSplitK => (SPLIT_K_PLAN.entry(dims), plan_shape(SPLIT_K_PLAN, (dims.0, dims.1))),
        SgemmKernel::WarpTiled => (warp_tiled_entry(dims), warp_tiled_shape((dims.0, dims.1))),
    })
}

/// The launch shape of `hgemm_f16_storage` for an `m × n × k` product, after checking the buffers.
pub fn hgemm_f16_storage_shape((m, n, k): (u32, u32, u32), lens: (usize, usize, usize)) -> Result<LaunchShape> {
    check_gemm_buffers("hgemm_f16_storage", (m, n, k), lens)?;
    Ok(register_blocked_shape((m, n), SGEMM_TILE_128X128))
}

/// The shape a general-multiply kernel is reported with (occupancy,
/// resources): its launch for a 1 × 1 × 1 product, each register-blocked
/// entry with its own tile; `None` for an entry of another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    if let Some(general) = SgemmKernel::ALL.into_iter().find(|g| g.kernel() == entry) {
        return sgemm_shape(general, (1, 1, 1), (1, 1, 1)).ok();
    }
    if let Some(choice) = register_blocked_tile_of_entry(entry) {
        return Some(split_k_shape((1, 1), choice.tile, choice.splits_of(entry)));
    }
    if entry == hgemm_f16_storage_params::NAME {
        return hgemm_f16_storage_shape((1, 1, 1), (1, 1, 1)).ok();
    }
    if entry == sgemm_warp_tiled_whole_tiles_params::NAME {
        return Some(warp_tiled_shape((1, 1)));
    }
    None
}

/// `C = A · B` (row-major, any shape) with one of the f32 kernels; the
/// register-blocked one with the tile [`register_blocked_plan`] picks for this
/// GPU's SM count, unsplit, its split-K series with [`SPLIT_K_PLAN`] (the same
/// for the Rust kernel and its CUDA C twin; a split-K launch zeroes `C` first,
/// in the same stream).
pub fn sgemm(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: SgemmKernel,
    a: &DeviceBuffer<f32>,
    b: &DeviceBuffer<f32>,
    c: &mut DeviceBuffer<f32>,
    dims: (u32, u32, u32),
) -> Result<()> {
    let sm_count = dut.info().multiprocessors.max(1) as u32;
    let (name, shape) = sgemm_launch(kernel, dims, (a.len(), b.len(), c.len()), sm_count)?;
    // SAFETY: the shape check proved A, B and C hold m·k, k·n and m·n floats; the kernel guards
    // its edges, or (whole-tile entry) the shape has none; the split-K shape is its plan's, splits deep.
    unsafe {
        launch_gemm(
            dut,
            implementation,
            name,
            shape,
            (a.as_global(), b.as_global(), c),
            dims,
        )
    }
}

/// `C = A · B` (row-major, any shape) with the register-blocked kernel on
/// `choice`'s tile, whatever the rule would pick, through `entry`: one of
/// [`TileChoice::entries_for`] for this shape (the self-test runs each).
#[allow(clippy::too_many_arguments)]
pub fn sgemm_register_blocked_with_tile(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    choice: TileChoice,
    entry: &'static str,
    a: &DeviceBuffer<f32>,
    b: &DeviceBuffer<f32>,
    c: &mut DeviceBuffer<f32>,
    dims: (u32, u32, u32),
) -> Result<()> {
    check_gemm_buffers(choice.entry, dims, (a.len(), b.len(), c.len()))?;
    if !choice.entries_for(dims).contains(&entry) {
        return Err(Error::InvalidLaunch {
            kernel: choice.entry,
            reason: format!(
                "{entry} cannot run a {} x {} x {} product on the {} tile",
                dims.0,
                dims.1,
                dims.2,
                choice.label()
            ),
        });
    }
    let shape = split_k_shape((dims.0, dims.1), choice.tile, choice.splits_of(entry));
    // SAFETY: the check proved A, B and C hold m·k, k·n and m·n floats; the shape is the tile's
    // grid for m × n (split-K: splits deep); the guarded entries guard their edges, and the
    // whole-tile one runs only on whole tiles.
    unsafe {
        launch_gemm(
            dut,
            implementation,
            entry,
            shape,
            (a.as_global(), b.as_global(), c),
            dims,
        )
    }
}

/// `C = A · B` with `A` and `B` stored as `f16` and `C` in `f32`
/// (`hgemm_f16_storage`: f32 arithmetic on the register-blocked design).
pub fn hgemm_f16_storage(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    a: &DeviceBuffer<f16>,
    b: &DeviceBuffer<f16>,
    c: &mut DeviceBuffer<f32>,
    dims: (u32, u32, u32),
) -> Result<()> {
    let shape = hgemm_f16_storage_shape(dims, (a.len(), b.len(), c.len()))?;
    let name = register_blocked_entry("hgemm_f16_storage", "hgemm_f16_storage_whole_tiles", dims);
    // `f16` is IEEE binary16: the kernel reads its bits as `u16`.
    let (pa, pb) = (a.as_global().cast::<u16>(), b.as_global().cast::<u16>());
    // SAFETY: the check proved A, B and C hold m·k, k·n and m·n elements; the kernel guards its
    // edges, or (whole-tile entry) the shape has none.
    unsafe { launch_gemm(dut, implementation, name, shape, (pa, pb, c), dims) }
}

/// Every GEMM kernel's parameters: `A`, `B` (elements of `T`), `C` (`f32`), `m`, `n`, `k`.
pub type GemmArgs<T> = (GlobalPtr<T>, GlobalPtr<T>, GlobalMutPtr<f32>, u32, u32, u32);

/// The storage types of `A` and `B`, with the kernels that take them.
trait GemmElement: Copy + 'static {
    /// The GEMM kernels whose `A` and `B` are of this type (tile and edge variants).
    const KERNELS: &'static [Signature<GemmArgs<Self>>];
}

impl GemmElement for f32 {
    const KERNELS: &'static [Signature<GemmArgs<f32>>] = &[
        naive_sgemm_params::SIGNATURE,
        tiled_sgemm_params::SIGNATURE,
        sgemm_register_blocked_params::SIGNATURE,
        sgemm_register_blocked_whole_tiles_params::SIGNATURE,
        sgemm_register_blocked_128x64_params::SIGNATURE,
        sgemm_register_blocked_128x64_whole_tiles_params::SIGNATURE,
        sgemm_register_blocked_guarded_edges_params::SIGNATURE,
        sgemm_register_blocked_128x64_guarded_edges_params::SIGNATURE,
        sgemm_register_blocked_128x64_split_k_params::SIGNATURE,
        sgemm_warp_tiled_params::SIGNATURE,
        sgemm_warp_tiled_whole_tiles_params::SIGNATURE,
    ];
}

/// `f16` storage, read as its IEEE binary16 bits.
impl GemmElement for u16 {
    const KERNELS: &'static [Signature<GemmArgs<u16>>] = &[
        hgemm_f16_storage_params::SIGNATURE,
        hgemm_f16_storage_whole_tiles_params::SIGNATURE,
    ];
}

/// Launches the `(a, b, c, m, n, k)` kernel `name`, one of `T`'s [`GemmElement::KERNELS`];
/// for a split-K entry ([`adds_into_c`]), zeroes `C` first in the same stream, so
/// the memset is part of the launch sequence (and of its timing).
///
/// # Safety
/// `shape` must be the kernel's shape for `dims`, and the buffers must hold the product (checked by the callers).
unsafe fn launch_gemm<T: GemmElement>(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    name: &str,
    shape: LaunchShape,
    (a, b, c): (GlobalPtr<T>, GlobalPtr<T>, &mut DeviceBuffer<f32>),
    (m, n, k): (u32, u32, u32),
) -> Result<()> {
    let signature = *T::KERNELS
        .iter()
        .find(|signature| signature.name == name)
        .ok_or_else(|| Error::MissingKernel(name.to_string()))?;
    if adds_into_c(name) {
        // The blocks add their partial tiles into C: it must start at zero (C = A·B, no beta).
        c.fill(0.0)?;
    }
    // SAFETY: bounds are the caller's contract.
    unsafe { dut.launch_signature(implementation, signature, shape, (a, b, c.as_global_mut(), m, n, k)) }
}

#[cfg(test)]
mod typed_launch_tests {
    use super::*;

    fn launchable<T: GemmElement>(name: &str) -> bool {
        T::KERNELS.iter().any(|signature| signature.name == name)
    }

    /// Every entry a launcher can pick has a signature: a missing one would refuse the launch at run time.
    #[test]
    fn every_entry_the_launchers_pick_has_a_signature() {
        for choice in REGISTER_BLOCKED_TILES {
            assert!(launchable::<f32>(choice.entry), "{}", choice.entry);
            assert!(
                launchable::<f32>(choice.guarded_edges_entry),
                "{}",
                choice.guarded_edges_entry
            );
            assert!(
                launchable::<f32>(choice.whole_tiles_entry),
                "{}",
                choice.whole_tiles_entry
            );
        }
        assert!(launchable::<f32>(SgemmKernel::Tiled.kernel()));
        assert!(launchable::<f32>(SPLIT_K_PLAN.entry((128, 64, 16))));
        assert!(launchable::<f32>(warp_tiled_entry((128, 128, 16))));
        assert!(launchable::<f32>(warp_tiled_entry((128, 128, 8))));
        assert!(launchable::<u16>("hgemm_f16_storage"));
        assert!(launchable::<u16>("hgemm_f16_storage_whole_tiles"));
        assert!(!launchable::<u16>("sgemm_register_blocked"));
    }
}

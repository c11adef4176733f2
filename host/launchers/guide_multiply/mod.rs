//! The CUDA C Best Practices Guide's shared-memory matrix multiplies
//! (§3.2.2.2–3.2.2.3): the kernels' cases ([`GuideMultiply`]), the shape
//! check, the typed, bounds-checked launcher ([`guide_multiply`]) and the
//! family's runners, one per programming model ([`GuideMultiplyRunner`],
//! chosen by [`guide_multiply_runners`]: the Rust kernels, their CUDA C twins
//! and cuBLAS SGEMM on the same products; no OpenCL C twins yet, whose runner
//! would join there).

mod cuda_runner;
mod runner;

pub use cuda_runner::CudaGuideMultiplyRunner;
pub use runner::{GuideLaunch, GuideMultiplyRunner, guide_multiply_runners};

use kernels_gpu::device::{Dim3, GlobalMutPtr, GlobalPtr, KernelSignature, Signature};
use kernels_gpu::guide_multiply::{
    TILE_DIM, coalesced_multiply_aat_padded_params, coalesced_multiply_aat_params, coalesced_multiply_params,
    shared_ab_multiply_params, simple_multiply_aat_params, simple_multiply_params, tile_bytes,
};
use serde::{Deserialize, Serialize};

use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the guide's matrix multiplies: the module must define each (gathered with the
/// other families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &[
    "simple_multiply",
    "coalesced_multiply",
    "shared_ab_multiply",
    "simple_multiply_aat",
    "coalesced_multiply_aat",
    "coalesced_multiply_aat_padded",
];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    nominal_shape: Some(nominal_shape),
    ..Family::NONE
};

/// The CUDA C Best Practices Guide's shared-memory matrix multiplies
/// (§3.2.2.2–3.2.2.3, Listings 3.7–3.11): `C = AB` with `A` of `M × 32` and
/// `B` of `32 × N`, and `C = AAᵀ` with `A` of `M × 32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GuideMultiply {
    /// Listing 3.7: `C = AB`, no shared memory.
    Simple,
    /// Listing 3.8: a tile of `A` in shared memory (coalesced reads of `A`).
    Coalesced,
    /// Listing 3.9: tiles of `A` and `B` in shared memory (no redundant reads of `B`).
    SharedAb,
    /// Listing 3.10: `C = AAᵀ`, strided reads of `A` for the transpose.
    SimpleAat,
    /// Listing 3.11: a transposed tile in shared memory (bank conflicts on its store).
    CoalescedAat,
    /// Listing 3.11 with the `[32][33]` tile: no bank conflicts.
    CoalescedAatPadded,
}

impl GuideMultiply {
    pub const ALL: [Self; 6] = [
        Self::Simple,
        Self::Coalesced,
        Self::SharedAb,
        Self::SimpleAat,
        Self::CoalescedAat,
        Self::CoalescedAatPadded,
    ];

    pub fn kernel(self) -> &'static str {
        match self.signature() {
            GuideSignature::Ab(signature) => signature.name,
            GuideSignature::Aat(signature) => signature.name,
        }
    }

    /// Its kernel's signature, one of the two parameter lists.
    fn signature(self) -> GuideSignature {
        use GuideSignature::{Aat, Ab};
        match self {
            Self::Simple => Ab(simple_multiply_params::SIGNATURE),
            Self::Coalesced => Ab(coalesced_multiply_params::SIGNATURE),
            Self::SharedAb => Ab(shared_ab_multiply_params::SIGNATURE),
            Self::SimpleAat => Aat(simple_multiply_aat_params::SIGNATURE),
            Self::CoalescedAat => Aat(coalesced_multiply_aat_params::SIGNATURE),
            Self::CoalescedAatPadded => Aat(coalesced_multiply_aat_padded_params::SIGNATURE),
        }
    }

    /// `C = AAᵀ` (one input, `C` is `M × M`) rather than `C = AB`.
    pub fn is_aat(self) -> bool {
        matches!(self, Self::SimpleAat | Self::CoalescedAat | Self::CoalescedAatPadded)
    }

    /// The unoptimized kernel of the same table (the speedup baseline).
    pub fn baseline(self) -> Self {
        if self.is_aat() { Self::SimpleAat } else { Self::Simple }
    }

    /// The row of Table 3.2 / 3.3 it reproduces, in our words.
    pub fn label(self) -> &'static str {
        match self {
            Self::Simple | Self::SimpleAat => "no optimization",
            Self::Coalesced => "tile of A in shared memory (coalesced)",
            Self::SharedAb => "tiles of A and B in shared memory (no redundant reads)",
            Self::CoalescedAat => "transposed tile in shared memory (coalesced reads)",
            Self::CoalescedAatPadded => "padded [32][33] tile (no bank conflicts)",
        }
    }

    /// Dynamic shared memory the kernel indexes.
    pub fn shared_bytes(self) -> u32 {
        let t = TILE_DIM as usize;
        (match self {
            Self::Simple | Self::SimpleAat => 0,
            Self::Coalesced => tile_bytes(1, t),
            Self::SharedAb | Self::CoalescedAat => tile_bytes(2, t),
            Self::CoalescedAatPadded => tile_bytes(1, t) + tile_bytes(1, t + 1),
        }) as u32
    }

    /// `(rows, cols)` of `C` for an `M`/`N` pair (`N` is ignored for `AAᵀ`).
    pub fn c_shape(self, m: u32, n: u32) -> (u32, u32) {
        if self.is_aat() { (m, m) } else { (m, n) }
    }

    /// Floating-point operations per launch: one multiply and one add per
    /// `TILE_DIM` term of each element of `C`.
    pub fn flops(self, m: u32, n: u32) -> u64 {
        let (rows, cols) = self.c_shape(m, n);
        2 * TILE_DIM as u64 * rows as u64 * cols as u64
    }

    /// Compulsory bytes per launch: `A` (and `B`) read once, `C` written once.
    pub fn compulsory_bytes(self, m: u32, n: u32) -> u64 {
        let (rows, cols) = self.c_shape(m, n);
        let inputs = if self.is_aat() {
            m as u64 * TILE_DIM as u64
        } else {
            (m as u64 + n as u64) * TILE_DIM as u64
        };
        4 * (inputs + rows as u64 * cols as u64)
    }
}

/// The launch shape for `kernel` after proving the kernel stays in bounds:
/// `M` (and `N`) non-zero multiples of `TILE_DIM`, `C`'s indices fitting the
/// kernels' `i32` arithmetic, and buffers of `A: M × 32`, `B: 32 × N`
/// (unused for `AAᵀ`), `C` as [`GuideMultiply::c_shape`] (lengths in floats).
pub fn guide_multiply_shape(
    kernel: GuideMultiply,
    m: u32,
    n: u32,
    (a_len, b_len, c_len): (usize, usize, usize),
) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch {
        kernel: kernel.kernel(),
        reason,
    };
    let dims: &[(&str, u32)] = if kernel.is_aat() {
        &[("M", m)]
    } else {
        &[("M", m), ("N", n)]
    };
    for &(name, value) in dims {
        if value == 0 || value % TILE_DIM != 0 {
            return Err(invalid(format!(
                "{name} = {value} must be a non-zero multiple of TILE_DIM = {TILE_DIM}"
            )));
        }
    }
    let (rows, cols) = kernel.c_shape(m, n);
    let c_elements = rows as u64 * cols as u64;
    if c_elements > i32::MAX as u64 {
        return Err(invalid(format!(
            "C of {rows} x {cols} has more than 2^31 - 1 elements: the guide's int indices would overflow"
        )));
    }
    let t = TILE_DIM as u64;
    let a_needed = m as u64 * t;
    let b_needed = if kernel.is_aat() { 0 } else { t * n as u64 };
    if (a_len as u64) < a_needed || (b_len as u64) < b_needed || (c_len as u64) < c_elements {
        return Err(invalid(format!(
            "needs A >= {a_needed}, B >= {b_needed}, C >= {c_elements} floats; got {a_len}, {b_len}, {c_len}"
        )));
    }
    Ok(LaunchShape {
        grid: Dim3::xy(cols / TILE_DIM, rows / TILE_DIM),
        block: Dim3::xy(TILE_DIM, TILE_DIM),
        shared_bytes: kernel.shared_bytes(),
    })
}

/// The shape a guide kernel is reported with (occupancy, resources): its
/// launch for one 32 × 32 tile of `C`; `None` for an entry of another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    let guide = GuideMultiply::ALL.into_iter().find(|g| g.kernel() == entry)?;
    guide_multiply_shape(guide, 32, 32, (32 * 32, 32 * 32, 32 * 32)).ok()
}

/// The two parameter lists of the guide's kernels: `(A, B, C, N)` for `C = AB`, `(A, C, M)` for `C = AAᵀ`.
enum GuideSignature {
    Ab(Signature<AbArgs>),
    Aat(Signature<AatArgs>),
}

type AbArgs = (GlobalPtr<f32>, GlobalPtr<f32>, GlobalMutPtr<f32>, i32);
type AatArgs = (GlobalPtr<f32>, GlobalMutPtr<f32>, i32);

/// Launches one of the guide's kernels. `b` is ignored for `C = AAᵀ`.
#[allow(clippy::too_many_arguments)]
pub fn guide_multiply(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: GuideMultiply,
    a: &DeviceBuffer<f32>,
    b: &DeviceBuffer<f32>,
    c: &mut DeviceBuffer<f32>,
    m: u32,
    n: u32,
) -> Result<()> {
    let shape = guide_multiply_shape(kernel, m, n, (a.len(), b.len(), c.len()))?;
    let (a, b, c) = (a.as_global(), b.as_global(), c.as_global_mut());
    // The last parameter is N for C = AB and M for C = AAᵀ: C's row length either way.
    let row_length = kernel.c_shape(m, n).1 as i32;
    match kernel.signature() {
        GuideSignature::Aat(signature) => {
            // SAFETY: the shape check proved A holds M x 32 floats and C M x M, and the grid covers
            // exactly C's tiles with the shared memory they index.
            unsafe { dut.launch_signature(implementation, signature, shape, (a, c, row_length)) }
        }
        GuideSignature::Ab(signature) => {
            // SAFETY: the shape check proved A holds M x 32, B 32 x N and C M x N floats, and the
            // grid covers exactly C's tiles.
            unsafe { dut.launch_signature(implementation, signature, shape, (a, b, c, row_length)) }
        }
    }
}

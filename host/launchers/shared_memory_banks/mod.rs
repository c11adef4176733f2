//! The shared-memory bank-conflict kernels (`kernels_gpu::shared_memory_banks`):
//! the family's description ([`BankKernel`]), the bounds-checked CUDA
//! launcher and its shape check, the OpenCL C twins' launcher ([`opencl`]),
//! and the family's runners, one per programming model ([`BankRunner`]),
//! that own the checksums and spans the experiments read.

mod cuda_runner;
pub mod opencl;
mod opencl_runner;
mod runner;

pub use cuda_runner::CudaBankRunner;
pub use opencl_runner::OpenClBankRunner;
pub use runner::{BankCase, BankRunner, BankTimes, bank_runners};

use kernels_gpu::block_span::BLOCK_SPAN_WORDS;
use kernels_gpu::device::{GlobalMutPtr, KernelSignature, Signature};
use kernels_gpu::shared_memory_banks::{
    NARROW_TABLE_BYTES, bank_read_b8_params, bank_read_b16_params, bank_read_b32_params, bank_read_b64_params,
    bank_read_b128_params, bank_read_permuted_params, bank_read_split_b64_params, bank_read_struct2_params,
    bank_read_struct3_params, bank_shared_bytes, bank_tile_column_read_params, bank_write_b32_params,
    bank_write_b64_params, bank_write_b128_params, permuted_lane_word,
};
use kernels_gpu::shared_memory_banks::{ROUND_ACCESSES, STRUCT_ROUND_ACCESSES};

use super::block_grid::block_grid;
use super::family::Family;
use crate::error::{Error, Result};
use crate::gpu::{DeviceBuffer, LaunchShape};
use crate::testbed::{DeviceUnderTest, Implementation};

/// The PTX entries of the bank-conflict kernels: the module must define each (gathered with the
/// other families' by [`ptx_entries`](fn@crate::launchers::ptx_entries)).
pub(super) const PTX_ENTRIES: &[&str] = &[
    "bank_read_b8",
    "bank_read_b16",
    "bank_read_struct2",
    "bank_read_struct3",
    "bank_read_split_b64",
    "bank_read_permuted",
    "bank_read_b32",
    "bank_read_b64",
    "bank_read_b128",
    "bank_write_b32",
    "bank_write_b64",
    "bank_write_b128",
    "bank_tile_column_read",
];

/// The family's declaration for the lists every family joins
/// ([`families`](super::families)).
pub(super) const FAMILY: Family = Family {
    ptx_entries: PTX_ENTRIES,
    opencl_c_kernels: opencl::OPENCL_C_KERNELS,
    nominal_shape: Some(nominal_shape),
    memory_claims: true,
};

/// The largest stride (or tile pitch) whose accesses stay inside the kernels'
/// table: `31 * stride + 32 * 31` (strided) or `31 * pitch + 31` (columns)
/// must be below `BANK_TABLE_ELEMENTS`.
const MAX_STRIDE: u32 = 33;
const MAX_PITCH: u32 = 64;

/// The parameters of every bank kernel: stride (or pitch), rounds, block spans, checksums.
pub type BankArgs = (u32, u32, GlobalMutPtr<u64>, GlobalMutPtr<u32>);

/// The block the bank-conflicts experiment launches (and the kernel table shows).
pub const BANK_BLOCK_THREADS: u32 = 256;

/// The width of one access of a bank kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BankAccess {
    Bytes4,
    Bytes8,
    Bytes16,
}

impl BankAccess {
    pub const ALL: [Self; 3] = [Self::Bytes4, Self::Bytes8, Self::Bytes16];

    pub fn bytes(self) -> u64 {
        match self {
            BankAccess::Bytes4 => 4,
            BankAccess::Bytes8 => 8,
            BankAccess::Bytes16 => 16,
        }
    }
}

/// One of the bank-conflict kernels (`kernels_gpu::shared_memory_banks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BankKernel {
    /// `bank_read_b32/b64/b128`: lane `l` reads element `l * stride + 32 j`.
    StridedRead(BankAccess),
    /// `bank_write_b32/b64/b128`: lane `l` writes element `l * stride + 32 j`.
    StridedWrite(BankAccess),
    /// `bank_tile_column_read`: lane `l` reads `tile[l][c]` of a `[32][pitch]` tile.
    TileColumnRead,
    /// `bank_read_b8` (1 byte) or `bank_read_b16` (2): lane `l` reads element `l * stride + j * 128 / bytes`.
    NarrowRead(u32),
    /// `bank_read_struct2/3`: structs of that many words, one load a member.
    StructRead(u32),
    /// `bank_read_split_b64`: a 64-bit value as two 32-bit halves in two arrays.
    SplitHalvesRead,
    /// `bank_read_permuted`: lane `l` reads word `permuted_lane_word(l, stride)` of each row.
    PermutedRead,
}

impl BankKernel {
    pub const ALL: [Self; 7] = [
        Self::StridedRead(BankAccess::Bytes4),
        Self::StridedRead(BankAccess::Bytes8),
        Self::StridedRead(BankAccess::Bytes16),
        Self::StridedWrite(BankAccess::Bytes4),
        Self::StridedWrite(BankAccess::Bytes8),
        Self::StridedWrite(BankAccess::Bytes16),
        Self::TileColumnRead,
    ];

    /// The OpenCL guide's other §3.1.2.5 cases, each beside a kernel of [`Self::ALL`].
    pub const GUIDE_CASES: [Self; 6] = [
        Self::NarrowRead(1),
        Self::NarrowRead(2),
        Self::StructRead(2),
        Self::StructRead(3),
        Self::SplitHalvesRead,
        Self::PermutedRead,
    ];

    pub fn kernel(self) -> &'static str {
        self.signature().name
    }

    /// Bytes each lane's access of one warp request reads (one load instruction).
    pub fn request_bytes(self) -> u64 {
        match self {
            BankKernel::NarrowRead(bytes) => bytes as u64,
            BankKernel::StructRead(_) | BankKernel::SplitHalvesRead | BankKernel::PermutedRead => 4,
            _ => self.access().bytes(),
        }
    }

    /// Warp requests (load or store instructions) a warp makes per round.
    pub fn requests_per_round(self) -> u64 {
        match self {
            BankKernel::StructRead(members) => (STRUCT_ROUND_ACCESSES * members) as u64,
            BankKernel::SplitHalvesRead => 2 * ROUND_ACCESSES as u64,
            _ => ROUND_ACCESSES as u64,
        }
    }

    /// The byte addresses (in the kernel's table) of one warp's first request
    /// of a round at `stride`: every request of the round sees the banks as it does.
    pub fn lane_addresses(self, stride: u32) -> Vec<u64> {
        let stride = stride as u64;
        (0..32u32)
            .map(|lane| {
                let l = lane as u64;
                match self {
                    BankKernel::NarrowRead(bytes) => l * stride * bytes as u64,
                    BankKernel::StructRead(members) => 4 * l * stride * members as u64,
                    BankKernel::SplitHalvesRead => 4 * l * stride,
                    BankKernel::PermutedRead => 4 * permuted_lane_word(lane, stride as u32) as u64,
                    _ => l * stride * self.access().bytes(),
                }
            })
            .collect()
    }

    /// Bytes of dynamic shared memory a launch needs.
    pub fn shared_bytes(self) -> usize {
        match self {
            BankKernel::NarrowRead(_) => NARROW_TABLE_BYTES as usize,
            _ => bank_shared_bytes(self.access().bytes() as usize),
        }
    }

    /// Its kernel's signature: every bank kernel takes `(stride, rounds, spans, checksums)`.
    pub fn signature(self) -> Signature<BankArgs> {
        use BankAccess::*;
        match self {
            BankKernel::StridedRead(Bytes4) => bank_read_b32_params::SIGNATURE,
            BankKernel::StridedRead(Bytes8) => bank_read_b64_params::SIGNATURE,
            BankKernel::StridedRead(Bytes16) => bank_read_b128_params::SIGNATURE,
            BankKernel::StridedWrite(Bytes4) => bank_write_b32_params::SIGNATURE,
            BankKernel::StridedWrite(Bytes8) => bank_write_b64_params::SIGNATURE,
            BankKernel::StridedWrite(Bytes16) => bank_write_b128_params::SIGNATURE,
            BankKernel::TileColumnRead => bank_tile_column_read_params::SIGNATURE,
            BankKernel::NarrowRead(1) => bank_read_b8_params::SIGNATURE,
            BankKernel::NarrowRead(_) => bank_read_b16_params::SIGNATURE,
            BankKernel::StructRead(2) => bank_read_struct2_params::SIGNATURE,
            BankKernel::StructRead(_) => bank_read_struct3_params::SIGNATURE,
            BankKernel::SplitHalvesRead => bank_read_split_b64_params::SIGNATURE,
            BankKernel::PermutedRead => bank_read_permuted_params::SIGNATURE,
        }
    }

    /// The element of the kernel's table (4 bytes for the narrow reads' word view).
    pub fn access(self) -> BankAccess {
        match self {
            BankKernel::StridedRead(access) | BankKernel::StridedWrite(access) => access,
            _ => BankAccess::Bytes4,
        }
    }

    /// The largest stride (pitch, for the tile; multiplier, for the permutation) the kernel accepts.
    pub fn max_stride(self) -> u32 {
        match self {
            BankKernel::TileColumnRead => MAX_PITCH,
            BankKernel::NarrowRead(_) => 8,
            BankKernel::StructRead(_) | BankKernel::SplitHalvesRead => 1,
            BankKernel::PermutedRead => u32::MAX,
            _ => MAX_STRIDE,
        }
    }

    /// Checksums the kernel writes: one per thread (the writes: each thread's share of its block's table).
    pub fn checksums(self, block_threads: u32, blocks: u32) -> u64 {
        blocks as u64 * block_threads as u64
    }
}

/// Checks a bank-kernel launch: `blocks` blocks of `block_threads` threads
/// (a multiple of 32, at most 1024, so every warp has all 32 lanes), a
/// stride (pitch) the table has room for, a span per block and the
/// kernel's checksums; the dynamic shared memory is the table's.
pub fn bank_kernel_shape(
    kernel: BankKernel,
    stride: u32,
    block_threads: u32,
    blocks: u32,
    spans_len: usize,
    checksums_len: usize,
) -> Result<LaunchShape> {
    let shape = bank_table_shape(kernel, stride, (block_threads, blocks), checksums_len)?;
    let span_words = BLOCK_SPAN_WORDS as u64 * blocks as u64;
    if (spans_len as u64) < span_words {
        return Err(Error::InvalidLaunch {
            kernel: kernel.kernel(),
            reason: format!("{blocks} blocks need {span_words} span words; the buffer holds {spans_len}"),
        });
    }
    Ok(shape)
}

/// The shape a bank kernel is reported with (occupancy, resources): one
/// block of [`BANK_BLOCK_THREADS`] with its table, as the experiments launch
/// it; `None` for an entry of another family.
pub(super) fn nominal_shape(entry: &str) -> Option<LaunchShape> {
    let bank = BankKernel::ALL
        .into_iter()
        .chain(BankKernel::GUIDE_CASES)
        .find(|b| b.kernel() == entry)?;
    bank_kernel_shape(
        bank,
        1,
        BANK_BLOCK_THREADS,
        1,
        BLOCK_SPAN_WORDS,
        BANK_BLOCK_THREADS as usize,
    )
    .ok()
}

/// [`bank_kernel_shape`] without the spans (the OpenCL C twins record none):
/// the block, the stride, the checksums and the table's shared memory.
pub(super) fn bank_table_shape(
    kernel: BankKernel,
    stride: u32,
    (block_threads, blocks): (u32, u32),
    checksums_len: usize,
) -> Result<LaunchShape> {
    let invalid = |reason: String| Error::InvalidLaunch {
        kernel: kernel.kernel(),
        reason,
    };
    let shape = block_grid(kernel.kernel(), (block_threads, blocks), 1024, true)?;
    if stride > kernel.max_stride() {
        return Err(invalid(format!(
            "stride {stride} is past the table (at most {})",
            kernel.max_stride()
        )));
    }
    let checksums = kernel.checksums(block_threads, blocks);
    if (checksums_len as u64) < checksums {
        return Err(invalid(format!(
            "{blocks} blocks need {checksums} checksums; the buffer holds {checksums_len}"
        )));
    }
    Ok(LaunchShape {
        shared_bytes: kernel.shared_bytes() as u32,
        ..shape
    })
}

/// Launches a bank kernel: `rounds` rounds of 32 accesses a lane at `stride`
/// (the tile's pitch for [`BankKernel::TileColumnRead`]); each block's span
/// (`kernels_gpu::block_span`) lands in `spans[4 block..]`, the checksums in `checksums`
/// (`reference::bank_read_checksum` / `bank_write_checksum` say what they must be).
#[allow(clippy::too_many_arguments)]
pub fn bank_kernel(
    dut: &DeviceUnderTest,
    implementation: Implementation,
    kernel: BankKernel,
    stride: u32,
    rounds: u32,
    (block_threads, blocks): (u32, u32),
    spans: &mut DeviceBuffer<u64>,
    checksums: &mut DeviceBuffer<u32>,
) -> Result<()> {
    let shape = bank_kernel_shape(kernel, stride, block_threads, blocks, spans.len(), checksums.len())?;
    let args = (stride, rounds, spans.as_global_mut(), checksums.as_global_mut());
    // SAFETY: the shape check proved the stride inside the table and both outputs large enough.
    unsafe { dut.launch_signature(implementation, kernel.signature(), shape, args) }
}

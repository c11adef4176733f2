use super::strided_read::{finish_read_rounds, lane_start};
use super::{STRUCT_ROUND_ACCESSES, fill_bank_table};
use crate::block_span::span_start;
use crate::device::{GlobalMutPtr, dynamic_shared_memory};

/// The struct reads' body: structs of `MEMBERS` 4-byte words, each member
/// read by a load of its own; lane `l` reads structs `l * stride + 32 * j`,
/// `j < STRUCT_ROUND_ACCESSES`, `rounds` times over.
///
/// # Safety
/// `stride <= 1`; `bank_shared_bytes(4)` of dynamic shared memory; `spans`
/// holds `BLOCK_SPAN_WORDS` words per block and `checksums` one per thread of a 1-D grid.
#[inline(always)]
unsafe fn timed_struct_rounds<const MEMBERS: u32>(
    stride: u32,
    rounds: u32,
    spans: GlobalMutPtr<u64>,
    checksums: GlobalMutPtr<u32>,
) {
    let table = dynamic_shared_memory::<u32>();
    // SAFETY: the launch has the table's shared memory (caller's contract).
    unsafe { fill_bank_table(table) };
    // Word index of the lane's first struct; every table word holds its own index.
    let mut base = lane_start(stride) * MEMBERS;
    let mut sum = 0u32;
    let start = span_start();
    for _ in 0..rounds {
        let lane_words = table.offset_elems(base as usize);
        let mut first = 0;
        for access in 0..STRUCT_ROUND_ACCESSES {
            for member in 0..MEMBERS {
                // SAFETY: base <= 31 * 3 and 93 + 96 * 15 + 2 < BANK_TABLE_ELEMENTS.
                let word = unsafe { lane_words.load((32 * MEMBERS * access + member) as usize) };
                if access == 0 && member == 0 {
                    first = word;
                }
                sum = sum.wrapping_add(word);
            }
        }
        base = first;
    }
    // SAFETY: forwarded contract.
    unsafe { finish_read_rounds(start, sum, spans, checksums) };
}

macro_rules! struct_read_kernel {
    ($name:ident, $members:literal, $fields:literal, $expected:literal) => {
        kernel! {
            #[doc = concat!("Reads an array of ", $members, "-word structs (`", $fields, "`) in shared memory, one")]
            /// `ld.shared.b32` per member as the OpenCL guide's §3.1.2.5 says a
            /// struct assignment compiles: lane `l` of every warp reads struct
            /// `l * stride + 32 * j`, `j < STRUCT_ROUND_ACCESSES`, `rounds`
            /// times over, so each member's load has lanes
            #[doc = concat!($members, " words apart.")]
            ///
            /// **Indexing**: the table's words hold their own index; the next
            /// round's base is the first word read. Checksums (the wrapping
            /// sum of every word a thread read) and spans as `bank_read_b32`.
            ///
            /// **Launch**: a 1-D grid of 1-D blocks, a multiple of 32 threads;
            /// `bank_shared_bytes(4)` of dynamic shared memory; `stride <= 1`.
            ///
            #[doc = concat!("**Expected**: ", $expected)]
            ///
            /// # Safety
            /// `stride <= 1`; `bank_shared_bytes(4)` of dynamic shared memory;
            /// `spans` holds `4 * gridDim.x` words and `checksums` `gridDim.x * blockDim.x`.
            pub unsafe fn $name(stride: u32, rounds: u32, spans: GlobalMutPtr<u64>, checksums: GlobalMutPtr<u32>) {
                // SAFETY: forwarded contract.
                unsafe { timed_struct_rounds::<$members>(stride, rounds, spans, checksums) }
            }
        }
    };
}

struct_read_kernel!(
    bank_read_struct2,
    2,
    "{ float x, y; }",
    "each load a 2-way conflict (lanes 2 words apart: 16 of 32 banks), then as now: twice the time of a conflict-free load (to be measured)."
);
struct_read_kernel!(
    bank_read_struct3,
    3,
    "{ float x, y, z; }",
    "conflict-free (3 is odd: 32 lanes in 32 banks), each load as fast as a stride-1 load (to be measured)."
);

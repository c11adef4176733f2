use super::strided_read::{finish_read_rounds, lane_start};
use super::{NARROW_TABLE_BYTES, ROUND_ACCESSES};
use crate::block_span::span_start;
use crate::device::{GlobalMutPtr, SharedPtr, block_dim_x, dynamic_shared_memory, sync_threads, thread_idx_x};

/// The 1- and 2-byte elements of the narrow reads: element `e` of the table
/// holds `e` truncated to the element (`e mod 256`, `e mod 65536`).
pub trait NarrowElement: Copy {
    /// The value of element `index` of the table.
    fn of_index(index: u32) -> Self;
    /// The value as a word (the checksums, the next round's base).
    fn word(self) -> u32;
}

impl NarrowElement for u8 {
    #[inline(always)]
    fn of_index(index: u32) -> Self {
        index as u8
    }
    #[inline(always)]
    fn word(self) -> u32 {
        self as u32
    }
}

impl NarrowElement for u16 {
    #[inline(always)]
    fn of_index(index: u32) -> Self {
        index as u16
    }
    #[inline(always)]
    fn word(self) -> u32 {
        self as u32
    }
}

/// The narrow reads' body for elements of `T`: lane `l` reads elements
/// `l * stride + (128 / size) * j`, `j < 32` (128 bytes apart, so every
/// access sees the banks as the first does), `rounds` times over; the next
/// round's base is the first element read (`l * stride < 256`: the element
/// holds its own index).
///
/// # Safety
/// `stride <= 8`; `NARROW_TABLE_BYTES` of dynamic shared memory; `spans`
/// holds `BLOCK_SPAN_WORDS` words per block and `checksums` one per thread of a 1-D grid.
#[inline(always)]
unsafe fn timed_narrow_rounds<T: NarrowElement>(
    stride: u32,
    rounds: u32,
    spans: GlobalMutPtr<u64>,
    checksums: GlobalMutPtr<u32>,
) {
    let size = size_of::<T>() as u32;
    let table: SharedPtr<T> = dynamic_shared_memory();
    let mut element = thread_idx_x();
    while element < NARROW_TABLE_BYTES / size {
        // SAFETY: element < NARROW_TABLE_BYTES / size: inside the launch's shared memory.
        unsafe { table.store(element as usize, T::of_index(element)) };
        element += block_dim_x();
    }
    sync_threads();
    let step = 128 / size;
    let mut base = lane_start(stride);
    let mut sum = 0u32;
    let start = span_start();
    for _ in 0..rounds {
        let lane_elements = table.offset_elems(base as usize);
        // SAFETY (all loads): base <= 31 * 8 and 248 + 128 / size * 31 < NARROW_TABLE_BYTES / size.
        let first = unsafe { lane_elements.load(0) };
        sum = sum.wrapping_add(first.word());
        for access in 1..ROUND_ACCESSES {
            // SAFETY: as above.
            sum = sum.wrapping_add(unsafe { lane_elements.load((step * access) as usize) }.word());
        }
        base = first.word();
    }
    // SAFETY: forwarded contract.
    unsafe { finish_read_rounds(start, sum, spans, checksums) };
}

macro_rules! narrow_read_kernel {
    ($name:ident, $elem:ty, $width:literal, $degree:literal) => {
        kernel! {
            #[doc = concat!("Reads shared memory in ", $width, "-byte elements (`ld.shared.u", stringify!($elem), "`'s width), lane `l` of every")]
            /// warp at elements `l * stride + j * 128 / size`, `j < 32`,
            /// `rounds` times over: the OpenCL guide's §3.1.2.5 case of
            /// elements narrower than a bank (`char data = shared[base + tid]`).
            /// At `stride` 1 several lanes read bytes of one 32-bit word.
            ///
            /// **Indexing**: element `e` of the table holds `e` truncated to
            /// the element; the lane alone picks the elements (every warp
            /// repeats the pattern); checksums (the wrapping sum of the
            /// values a thread read) and spans as `bank_read_b32`.
            ///
            /// **Launch**: a 1-D grid of 1-D blocks, a multiple of 32
            /// threads; `NARROW_TABLE_BYTES` of dynamic shared memory;
            /// `stride <= 8`.
            ///
            #[doc = concat!("**Expected**: on cc 1.x (16 banks, one word broadcast a pass) stride 1 was a ", $degree, "-way")]
            /// conflict; since cc 2.x lanes reading one word share it, so
            /// stride 1 costs what the conflict-free stride does (to be measured).
            ///
            /// # Safety
            /// `stride <= 8`; `NARROW_TABLE_BYTES` of dynamic shared memory;
            /// `spans` holds `4 * gridDim.x` words and `checksums` `gridDim.x * blockDim.x`.
            pub unsafe fn $name(stride: u32, rounds: u32, spans: GlobalMutPtr<u64>, checksums: GlobalMutPtr<u32>) {
                // SAFETY: forwarded contract.
                unsafe { timed_narrow_rounds::<$elem>(stride, rounds, spans, checksums) }
            }
        }
    };
}

narrow_read_kernel!(bank_read_b8, u8, "1", "4");
narrow_read_kernel!(bank_read_b16, u16, "2", "2");

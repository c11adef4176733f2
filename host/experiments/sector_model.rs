//! DRAM traffic the copy kernels cause if every 32-byte sector they touch
//! moves exactly once (reads and writes), computed from the addresses.
//!
//! This is the guide's "actual bandwidth" as opposed to effective bandwidth:
//! the bytes the memory system must move, not the bytes the kernel uses.

/// Sector size of every NVIDIA GPU since Fermi's L2.
pub const SECTOR_BYTES: u64 = 32;

/// Sectors spanned by the byte range `[start, end)`.
fn sectors_spanned(start: u64, end: u64) -> u64 {
    if end <= start {
        0
    } else {
        (end - 1) / SECTOR_BYTES - start / SECTOR_BYTES + 1
    }
}

/// Offset copy: one contiguous run of `elements` starting `offset` elements in, read and written.
pub fn offset_copy_bytes(elements: u64, offset: i32, elem_bytes: u64) -> u64 {
    let start = offset as u64 * elem_bytes;
    2 * SECTOR_BYTES * sectors_spanned(start, start + elements * elem_bytes)
}

/// Stride copy: element `t * stride` for `t < elements`, read and written.
pub fn stride_copy_bytes(elements: u64, stride: i32, elem_bytes: u64) -> u64 {
    let step = stride as u64 * elem_bytes;
    let sectors = if step >= SECTOR_BYTES {
        // Every element in its own sector (an element never straddles two: sizes divide 32).
        elements
    } else {
        sectors_spanned(0, (elements - 1) * step + elem_bytes)
    };
    2 * SECTOR_BYTES * sectors
}

/// Shift copy: reads `elements` starting `shift` in, writes `elements` from 0.
pub fn shift_copy_bytes(elements: u64, shift: i32, elem_bytes: u64) -> u64 {
    let start = shift as u64 * elem_bytes;
    SECTOR_BYTES * (sectors_spanned(start, start + elements * elem_bytes) + sectors_spanned(0, elements * elem_bytes))
}

//! DRAM traffic the copy kernels cause if every 32-byte sector they touch
//! moves exactly once (reads and writes), computed from the addresses.
//!
//! This is the guide's "actual bandwidth" as opposed to effective bandwidth:
//! the bytes the memory system must move, not the bytes the kernel uses.

/// DRAM bytes per launch of a copy: (elements, parameter, element bytes).
pub type SectorModel = fn(u64, i32, u64) -> u64;

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

#[cfg(test)]
mod tests {
    use super::{offset_copy_bytes, shift_copy_bytes, stride_copy_bytes};

    #[test]
    fn sector_model_counts_32_byte_sectors() {
        // 32 aligned f32 = 4 sectors read + 4 written.
        assert_eq!(offset_copy_bytes(32, 0, 4), 2 * 4 * 32);
        // Offset 1 spans one more sector each way.
        assert_eq!(offset_copy_bytes(32, 1, 4), 2 * 5 * 32);
        // Stride 8 of f32 = 32 bytes apart: one sector per element.
        assert_eq!(stride_copy_bytes(32, 8, 4), 2 * 32 * 32);
        assert_eq!(stride_copy_bytes(32, 32, 4), 2 * 32 * 32);
        // Stride 2: 32 elements span 63 f32 = 252 bytes = 8 sectors.
        assert_eq!(stride_copy_bytes(32, 2, 4), 2 * 8 * 32);
        // f32x4 at stride 2: 32 bytes apart, one sector each.
        assert_eq!(stride_copy_bytes(32, 2, 16), 2 * 32 * 32);
        // Shift 1: the reads span 5 sectors, the writes 4.
        assert_eq!(shift_copy_bytes(32, 1, 4), (5 + 4) * 32);
    }
}

//! DRAM traffic the copy kernels cause, computed from the addresses they
//! touch over the whole launch (the L2 merges what neighbouring warps touch,
//! so each unit of memory moves once):
//!
//! * **reads** fetch whole [`DRAM_READ_BYTES`] granules: the L2 of the H100
//!   fills two 32-byte sectors per miss (its DRAM counters: a stride copy 64
//!   or 128 bytes apart reads 64 bytes per element);
//! * **writes** write back whole 32-byte sectors ([`SECTOR_BYTES`]);
//! * a sector the kernel writes only **in part** is first read from DRAM
//!   (the L2 merges the new bytes into it: the counters read as much again
//!   as a stride copy writes).
//!
//! This is the guide's "actual bandwidth" as opposed to effective bandwidth:
//! the bytes the memory system must move, not the bytes the kernel uses.
//! `run --counters` checks it against the GPU's own DRAM counters.

/// DRAM bytes per launch of a copy: (elements, parameter, element bytes).
pub type SectorModel = fn(u64, i32, u64) -> u64;

/// Sector size of every NVIDIA GPU since Fermi's L2: the unit of a write back.
pub const SECTOR_BYTES: u64 = 32;

/// The unit of a DRAM read: two sectors (measured on the H100 by its DRAM counters).
pub const DRAM_READ_BYTES: u64 = 64;

/// Units of `unit` bytes spanned by the byte range `[start, end)`.
fn spanned(start: u64, end: u64, unit: u64) -> u64 {
    if end <= start {
        0
    } else {
        (end - 1) / unit - start / unit + 1
    }
}

/// Bytes of `unit`s that `elements` elements of `elem_bytes`, `step` bytes
/// apart from `start`, touch (an element never straddles two units: sizes divide 32).
fn touched(start: u64, elements: u64, step: u64, elem_bytes: u64, unit: u64) -> u64 {
    if elements == 0 {
        return 0;
    }
    let units = if step >= unit {
        elements
    } else {
        spanned(start, start + (elements - 1) * step + elem_bytes, unit)
    };
    units * unit
}

/// The sectors written only in part, in bytes: every written sector when the
/// elements leave gaps; the two ends of a contiguous run that starts or ends inside a sector.
fn partly_written(start: u64, elements: u64, step: u64, elem_bytes: u64) -> u64 {
    if elements == 0 {
        return 0;
    }
    if step > elem_bytes {
        return touched(start, elements, step, elem_bytes, SECTOR_BYTES);
    }
    let end = start + elements * elem_bytes;
    let ends = [start, end]
        .iter()
        .filter(|&&edge| !edge.is_multiple_of(SECTOR_BYTES))
        .count() as u64;
    ends.min(spanned(start, end, SECTOR_BYTES)) * SECTOR_BYTES
}

/// DRAM bytes of reading `elements` from `read_start` and writing them from
/// `write_start`, `step` bytes apart each.
fn copy_bytes(read_start: u64, write_start: u64, elements: u64, step: u64, elem_bytes: u64) -> u64 {
    touched(read_start, elements, step, elem_bytes, DRAM_READ_BYTES)
        + partly_written(write_start, elements, step, elem_bytes)
        + touched(write_start, elements, step, elem_bytes, SECTOR_BYTES)
}

/// Offset copy: one contiguous run of `elements` starting `offset` elements in, read and written.
pub fn offset_copy_bytes(elements: u64, offset: i32, elem_bytes: u64) -> u64 {
    let start = offset as u64 * elem_bytes;
    copy_bytes(start, start, elements, elem_bytes, elem_bytes)
}

/// Stride copy: element `t * stride` for `t < elements`, read and written.
pub fn stride_copy_bytes(elements: u64, stride: i32, elem_bytes: u64) -> u64 {
    copy_bytes(0, 0, elements, stride as u64 * elem_bytes, elem_bytes)
}

/// Shift copy: reads `elements` starting `shift` in, writes `elements` from 0.
pub fn shift_copy_bytes(elements: u64, shift: i32, elem_bytes: u64) -> u64 {
    copy_bytes(shift as u64 * elem_bytes, 0, elements, elem_bytes, elem_bytes)
}

/// Permuted copy: every warp reads and writes its own whole 32-element
/// segment, so the launch moves what the in-order copy moves, whatever the key.
pub fn permuted_copy_bytes(elements: u64, _key: i32, elem_bytes: u64) -> u64 {
    copy_bytes(0, 0, elements, elem_bytes, elem_bytes)
}

#[cfg(test)]
mod tests {
    use super::{offset_copy_bytes, permuted_copy_bytes, shift_copy_bytes, stride_copy_bytes};

    /// The H100's DRAM counters for a stride copy over a 268,435,456-byte
    /// buffer (elements = buffer / (4 × stride)): read + written MB, as
    /// `run --counters` measured them (2026-11-25).
    const COUNTED_MB: [(i32, f64); 8] = [
        (1, 537.5),
        (2, 805.5),
        (8, 804.8),
        (9, 745.0),
        (12, 627.0),
        (16, 538.2),
        (24, 360.1),
        (32, 270.7),
    ];

    #[test]
    fn the_model_matches_the_h100_counters_at_every_measured_stride() {
        for (stride, counted) in COUNTED_MB {
            let elements = (1u64 << 28) / (4 * stride as u64);
            let modelled = stride_copy_bytes(elements, stride, 4) as f64 / 1e6;
            let off = (modelled - counted).abs() / counted;
            assert!(
                off < 0.03,
                "stride {stride}: modelled {modelled:.1} MB, counted {counted} MB"
            );
        }
    }

    #[test]
    fn reads_are_granules_writes_sectors_and_part_writes_read_first() {
        // 32 aligned f32 = 2 granules read + 4 sectors written (whole: no fill).
        assert_eq!(offset_copy_bytes(32, 0, 4), 2 * 64 + 4 * 32);
        // Offset 1: 3 granules read; 5 sectors written, the two end sectors in part (read first).
        assert_eq!(offset_copy_bytes(32, 1, 4), 3 * 64 + 2 * 32 + 5 * 32);
        // Stride 8 of f32 = 32 bytes apart: every granule read; a sector filled and written per element.
        assert_eq!(stride_copy_bytes(32, 8, 4), 16 * 64 + 32 * (32 + 32));
        // Stride 16 = 64 bytes apart: a granule read, a sector filled and written per element.
        assert_eq!(stride_copy_bytes(32, 16, 4), 32 * (64 + 32 + 32));
        // Stride 2: 32 elements span 252 bytes: 4 granules; 8 sectors, every one in part.
        assert_eq!(stride_copy_bytes(32, 2, 4), 4 * 64 + 8 * 32 + 8 * 32);
        // Shift 1: the reads span 3 granules, the aligned writes 4 whole sectors.
        assert_eq!(shift_copy_bytes(32, 1, 4), 3 * 64 + 4 * 32);
        assert_eq!(stride_copy_bytes(0, 2, 4), 0);
        // Any permutation inside each segment: the aligned copy's traffic.
        assert_eq!(permuted_copy_bytes(64, 21, 4), offset_copy_bytes(64, 0, 4));
    }
}

//! The chunking of Listing 3.3b: the array cut into one contiguous piece per stream.

use std::ops::Range;

/// `len` elements cut into `chunks` contiguous ranges, each a multiple of
/// `align` elements except the last, as equal as that allows.
pub fn chunk_ranges(len: usize, chunks: u32, align: usize) -> Vec<Range<usize>> {
    let chunks = chunks.max(1) as usize;
    let align = align.max(1);
    let per_chunk = len.div_ceil(chunks).div_ceil(align) * align;
    (0..chunks)
        .map(|i| (i * per_chunk).min(len)..((i + 1) * per_chunk).min(len))
        .filter(|r| !r.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::chunk_ranges;

    #[test]
    fn chunks_cover_the_array_once_in_aligned_pieces() {
        for (len, chunks) in [
            (1_000_000usize, 1u32),
            (1_000_000, 3),
            (1_000_000, 16),
            (300, 16),
            (256, 4),
            (1, 7),
        ] {
            let ranges = chunk_ranges(len, chunks, 256);
            assert!(
                ranges.len() <= chunks as usize && !ranges.is_empty(),
                "{len}/{chunks}: {ranges:?}"
            );
            assert_eq!(ranges.first().unwrap().start, 0);
            assert_eq!(ranges.last().unwrap().end, len);
            for pair in ranges.windows(2) {
                assert_eq!(pair[0].end, pair[1].start, "contiguous");
                assert_eq!(pair[0].start % 256, 0, "aligned");
            }
        }
    }
}

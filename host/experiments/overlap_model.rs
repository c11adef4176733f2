//! The guide's model of staged copy/compute overlap (§3.1.2) and the chunking
//! of Listing 3.3b.

use std::ops::Range;

/// Predicted time of the staged pipeline with `streams` chunks, from the
/// times of the whole transfer (`transfer_ms`) and the whole kernel
/// (`kernel_ms`): the longer phase runs in full, and only one chunk of the
/// shorter one is left exposed.
pub fn staged_model_ms(transfer_ms: f64, kernel_ms: f64, streams: u32) -> f64 {
    let n = streams.max(1) as f64;
    if kernel_ms >= transfer_ms {
        kernel_ms + transfer_ms / n
    } else {
        transfer_ms + kernel_ms / n
    }
}

/// Fraction of the shorter phase hidden behind the longer one: 0 when the
/// pipeline takes `transfer + kernel`, 1 when it takes `max(transfer, kernel)`.
pub fn overlap_efficiency(transfer_ms: f64, kernel_ms: f64, measured_ms: f64) -> f64 {
    let shorter = transfer_ms.min(kernel_ms);
    if shorter <= 0.0 {
        return 0.0;
    }
    ((transfer_ms + kernel_ms - measured_ms) / shorter).clamp(0.0, 1.0)
}

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
    use super::{chunk_ranges, overlap_efficiency, staged_model_ms};

    #[test]
    fn staged_overlap_model_follows_the_guide() {
        // Kernel dominates: tE + tT / n.
        assert_eq!(staged_model_ms(4.0, 10.0, 4), 11.0);
        // Transfer dominates: tT + tE / n.
        assert_eq!(staged_model_ms(10.0, 4.0, 4), 11.0);
        assert_eq!(staged_model_ms(5.0, 5.0, 1), 10.0, "one stream: no overlap");
        assert_eq!(staged_model_ms(5.0, 5.0, 0), 10.0, "zero streams is treated as one");
        assert_eq!(overlap_efficiency(5.0, 5.0, 10.0), 0.0);
        assert_eq!(overlap_efficiency(5.0, 5.0, 5.0), 1.0);
        assert!((overlap_efficiency(4.0, 6.0, 8.0) - 0.5).abs() < 1e-12);
    }

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

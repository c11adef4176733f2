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

//! The guide's model of staged copy/compute overlap (§3.1.2).

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

#[cfg(test)]
mod tests {
    use super::{overlap_efficiency, staged_model_ms};

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
}

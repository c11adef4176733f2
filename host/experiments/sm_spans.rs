//! An SM's time from the block spans a kernel recorded
//! (`kernels_gpu::block_span`): per SM, the earliest start to the latest end
//! of the blocks that ran there, in that SM's own cycles; and the SM clock
//! the cycles and the global timer's nanoseconds give together.
//!
//! Blocks sharing an SM are not always run side by side (the warp
//! schedulers may favour the oldest), so one block's `end - start` can be
//! much shorter than the SM's busy time; the SM's span is not.

use kernels_gpu::block_span::BLOCK_SPAN_WORDS;

use super::launch_outputs::{median_of, sample_means};

/// What the spans of one launch say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmTime {
    /// SMs that ran at least one block.
    pub sms: usize,
    /// The sum over those SMs of each one's span, in its cycles.
    pub span_cycles: f64,
    /// The longest SM span: the launch lasts at least this long.
    pub max_span_cycles: f64,
    /// The SM clock (Hz) the blocks' cycles over their nanoseconds give;
    /// `None` when the global timer did not move.
    pub clock_hz: Option<f64>,
}

/// The SM time of one launch of `blocks` blocks from its span words
/// (`BLOCK_SPAN_WORDS` per block: start, end, SM, nanoseconds); `None` when a
/// block's words are missing or its end is before its start.
pub fn sm_time(words: &[u64], blocks: usize) -> Option<SmTime> {
    let spans = words.get(..blocks.checked_mul(BLOCK_SPAN_WORDS)?)?;
    // (sm, earliest start, latest end), in the order SMs first appear.
    let mut per_sm: Vec<(u64, u64, u64)> = Vec::new();
    let (mut cycles, mut ns) = (0.0f64, 0.0f64);
    for block in spans.as_chunks::<BLOCK_SPAN_WORDS>().0 {
        let (start, end, sm, elapsed_ns) = (block[0], block[1], block[2], block[3]);
        if end < start {
            return None;
        }
        cycles += (end - start) as f64;
        ns += elapsed_ns as f64;
        match per_sm.iter_mut().find(|(id, _, _)| *id == sm) {
            Some(entry) => {
                entry.1 = entry.1.min(start);
                entry.2 = entry.2.max(end);
            }
            None => per_sm.push((sm, start, end)),
        }
    }
    if per_sm.is_empty() {
        return None;
    }
    Some(SmTime {
        sms: per_sm.len(),
        span_cycles: per_sm.iter().map(|&(_, start, end)| (end - start) as f64).sum(),
        max_span_cycles: per_sm
            .iter()
            .map(|&(_, start, end)| (end - start) as f64)
            .fold(0.0, f64::max),
        clock_hz: (ns > 0.0 && cycles > 0.0).then(|| cycles / ns * 1e9),
    })
}

/// Clocks per unit of work (a warp request, a warp read) two ways: the SMs'
/// spans (`clock64`) and the events' time at the SM clock the spans'
/// nanoseconds give. Each launch's figure, the mean over each sample's
/// launches, then the median over the samples (as the events' samples).
///
/// The two measures of one launch's time are checked against each other:
/// the events' time in SM clocks against the longest SM's span (the launch
/// ends when its slowest SM does; SMs that share a cache with busier ones
/// can take longer than the mean).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestClocks {
    pub by_spans: Option<f64>,
    pub by_events: Option<f64>,
    pub clock_hz: Option<f64>,
    /// The launch's time in SM clocks by the events, and its longest SM span (medians over the launches).
    pub launch_cycles: Option<(f64, f64)>,
}

impl RequestClocks {
    /// From the spans of every launch of a timing run (the warm-up first;
    /// `None` where a launch's spans were unreadable), its `reps` launches per
    /// sample, the events' milliseconds per launch of each sample, and the
    /// units of work one launch does in all.
    pub fn of(spans: &[Option<SmTime>], reps: u32, times_ms: &[f64], work: f64) -> Self {
        let none = Self {
            by_spans: None,
            by_events: None,
            clock_hz: None,
            launch_cycles: None,
        };
        let Some(spans) = spans.iter().copied().collect::<Option<Vec<SmTime>>>() else {
            return none;
        };
        if work <= 0.0 || spans.is_empty() {
            return none;
        }
        let per_launch: Vec<f64> = spans.iter().map(|t| t.span_cycles / work).collect();
        let by_spans = median_of(&sample_means(&per_launch, reps));
        let clock_hz = median_of(&spans.iter().filter_map(|t| t.clock_hz).collect::<Vec<_>>());
        let sms = spans[0].sms as f64;
        let events_cycles = clock_hz.zip(median_of(times_ms)).map(|(hz, ms)| ms * 1e-3 * hz);
        let longest = median_of(&spans.iter().map(|t| t.max_span_cycles).collect::<Vec<_>>());
        Self {
            by_spans,
            by_events: events_cycles.map(|cycles| cycles / (work / sms)),
            clock_hz,
            launch_cycles: events_cycles.zip(longest),
        }
    }

    /// Why the point cannot be shown: the spans are missing, or the two
    /// measures of the launch's time (`quantity` names what is derived from them) disagree.
    pub fn failure(&self, quantity: &str) -> Option<String> {
        match (self.launch_cycles, self.by_spans) {
            (Some((events, longest)), Some(_)) => {
                disagreement_failure(&format!("a launch's SM clocks (behind {quantity})"), events, longest)
            }
            _ => Some(format!(
                "{quantity}: the blocks' clock64 spans were not recorded (or the global timer did not move), so the \
                 events' time cannot be checked against them"
            )),
        }
    }
}

/// The relative difference of two measures of one quantity, against the second.
pub fn disagreement(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// How far two measures of one quantity may differ (events against
/// `clock64`; nanoseconds against clocks).
pub const AGREEMENT: f64 = 0.05;

/// `Some(why)` when `by_events` and `by_clocks` (the same quantity) differ by
/// more than [`AGREEMENT`].
pub fn disagreement_failure(quantity: &str, by_events: f64, by_clocks: f64) -> Option<String> {
    let off = disagreement(by_events, by_clocks);
    // A NaN difference never agrees.
    (off.is_nan() || off > AGREEMENT).then(|| {
        format!(
            "two measures of {quantity} disagree by {:.0}%: {by_events:.3} from the events' time, {by_clocks:.3} from \
             the SMs' clock64 spans, the longest (at most {:.0}% allowed)",
            off * 100.0,
            AGREEMENT * 100.0
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{disagreement_failure, sm_time};

    /// Span words of blocks `(start, end, sm, ns)`.
    fn words(blocks: &[(u64, u64, u64, u64)]) -> Vec<u64> {
        blocks.iter().flat_map(|&(a, b, c, d)| [a, b, c, d]).collect()
    }

    #[test]
    fn an_sm_is_busy_from_its_first_start_to_its_last_end() {
        // SM 0: two blocks run one after the other (100..200, 200..300): its span is 200 cycles,
        // though each block saw only 100. SM 5: one block of 150.
        let w = words(&[(100, 200, 0, 50), (200, 300, 0, 50), (1000, 1150, 5, 75)]);
        let t = sm_time(&w, 3).unwrap();
        assert_eq!(t.sms, 2);
        assert_eq!(t.span_cycles, 350.0);
        assert_eq!(t.max_span_cycles, 200.0);
        assert_eq!(t.clock_hz, Some(350.0 / 175.0 * 1e9));
    }

    #[test]
    fn short_or_backwards_words_are_refused() {
        assert!(
            sm_time(&words(&[(1, 2, 0, 1)]), 2).is_none(),
            "two blocks, one block's words"
        );
        assert!(sm_time(&words(&[(5, 2, 0, 1)]), 1).is_none(), "end before start");
        assert!(sm_time(&[], 0).is_none());
        let frozen = sm_time(&words(&[(1, 2, 0, 0)]), 1).unwrap();
        assert_eq!(frozen.clock_hz, None, "a timer that did not move gives no clock");
    }

    #[test]
    fn request_clocks_come_two_ways() {
        use super::{RequestClocks, SmTime};
        // Two SMs, each busy 1000 cycles over 500 ns (2 GHz); 100 requests in all: 50 per SM.
        let t = SmTime {
            sms: 2,
            span_cycles: 2000.0,
            max_span_cycles: 1000.0,
            clock_hz: Some(2e9),
        };
        let spans = vec![Some(t); 1 + 2 * 3];
        // The events: 0.5 µs per launch → 1000 cycles per SM → 20 per request.
        let r = RequestClocks::of(&spans, 3, &[0.0005, 0.0005], 100.0);
        assert_eq!(r.by_spans, Some(20.0));
        assert!((r.by_events.unwrap() - 20.0).abs() < 1e-9, "{r:?}");
        assert_eq!(r.failure("x"), None);
        let slow = RequestClocks::of(&spans, 3, &[0.001, 0.001], 100.0);
        assert!(slow.failure("x").unwrap().contains("disagree by 100%"));
        let missing = RequestClocks::of(&[Some(t), None], 1, &[0.0005], 100.0);
        assert!(missing.failure("x").unwrap().contains("not recorded"));
    }

    #[test]
    fn measures_agree_within_five_percent() {
        assert_eq!(disagreement_failure("x", 1.04, 1.0), None);
        let why = disagreement_failure("SM clk per warp request", 0.31, 1.0).unwrap();
        assert!(why.contains("disagree by 69%"), "{why}");
        assert!(disagreement_failure("x", f64::NAN, 1.0).is_some(), "NaN never agrees");
    }
}

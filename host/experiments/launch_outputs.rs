//! Figures a kernel measures itself, kept for every launch of one timing
//! run: the buffers and the timing loop are the launchers'
//! ([`LaunchOutputs`](crate::launchers::LaunchOutputs), behind the runners);
//! here, what the experiments make of the figures (per-sample means, medians).

pub use crate::launchers::{TimedLaunches, kept_reps, launches_of};

/// The per-sample means of a figure taken from every launch of a timing run
/// (`per_launch[0]` the warm-up, then samples of `reps` launches in order):
/// the warm-up is dropped, an incomplete last group too.
pub fn sample_means(per_launch: &[f64], reps: u32) -> Vec<f64> {
    let reps = reps.max(1) as usize;
    per_launch
        .get(1..)
        .unwrap_or(&[])
        .chunks_exact(reps)
        .map(|sample| sample.iter().sum::<f64>() / reps as f64)
        .collect()
}

/// The median of `values` (the middle pair's mean for an even count); `None` when empty.
pub fn median_of(values: &[f64]) -> Option<f64> {
    crate::stats::Summary::of(values).map(|s| s.median)
}

#[cfg(test)]
mod tests {
    use super::sample_means;

    #[test]
    fn samples_skip_the_warm_up_and_average_their_reps() {
        // warm-up 100, then samples [1, 3] and [5, 7] of two launches each.
        assert_eq!(sample_means(&[100.0, 1.0, 3.0, 5.0, 7.0], 2), [2.0, 6.0]);
        assert_eq!(
            sample_means(&[100.0, 1.0, 3.0, 5.0], 2),
            [2.0],
            "an incomplete group is dropped"
        );
        assert_eq!(sample_means(&[100.0, 4.0], 0), [4.0], "reps 0 counts as 1");
        assert!(sample_means(&[], 3).is_empty());
    }
}

//! Summaries of repeated measurements.

use serde::{Deserialize, Serialize};

/// Minimum, median and maximum of a set of samples, and the median's
/// confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub min: f64,
    pub median: f64,
    pub max: f64,
    /// The median's 95% confidence interval, distribution-free: the order
    /// statistics `[x(k), x(n+1-k)]` of the sorted samples, `k` the largest
    /// with `2 · P(Binomial(n, ½) < k) ≤ 5%` (11 samples: the 2nd and 10th).
    /// Absent with fewer than 6 samples (no such `k`) and in reports written
    /// before it: then [`Summary::median_interval`] is min–max.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median_ci: Option<[f64; 2]>,
}

/// The confidence of [`Summary::median_ci`].
pub const MEDIAN_CI_CONFIDENCE: f64 = 0.95;

/// The 1-based rank `k` of the lower end of the median's confidence interval
/// over `n` samples (see [`Summary::median_ci`]); `None` when `n` is too small.
pub fn median_ci_rank(n: usize) -> Option<usize> {
    if n == 0 || n > 100_000 {
        return None;
    }
    // P(Binomial(n, 1/2) <= j) accumulated in logs, exact enough for n up to 1e5.
    let half_n = (n as f64) * std::f64::consts::LN_2;
    let mut log_choose = 0.0f64; // ln C(n, j)
    let mut below = 0.0f64; // P(B <= j)
    let mut rank = None;
    for j in 0..n {
        if j > 0 {
            log_choose += ((n - j + 1) as f64).ln() - (j as f64).ln();
        }
        below += (log_choose - half_n).exp();
        // k = j + 1 is allowed when 2 · P(B <= j) <= 1 - confidence.
        if 2.0 * below <= 1.0 - MEDIAN_CI_CONFIDENCE {
            rank = Some(j + 1);
        } else {
            break;
        }
    }
    rank.filter(|&k| 2 * k <= n + 1)
}

impl Summary {
    /// Summarizes `samples`; `None` when there are none or one is not finite.
    pub fn of(samples: &[f64]) -> Option<Self> {
        if samples.is_empty() || samples.iter().any(|s| !s.is_finite()) {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Some(Self {
            min: sorted[0],
            median,
            max: sorted[n - 1],
            median_ci: median_ci_rank(n).map(|k| [sorted[k - 1], sorted[n - k]]),
        })
    }

    /// A summary of three figures with no interval for the median.
    pub fn min_median_max(min: f64, median: f64, max: f64) -> Self {
        Self {
            min,
            median,
            max,
            median_ci: None,
        }
    }

    /// The range the ledger grades: the median's confidence interval, or
    /// min–max where there is none.
    pub fn median_interval(&self) -> (f64, f64) {
        match self.median_ci {
            Some([low, high]) => (low, high),
            None => (self.min, self.max),
        }
    }

    /// Applies a decreasing function (time → bandwidth): min and max swap.
    pub fn map_decreasing(self, f: impl Fn(f64) -> f64) -> Self {
        Self {
            min: f(self.max),
            median: f(self.median),
            max: f(self.min),
            median_ci: self.median_ci.map(|[low, high]| [f(high), f(low)]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Summary, median_ci_rank};

    #[test]
    fn the_median_interval_drops_the_ranks_a_binomial_allows() {
        // Published tables of the distribution-free interval (e.g. Conover, Practical
        // Nonparametric Statistics): n = 6 → ranks 1 and 6; 11 → 2 and 10; 20 → 6 and 15;
        // 33 → 11 and 23.
        assert_eq!(median_ci_rank(5), None, "2 · (1/32) > 5%");
        assert_eq!(median_ci_rank(6), Some(1));
        assert_eq!(median_ci_rank(11), Some(2));
        assert_eq!(median_ci_rank(20), Some(6));
        assert_eq!(median_ci_rank(33), Some(11));
        let samples: Vec<f64> = (1..=11).map(f64::from).collect();
        let s = Summary::of(&samples).unwrap();
        assert_eq!(
            (s.min, s.median, s.max, s.median_ci),
            (1.0, 6.0, 11.0, Some([2.0, 10.0]))
        );
        assert_eq!(s.median_interval(), (2.0, 10.0));
        let bandwidth = s.map_decreasing(|t| 1.0 / t);
        assert_eq!(bandwidth.median_ci, Some([0.1, 0.5]));
        let few = Summary::of(&[1.0, 2.0, 3.0]).unwrap();
        assert_eq!(few.median_interval(), (1.0, 3.0), "too few samples: min–max");
    }

    #[test]
    fn reports_without_the_interval_still_load() {
        let old: Summary = serde_json::from_str(r#"{"min": 1.0, "median": 2.0, "max": 3.0}"#).unwrap();
        assert_eq!(old.median_interval(), (1.0, 3.0));
        let written = serde_json::to_string(&Summary::min_median_max(1.0, 2.0, 3.0)).unwrap();
        assert!(!written.contains("median_ci"), "{written}");
    }
}

//! Summaries of repeated measurements.

use serde::{Deserialize, Serialize};

/// Minimum, median and maximum of a set of samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub min: f64,
    pub median: f64,
    pub max: f64,
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
        })
    }

    /// Applies a decreasing function (time → bandwidth): min and max swap.
    pub fn map_decreasing(self, f: impl Fn(f64) -> f64) -> Self {
        Self {
            min: f(self.max),
            median: f(self.median),
            max: f(self.min),
        }
    }
}

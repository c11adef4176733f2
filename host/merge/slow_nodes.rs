//! The rule that names a slow node: how a node's figure compares with the
//! median of all nodes, point by point and series by series.

/// A node's figure over the median across nodes, the way round that makes
/// higher better (`median / value` for times); `None` unless both are above 0.
pub fn relative_figure(value: f64, median: f64, higher_is_better: bool) -> Option<f64> {
    (value > 0.0 && median > 0.0 && value.is_finite() && median.is_finite()).then(|| {
        if higher_is_better {
            value / median
        } else {
            median / value
        }
    })
}

/// The geometric mean (the mean of ratios that treats 2× and ½× alike); `None` for no values.
pub fn geometric_mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() || values.iter().any(|v| !(*v > 0.0 && v.is_finite())) {
        return None;
    }
    Some((values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp())
}

/// Whether a relative figure is more than `threshold` (a fraction) below the median.
pub fn below_threshold(relative: f64, threshold: f64) -> bool {
    relative < 1.0 - threshold
}

/// The rule in words, for the reports.
pub fn rule(threshold_percent: f64) -> String {
    format!(
        "a node is named slow when, on some series (one kernel or copy of one experiment on one GPU), the geometric \
         mean over the series' points of its figure / the median of all nodes' figures (inverted for times) is more \
         than {threshold_percent}% below 1, or when one of its points failed its check; a single point more than \
         {threshold_percent}% below the median is marked but does not name the node by itself (one noisy sample \
         should not)"
    )
}

#[cfg(test)]
mod tests {
    use super::{below_threshold, geometric_mean, relative_figure};

    #[test]
    fn relative_figures_make_higher_better() {
        assert_eq!(relative_figure(90.0, 100.0, true), Some(0.9));
        // A time 25% longer than the median is a relative figure of 0.8.
        assert_eq!(relative_figure(1.25, 1.0, false), Some(0.8));
        assert_eq!(relative_figure(0.0, 100.0, true), None);
        assert_eq!(relative_figure(10.0, 0.0, true), None);
        assert_eq!(relative_figure(f64::NAN, 1.0, true), None);
    }

    #[test]
    fn geometric_means_and_the_threshold() {
        assert!((geometric_mean(&[2.0, 0.5]).unwrap() - 1.0).abs() < 1e-12);
        assert!((geometric_mean(&[0.9, 0.9, 0.9]).unwrap() - 0.9).abs() < 1e-12);
        assert_eq!(geometric_mean(&[]), None);
        assert_eq!(geometric_mean(&[1.0, 0.0]), None);
        assert!(below_threshold(0.94, 0.05));
        assert!(!below_threshold(0.95, 0.05));
        assert!(!below_threshold(1.3, 0.05));
    }
}

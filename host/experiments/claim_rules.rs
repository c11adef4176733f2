//! Verdict rules for the documents' claims that state no factor ("particularly
//! costly", "much greater", "slightly better", "no warp diverges"): each rule
//! is a threshold the ledger row states, applied to one measured ratio.

use crate::report::Verdict;

/// A ratio within `1 / GONE_BAND .. GONE_BAND` of 1 is no effect: the
/// ledger's own band ([`Verdict::of_factor`]'s), which these rules share.
const GONE_BAND: f64 = 1.05;

/// A claim that A is at least `threshold` times B (B's cost over A's):
/// holds at `threshold` or more; weaker above the no-effect band
/// (1.05) but short of it; gone within 1/1.05..1.05; reversed at or below
/// 1/1.05. A measurement that is not a positive number is gone.
pub fn at_least(threshold: f64, measured: f64) -> Verdict {
    if !(measured.is_finite() && measured > 0.0) {
        Verdict::Gone
    } else if measured >= threshold {
        Verdict::Holds
    } else if measured >= GONE_BAND {
        Verdict::Weaker
    } else if measured > 1.0 / GONE_BAND {
        Verdict::Gone
    } else {
        Verdict::Reversed
    }
}

/// The rule of [`at_least`], as a ledger row states it.
pub fn at_least_rule(threshold: f64, reading: &str) -> String {
    format!(
        "{reading}: holds at {threshold}x or more; weaker above 1.05x but short of that; gone within 1/1.05..1.05x; \
         reversed at or below 1/1.05x"
    )
}

/// A claim that something costs nothing extra (`measured` = its time over
/// the time without it): holds within `holds_within` (e.g. 1.10), weaker
/// within `weaker_within`, gone beyond (the cost the claim says is avoided is there).
pub fn no_extra_cost(holds_within: f64, weaker_within: f64, measured: f64) -> Verdict {
    if !(measured.is_finite() && measured > 0.0) {
        Verdict::Gone
    } else if measured <= holds_within {
        Verdict::Holds
    } else if measured <= weaker_within {
        Verdict::Weaker
    } else {
        Verdict::Gone
    }
}

/// A claim of a small advantage with no factor ("slightly better"):
/// holds when the advantage is past the no-effect band (≥ 1.05), gone
/// within it, reversed at or below 1/1.05.
pub fn slight_advantage(measured: f64) -> Verdict {
    if !(measured.is_finite() && measured > 0.0) {
        Verdict::Gone
    } else if measured >= GONE_BAND {
        Verdict::Holds
    } else if measured > 1.0 / GONE_BAND {
        Verdict::Gone
    } else {
        Verdict::Reversed
    }
}

#[cfg(test)]
mod tests {
    use super::{at_least, no_extra_cost, slight_advantage};
    use crate::report::Verdict;

    #[test]
    fn at_least_grades_against_its_threshold_and_the_no_effect_band() {
        assert_eq!(at_least(2.0, 2.0), Verdict::Holds);
        assert_eq!(at_least(2.0, 7.5), Verdict::Holds);
        assert_eq!(at_least(2.0, 1.99), Verdict::Weaker);
        assert_eq!(at_least(2.0, 1.05), Verdict::Weaker);
        assert_eq!(at_least(2.0, 1.04), Verdict::Gone);
        assert_eq!(at_least(2.0, 0.96), Verdict::Gone);
        assert_eq!(at_least(2.0, 0.95), Verdict::Reversed);
        assert_eq!(at_least(2.0, f64::NAN), Verdict::Gone);
        assert_eq!(at_least(2.0, 0.0), Verdict::Gone);
    }

    #[test]
    fn no_extra_cost_holds_only_near_one() {
        assert_eq!(no_extra_cost(1.10, 1.5, 0.97), Verdict::Holds);
        assert_eq!(no_extra_cost(1.10, 1.5, 1.10), Verdict::Holds);
        assert_eq!(no_extra_cost(1.10, 1.5, 1.2), Verdict::Weaker);
        assert_eq!(no_extra_cost(1.10, 1.5, 1.51), Verdict::Gone);
        assert_eq!(no_extra_cost(1.10, 1.5, f64::INFINITY), Verdict::Gone);
    }

    #[test]
    fn the_band_is_the_ledgers() {
        // of_factor grades 1.05 as an effect and 1.049 as none, as these rules do.
        assert_eq!(Verdict::of_factor(1.1, super::GONE_BAND), Verdict::Holds);
        assert_eq!(Verdict::of_factor(8.0, super::GONE_BAND - 1e-3), Verdict::Gone);
        assert_eq!(Verdict::of_factor(8.0, 1.0 / super::GONE_BAND), Verdict::Reversed);
    }

    #[test]
    fn a_slight_advantage_needs_only_to_leave_the_band() {
        assert_eq!(slight_advantage(1.05), Verdict::Holds);
        assert_eq!(slight_advantage(1.3), Verdict::Holds);
        assert_eq!(slight_advantage(1.0), Verdict::Gone);
        assert_eq!(slight_advantage(0.96), Verdict::Gone);
        assert_eq!(slight_advantage(0.9), Verdict::Reversed);
    }
}

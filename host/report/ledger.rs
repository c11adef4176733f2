//! The ledger: "the guides' claims, then and now". One row per claim of the
//! source documents that the run measured: the claim in our words, what this
//! run measured and at which point, and a verdict computed from the
//! measurement by a stated rule.

use serde::{Deserialize, Serialize};

/// Whether a documented claim still holds on the GPU measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The effect is there, at least half as large as the documents say.
    Holds,
    /// The effect is there but much smaller.
    Weaker,
    /// No measurable effect.
    Gone,
    /// The opposite of the claim.
    Reversed,
    /// Not graded: the GPU's hardware counters contradict a modelled figure the
    /// row rests on by more than [`COUNTER_TOLERANCE`](super::COUNTER_TOLERANCE).
    CountersDisagree,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Self::Holds => "holds",
            Self::Weaker => "weaker",
            Self::Gone => "gone",
            Self::Reversed => "reversed",
            Self::CountersDisagree => "FAILED: the counters disagree",
        }
    }

    /// The verdict on a claimed factor (`claimed` ≥ 1: "A costs `claimed` times B")
    /// from the measured one, by [`FACTOR_RULE`].
    pub fn of_factor(claimed: f64, measured: f64) -> Self {
        if !(measured.is_finite() && measured > 0.0) {
            return Self::Gone;
        }
        if measured <= 1.0 / GONE_BAND {
            Self::Reversed
        } else if measured < GONE_BAND {
            Self::Gone
        } else if measured >= 1.0 + (claimed.max(1.0) - 1.0) / 2.0 {
            Self::Holds
        } else {
            Self::Weaker
        }
    }
}

/// A factor within `1 / GONE_BAND .. GONE_BAND` of 1 is no effect.
pub const GONE_BAND: f64 = 1.05;

/// The rule of [`Verdict::of_factor`], as the ledger states it.
pub const FACTOR_RULE: &str = "factor rule: holds when the measured factor is at least halfway from 1 to the \
    claimed one; weaker when above 1.05 but short of that; gone within 1/1.05..1.05; reversed at or below 1/1.05";

/// One claim, measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LedgerRow {
    /// Stable id for `compare` (`bpg-3.2.1.3-misaligned`).
    pub id: String,
    /// "CUDA C Best Practices Guide 4.0 §3.2.1.3".
    pub source: String,
    /// The claim, in our words.
    pub claim: String,
    /// What this run measured, with the point it comes from.
    pub measured: String,
    pub verdict: Verdict,
    /// The rule the verdict was computed by.
    pub rule: String,
    /// The experiment (and GPU) the measurement comes from.
    pub experiment: String,
    #[serde(default)]
    pub device: Option<usize>,
}

impl LedgerRow {
    /// A row for a claimed factor: `claimed` (what the documents say, ≥ 1) and
    /// `measured` (the same ratio today), graded by [`FACTOR_RULE`].
    #[allow(clippy::too_many_arguments)]
    pub fn factor(
        id: &str,
        source: &str,
        claim: &str,
        claimed: f64,
        measured: f64,
        measured_text: String,
        experiment: &str,
        device: Option<usize>,
    ) -> Self {
        Self {
            id: id.into(),
            source: source.into(),
            claim: claim.into(),
            measured: measured_text,
            verdict: Verdict::of_factor(claimed, measured),
            rule: format!("factor rule: claimed {claimed:.2}, measured {measured:.2}"),
            experiment: experiment.into(),
            device,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Verdict;

    #[test]
    fn factors_are_graded_by_the_stated_rule() {
        assert_eq!(Verdict::of_factor(8.0, 10.0), Verdict::Holds);
        assert_eq!(
            Verdict::of_factor(8.0, 4.5),
            Verdict::Holds,
            "halfway from 1 to 8 is 4.5"
        );
        assert_eq!(Verdict::of_factor(8.0, 4.4), Verdict::Weaker);
        assert_eq!(Verdict::of_factor(8.0, 1.06), Verdict::Weaker);
        assert_eq!(Verdict::of_factor(8.0, 1.04), Verdict::Gone);
        assert_eq!(Verdict::of_factor(8.0, 0.96), Verdict::Gone);
        assert_eq!(Verdict::of_factor(8.0, 0.95), Verdict::Reversed);
        assert_eq!(Verdict::of_factor(1.7, 1.35), Verdict::Holds);
        assert_eq!(Verdict::of_factor(2.0, f64::NAN), Verdict::Gone);
    }
}

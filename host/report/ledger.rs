//! The ledger: "the guides' claims, then and now". One row per claim of the
//! source documents that the run measured: the claim in our words, what this
//! run measured and at which point, the graded figure with its spread over
//! the samples, and a verdict computed from it by the claim's stated [`Rule`].
//!
//! A claim is declared once, as a [`Claim`] (what `ptxsuite claims` lists
//! without a GPU); an experiment grades it with [`Claim::grade`] from a
//! [`Spread`] it measured, or withholds the grade with [`Claim::failed`] when
//! a figure the row reads failed a check.

use serde::{Deserialize, Serialize};

use crate::stats::Summary;

/// Whether a documented claim still holds on the GPU measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The effect is at least twice as large as the documents say.
    Stronger,
    /// The effect is there, at least half as large as the documents say.
    Holds,
    /// The effect is there but much smaller.
    Weaker,
    /// No measurable effect.
    Gone,
    /// The opposite of the claim.
    Reversed,
    /// The figure's spread over the samples straddles a threshold of the rule:
    /// this run cannot tell.
    Undecided,
    /// A figure the row reads failed its check (a ceiling, two measures that
    /// disagree, a wrong result): not graded.
    Failed,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Self::Stronger => "stronger",
            Self::Holds => "holds",
            Self::Weaker => "weaker",
            Self::Gone => "gone",
            Self::Reversed => "reversed",
            Self::Undecided => "undecided",
            Self::Failed => "failed",
        }
    }
}

/// A factor within `1 / GONE_BAND .. GONE_BAND` of 1 is no effect.
pub const GONE_BAND: f64 = 1.05;

/// The rule of [`Rule::Factor`], as the ledger states it.
pub const FACTOR_RULE: &str = "factor rule: stronger when the measured effect (factor − 1) is at least twice the \
    claimed one; holds when the factor is at least halfway from 1 to the claimed one; weaker when above 1.05 but \
    short of that; gone within 1/1.05..1.05; reversed at or below 1/1.05 (a claimed factor under 1.05 claims no \
    effect: it holds within 1/1.05..1.05 and is stronger above)";

/// The rule of [`Rule::Direction`], as the ledger states it.
pub const DIRECTION_RULE: &str = "direction rule (no figure in the text): holds when the measured factor is at least \
    1.05 in the claimed direction; gone within 1/1.05..1.05; reversed at or below 1/1.05";

/// How much a measured figure's median moves between runs of one binary on
/// one GPU beyond its own confidence interval: its ends are widened by this
/// factor before they are graded, so that a figure this close to a threshold
/// is undecided in every run rather than decided by whichever side the run
/// fell on. Measured: two full ledger runs on an H100 (2026-11-25), the
/// largest drift of a graded median outside the other run's interval was
/// 0.5% (the particles' 16 × 16 share, the local-memory factor 0.35%), the
/// host-bound pinned-transfer factor aside (5%, far from its thresholds).
pub const RUN_TO_RUN_ALLOWANCE: f64 = 1.005;

/// How the undecided verdict comes about, as the ledger states it.
pub const UNDECIDED_RULE: &str = "every figure is graded at the low and high ends of its spread over the samples \
    (the median's 95% confidence interval, distribution-free, from the samples' order statistics; min–max where \
    a point has fewer than 6 samples; for a ratio of two measured points: the lower over the other's higher and \
    the reverse), each widened by 0.5% for the drift between runs (a count or model, with no spread, is not \
    widened), as well as at its median; when they fall under different verdicts the row is undecided";

/// The most figures [`Claim::grade_many`] grades at every combination of their ends.
pub const MAX_COMBINED: usize = 6;

/// A graded figure with its spread over the samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub low: f64,
    pub median: f64,
    pub high: f64,
}

impl Spread {
    /// A figure with no spread (a count, a model, a figure measured once).
    pub fn exact(value: f64) -> Self {
        Self {
            low: value,
            median: value,
            high: value,
        }
    }

    /// The spread of one measured figure: its median's confidence interval
    /// ([`Summary::median_interval`]; min–max where there is none).
    pub fn of(summary: Summary) -> Self {
        let (low, high) = summary.median_interval();
        Self {
            low,
            median: summary.median,
            high,
        }
    }

    /// `a / b` of two figures measured apart: the median over the median,
    /// the low end of `a`'s interval over the high end of `b`'s and the
    /// reverse (the ratio's widest honest range; samples of different points
    /// are not paired). The intervals are [`Summary::median_interval`].
    pub fn ratio(a: Summary, b: Summary) -> Self {
        let ratio = |x: f64, y: f64| if y != 0.0 { x / y } else { f64::NAN };
        let ((a_low, a_high), (b_low, b_high)) = (a.median_interval(), b.median_interval());
        Self {
            low: ratio(a_low, b_high),
            median: ratio(a.median, b.median),
            high: ratio(a_high, b_low),
        }
    }

    /// `1 / self`.
    pub fn inverse(self) -> Self {
        Self {
            low: 1.0 / self.high,
            median: 1.0 / self.median,
            high: 1.0 / self.low,
        }
    }

    pub fn is_finite(&self) -> bool {
        self.low.is_finite() && self.median.is_finite() && self.high.is_finite()
    }

    /// The three values a rule grades: the low end, the median and the high
    /// end, the ends widened by [`RUN_TO_RUN_ALLOWANCE`] unless the figure
    /// has no spread (a count, a model: exact in every run).
    pub fn graded_values(&self) -> [f64; 3] {
        if self.low == self.high {
            [self.low, self.median, self.high]
        } else {
            [
                self.low / RUN_TO_RUN_ALLOWANCE,
                self.median,
                self.high * RUN_TO_RUN_ALLOWANCE,
            ]
        }
    }

    /// "1.23 (1.20–1.26)" or "1.23" when there is no spread.
    pub fn text(&self, digits: usize) -> String {
        if self.low == self.high {
            format!("{:.digits$}", self.median)
        } else {
            format!(
                "{:.digits$} ({:.digits$}–{:.digits$})",
                self.median, self.low, self.high
            )
        }
    }
}

/// How a claim is graded from its measured figure (a factor ≥ 1 in the
/// claimed direction, unless the rule says otherwise).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// The documents give a factor: [`FACTOR_RULE`].
    Factor { claimed: f64 },
    /// The documents give no figure: only the direction is graded ([`DIRECTION_RULE`]).
    Direction,
    /// A claim that something costs nothing, or that two things are the same
    /// (the figure: the larger cost over the smaller, ≥ 1): holds up to
    /// `holds_within`, weaker up to `weaker_within`, gone beyond.
    NoExtraCost { holds_within: f64, weaker_within: f64 },
    /// A claim of a level (a latency of "400 to 600 cycles"; a choice "as
    /// good as the best", its share of the best): holds from `holds_at`,
    /// weaker from `weaker_at`, gone below; `unit` names the figure's unit.
    AtLeast {
        holds_at: f64,
        weaker_at: f64,
        unit: &'static str,
    },
    /// A rule over several figures that the experiment computes, stated in
    /// words ([`Claim::grade_many`]).
    Stated(&'static str),
}

impl Rule {
    /// The verdict at one value of the figure.
    pub fn verdict_at(self, measured: f64) -> Verdict {
        if !(measured.is_finite() && measured > 0.0) {
            return Verdict::Failed;
        }
        match self {
            // Graded by the experiment's own function (Claim::grade_many); one figure alone says nothing.
            Self::Stated(_) => Verdict::Undecided,
            // A claimed factor inside the no-effect band claims no effect: holds inside it too.
            Self::Factor { claimed } if claimed < GONE_BAND => {
                if measured <= 1.0 / GONE_BAND {
                    Verdict::Reversed
                } else if measured < GONE_BAND {
                    Verdict::Holds
                } else {
                    Verdict::Stronger
                }
            }
            Self::Factor { claimed } => {
                if measured <= 1.0 / GONE_BAND {
                    Verdict::Reversed
                } else if measured < GONE_BAND {
                    Verdict::Gone
                } else if measured - 1.0 >= 2.0 * (claimed - 1.0) {
                    Verdict::Stronger
                } else if measured >= 1.0 + (claimed - 1.0) / 2.0 {
                    Verdict::Holds
                } else {
                    Verdict::Weaker
                }
            }
            Self::Direction => {
                if measured >= GONE_BAND {
                    Verdict::Holds
                } else if measured > 1.0 / GONE_BAND {
                    Verdict::Gone
                } else {
                    Verdict::Reversed
                }
            }
            Self::NoExtraCost {
                holds_within,
                weaker_within,
            } => {
                if measured <= holds_within {
                    Verdict::Holds
                } else if measured <= weaker_within {
                    Verdict::Weaker
                } else {
                    Verdict::Gone
                }
            }
            Self::AtLeast {
                holds_at, weaker_at, ..
            } => {
                if measured >= holds_at {
                    Verdict::Holds
                } else if measured >= weaker_at {
                    Verdict::Weaker
                } else {
                    Verdict::Gone
                }
            }
        }
    }

    /// The verdict on a figure with its spread: the same verdict at its low
    /// end, median and high end, or [`Verdict::Undecided`].
    pub fn verdict(self, figure: Spread) -> Verdict {
        if !figure.is_finite() {
            return Verdict::Failed;
        }
        let at = figure.graded_values().map(|v| self.verdict_at(v));
        if at.contains(&Verdict::Failed) {
            Verdict::Failed
        } else if at[0] == at[1] && at[1] == at[2] {
            at[1]
        } else {
            Verdict::Undecided
        }
    }

    /// The rule in words.
    pub fn text(self) -> String {
        match self {
            Self::Factor { claimed } => format!("factor rule, claimed {claimed:.2}x"),
            Self::Direction => "direction rule: no figure in the text".into(),
            Self::NoExtraCost {
                holds_within,
                weaker_within,
            } => format!("holds up to {holds_within:.2}x; weaker up to {weaker_within:.2}x; gone beyond"),
            Self::AtLeast {
                holds_at,
                weaker_at,
                unit,
            } => format!("holds at {holds_at} {unit} or more; weaker from {weaker_at}; gone below"),
            Self::Stated(text) => text.to_string(),
        }
    }
}

/// One claim of the documents, declared where the experiment that measures
/// it is: graded by its [`Rule`] from the figure it reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// Stable id for `compare` (`bpg-3.2.1.3-misaligned`).
    pub id: &'static str,
    /// Document and section: "Best Practices Guide §3.2.1.3".
    pub source: &'static str,
    /// The claim, in our words.
    pub claim: String,
    pub rule: Rule,
    /// What the rule's figure is: which series and points of which experiment.
    pub reads: String,
    /// The experiment that measures it (`--only` name).
    pub experiment: &'static str,
}

impl Claim {
    /// The row of this claim graded from `figure`, with `measured` saying
    /// what was measured at which points.
    pub fn grade(&self, figure: Spread, measured: String, device: Option<usize>) -> LedgerRow {
        LedgerRow {
            id: self.id.into(),
            source: self.source.into(),
            claim: self.claim.clone(),
            measured,
            verdict: self.rule.verdict(figure),
            rule: self.rule.text(),
            experiment: self.experiment.into(),
            device,
            figure: Some(figure),
            check: None,
        }
    }

    /// The row of this claim graded from several figures by `verdict_at` (the
    /// rule the claim states, [`Rule::Stated`]): the verdict at every
    /// combination of the figures' low ends, medians and high ends (for more
    /// than [`MAX_COMBINED`] figures, a rule monotone in each: all low ends,
    /// all medians, all high ends), or undecided when they differ. The row
    /// shows the first figure.
    pub fn grade_many(
        &self,
        figures: &[Spread],
        verdict_at: impl Fn(&[f64]) -> Verdict,
        measured: String,
        device: Option<usize>,
    ) -> LedgerRow {
        if figures.is_empty() {
            return self.failed("no figure to grade".into(), device);
        }
        let mut verdict = None;
        let combinations: Vec<Vec<f64>> = if figures.len() <= MAX_COMBINED {
            (0..3usize.pow(figures.len() as u32))
                .map(|mut code| {
                    figures
                        .iter()
                        .map(|f| {
                            let v = f.graded_values()[code % 3];
                            code /= 3;
                            v
                        })
                        .collect()
                })
                .collect()
        } else {
            (0..3)
                .map(|end| figures.iter().map(|f| f.graded_values()[end]).collect())
                .collect()
        };
        for values in combinations {
            let at = if values.iter().all(|v| v.is_finite()) {
                verdict_at(&values)
            } else {
                Verdict::Failed
            };
            verdict = Some(match verdict {
                None => at,
                Some(v) if v == at => v,
                Some(Verdict::Failed) => Verdict::Failed,
                Some(_) if at == Verdict::Failed => Verdict::Failed,
                Some(_) => Verdict::Undecided,
            });
        }
        let mut row = self.grade(
            figures.first().copied().unwrap_or(Spread::exact(f64::NAN)),
            measured,
            device,
        );
        row.verdict = if figures.is_empty() {
            Verdict::Failed
        } else {
            verdict.unwrap_or(Verdict::Failed)
        };
        row
    }

    /// The row of this claim, not graded: a figure it reads failed its check.
    pub fn failed(&self, why: String, device: Option<usize>) -> LedgerRow {
        LedgerRow {
            id: self.id.into(),
            source: self.source.into(),
            claim: self.claim.clone(),
            measured: String::new(),
            verdict: Verdict::Failed,
            rule: self.rule.text(),
            experiment: self.experiment.into(),
            device,
            figure: None,
            check: Some(why),
        }
    }
}

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
    /// The graded figure with its spread (reports before 0.2 have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<Spread>,
    /// Why the row was not graded (a failed check), for [`Verdict::Failed`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
}

impl LedgerRow {
    /// The verdict as a table shows it: "undecided (0.98–1.12)", "failed: why".
    pub fn verdict_text(&self) -> String {
        match (self.verdict, &self.figure, &self.check) {
            (Verdict::Undecided, Some(f), _) => {
                let [low, _, high] = f.graded_values();
                format!("undecided ({low:.2}–{high:.2})")
            }
            (Verdict::Failed, _, Some(why)) => format!("failed: {why}"),
            (verdict, _, _) => verdict.label().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Rule, Spread, Verdict};

    /// The factor rule's verdict on one measured value.
    fn of_factor(claimed: f64, measured: f64) -> Verdict {
        Rule::Factor { claimed }.verdict_at(measured)
    }

    #[test]
    fn factors_are_graded_by_the_stated_rule() {
        assert_eq!(of_factor(8.0, 10.0), Verdict::Holds);
        assert_eq!(of_factor(8.0, 15.0), Verdict::Stronger, "effect 14 = 2 x 7");
        assert_eq!(of_factor(8.0, 14.9), Verdict::Holds);
        assert_eq!(of_factor(8.0, 4.5), Verdict::Holds, "halfway from 1 to 8 is 4.5");
        assert_eq!(of_factor(8.0, 4.4), Verdict::Weaker);
        assert_eq!(of_factor(8.0, 1.06), Verdict::Weaker);
        assert_eq!(of_factor(8.0, 1.04), Verdict::Gone);
        assert_eq!(of_factor(8.0, 0.96), Verdict::Gone);
        assert_eq!(of_factor(8.0, 0.95), Verdict::Reversed);
        assert_eq!(of_factor(1.7, 1.35), Verdict::Holds);
        assert_eq!(of_factor(1.53, 11.0), Verdict::Stronger, "the notes' 1x1 blocks");
        assert_eq!(of_factor(2.0, f64::NAN), Verdict::Failed);
        // A claimed factor of about 1 (Table 1's Listing 2 → 3: 83.2 → 82.2 ms) claims no effect.
        assert_eq!(of_factor(1.012, 1.0), Verdict::Holds);
        assert_eq!(of_factor(1.012, 1.3), Verdict::Stronger);
        assert_eq!(of_factor(1.012, 0.9), Verdict::Reversed);
    }

    #[test]
    fn the_direction_rule_has_no_size() {
        let rule = Rule::Direction;
        assert_eq!(
            rule.verdict_at(100.0),
            Verdict::Holds,
            "never stronger: no size was claimed"
        );
        assert_eq!(rule.verdict_at(1.05), Verdict::Holds);
        assert_eq!(rule.verdict_at(1.04), Verdict::Gone);
        assert_eq!(rule.verdict_at(0.95), Verdict::Reversed);
    }

    #[test]
    fn a_spread_across_a_threshold_is_undecided() {
        let rule = Rule::Factor { claimed: 2.0 };
        let decided = Spread {
            low: 1.6,
            median: 1.8,
            high: 2.5,
        };
        assert_eq!(rule.verdict(decided), Verdict::Holds);
        let straddling = Spread {
            low: 1.4,
            median: 1.6,
            high: 1.7,
        };
        assert_eq!(rule.verdict(straddling), Verdict::Undecided, "1.5 is the threshold");
        assert_eq!(rule.verdict(Spread::exact(1.4)), Verdict::Weaker);
        let no_effect = Rule::NoExtraCost {
            holds_within: 1.1,
            weaker_within: 2.0,
        };
        let around = Spread {
            low: 0.5,
            median: 1.0,
            high: 2.5,
        };
        assert_eq!(
            no_effect.verdict(around),
            Verdict::Undecided,
            "the median alone would hold"
        );
    }

    #[test]
    fn a_figure_within_the_run_to_run_allowance_of_a_threshold_is_undecided() {
        let rule = Rule::Factor { claimed: 2.0 };
        // runA/runB on the H100: 1.0534–1.0589 and 1.0487–1.0574 against the 1.05 edge.
        let near = Spread {
            low: 1.0534,
            median: 1.0553,
            high: 1.0589,
        };
        assert_eq!(
            rule.verdict_at(near.low),
            Verdict::Weaker,
            "the interval alone is above 1.05"
        );
        assert_eq!(rule.verdict(near), Verdict::Undecided, "1.0534 / 1.005 < 1.05");
        let clear = Spread {
            low: 1.0560,
            median: 1.0580,
            high: 1.0600,
        };
        assert_eq!(rule.verdict(clear), Verdict::Weaker, "1.0560 / 1.005 > 1.05");
        // A count has no run-to-run drift: exact figures are not widened.
        assert_eq!(rule.verdict(Spread::exact(1.0501)), Verdict::Weaker);
        let row = super::Claim {
            id: "x",
            source: "s",
            claim: "c".into(),
            rule,
            reads: String::new(),
            experiment: "e",
        }
        .grade(near, String::new(), None);
        assert_eq!(row.verdict_text(), "undecided (1.05–1.06)");
    }

    #[test]
    fn several_figures_are_graded_at_every_combination_of_their_ends() {
        use super::Claim;
        let claim = Claim {
            id: "x",
            source: "s",
            claim: "c".into(),
            rule: Rule::Stated("both flat"),
            reads: "r".into(),
            experiment: "e",
        };
        let both_flat = |v: &[f64]| match (v[0] <= 1.1, v[1] <= 1.1) {
            (true, true) => Verdict::Holds,
            (false, false) => Verdict::Gone,
            _ => Verdict::Weaker,
        };
        let flat = Spread::exact(1.0);
        let steep = Spread::exact(2.0);
        let around = Spread {
            low: 1.0,
            median: 1.05,
            high: 1.2,
        };
        assert_eq!(
            claim.grade_many(&[flat, flat], both_flat, String::new(), None).verdict,
            Verdict::Holds
        );
        assert_eq!(
            claim.grade_many(&[flat, steep], both_flat, String::new(), None).verdict,
            Verdict::Weaker
        );
        assert_eq!(
            claim
                .grade_many(&[flat, around], both_flat, String::new(), None)
                .verdict,
            Verdict::Undecided
        );
        assert_eq!(
            claim
                .grade_many(&[], |_: &[f64]| Verdict::Holds, String::new(), None)
                .verdict,
            Verdict::Failed
        );
        assert_eq!(claim.rule.text(), "both flat");
    }

    #[test]
    fn ratios_carry_the_widest_honest_range() {
        use crate::stats::Summary;
        let a = Summary::min_median_max(9.0, 10.0, 11.0);
        let b = Summary::min_median_max(4.0, 5.0, 6.0);
        let r = Spread::ratio(a, b);
        assert_eq!((r.low, r.median, r.high), (1.5, 2.0, 11.0 / 4.0));
        let i = r.inverse();
        assert_eq!((i.low, i.median, i.high), (4.0 / 11.0, 0.5, 1.0 / 1.5));
        assert_eq!(r.text(2), "2.00 (1.50–2.75)");
        assert_eq!(Spread::exact(3.0).text(1), "3.0");
    }

    #[test]
    fn share_of_best_and_no_extra_cost_have_stated_edges() {
        let share = Rule::AtLeast {
            holds_at: 0.9,
            weaker_at: 0.5,
            unit: "of the best",
        };
        assert_eq!(share.verdict_at(0.9), Verdict::Holds);
        assert_eq!(share.verdict_at(0.6), Verdict::Weaker);
        assert_eq!(share.verdict_at(0.3), Verdict::Gone);
        let free = Rule::NoExtraCost {
            holds_within: 1.1,
            weaker_within: 1.5,
        };
        assert_eq!(free.verdict_at(1.1), Verdict::Holds);
        assert_eq!(free.verdict_at(1.2), Verdict::Weaker);
        assert_eq!(free.verdict_at(1.51), Verdict::Gone);
        assert_eq!(free.verdict_at(f64::INFINITY), Verdict::Failed);
    }
}

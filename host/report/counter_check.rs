//! The hardware counters as a second witness of the ledger: a row that rests
//! on a model or an inference (sectors counted from addresses, passes from
//! bank arithmetic, instructions read from PTX) states whether the GPU's
//! counters agree with the modelled figure; beyond [`COUNTER_TOLERANCE`] the
//! row is not graded and fails loudly, with both figures.

use super::{LedgerRow, Verdict};

/// The report's word on how the counters were read (`run --counters`).
pub const COUNTERS_METHOD: &str = "**Hardware counters** (`--counters`). After each kernel point's timed samples and \
    its check, one more launch of the same kernel ran under CUPTI's range profiler (replayed once per pass the \
    counters need, each pass after one launch outside the range so that the caches start as between timed launches); \
    the timed samples never include these launches (CUPTI's profiler interface stays loaded from the first collection \
    on; the range profiler is enabled only during a collection). Figures marked \"(counters)\" come from them; every ledger row \
    that rests on a model says whether the counters agree within 10%, and is not graded where they do not.";

/// The largest relative difference between a modelled and a counted figure
/// that still counts as agreement.
pub const COUNTER_TOLERANCE: f64 = 0.10;

/// One modelled figure beside its counted twin.
#[derive(Clone, Debug, PartialEq)]
pub struct CounterCheck {
    /// What the two figures are, with the point ("DRAM bytes at stride 2").
    pub what: String,
    pub modelled: f64,
    pub counted: f64,
}

impl CounterCheck {
    pub fn new(what: impl Into<String>, modelled: f64, counted: f64) -> Self {
        Self {
            what: what.into(),
            modelled,
            counted,
        }
    }

    /// |counted − modelled| / |modelled| (infinite when the model says 0 and the counters do not).
    pub fn difference(&self) -> f64 {
        let gap = (self.counted - self.modelled).abs();
        if gap == 0.0 {
            0.0
        } else if self.modelled == 0.0 || !self.modelled.is_finite() || !self.counted.is_finite() {
            f64::INFINITY
        } else {
            gap / self.modelled.abs()
        }
    }

    pub fn agrees(&self) -> bool {
        self.difference() <= COUNTER_TOLERANCE
    }

    /// "DRAM bytes at stride 2: modelled 1.07e9, counted 1.12e9 (+4.7%)".
    pub fn describe(&self) -> String {
        let relative = if self.modelled != 0.0 && self.modelled.is_finite() {
            format!(
                " ({:+.1}%)",
                100.0 * (self.counted - self.modelled) / self.modelled.abs()
            )
        } else {
            String::new()
        };
        format!(
            "{}: modelled {}, counted {}{relative}",
            self.what,
            figure(self.modelled),
            figure(self.counted)
        )
    }
}

/// A figure in few digits: 3 significant ones, exponent form past 10⁵.
fn figure(value: f64) -> String {
    if value.abs() >= 1e5 {
        format!("{value:.3e}")
    } else if value.abs() >= 100.0 || value == value.trunc() {
        format!("{value:.0}")
    } else {
        format!("{value:.3}")
    }
}

/// What the counters say about a row: their checks, or why there are none.
#[derive(Clone, Debug, PartialEq)]
pub enum CounterEvidence {
    Checks(Vec<CounterCheck>),
    /// Why the row has no counters ("not collected: run with --counters", a waiver).
    Missing(String),
}

impl LedgerRow {
    /// The row with the counters' word on the model it rests on: agreement is
    /// stated in `measured`; a check beyond [`COUNTER_TOLERANCE`] replaces the
    /// verdict by [`Verdict::Failed`] with the failed check as the reason;
    /// missing counters are stated as such.
    pub fn with_counters(mut self, evidence: CounterEvidence) -> Self {
        match evidence {
            CounterEvidence::Missing(why) => {
                self.measured.push_str(&format!("; hardware counters: none ({why})"));
            }
            CounterEvidence::Checks(checks) if checks.is_empty() => {
                self.measured
                    .push_str("; hardware counters: none at the points this row uses");
            }
            CounterEvidence::Checks(checks) => {
                let (agree, disagree): (Vec<&CounterCheck>, Vec<&CounterCheck>) =
                    checks.iter().partition(|c| c.agrees());
                if disagree.is_empty() {
                    let texts: Vec<String> = agree.iter().map(|c| c.describe()).collect();
                    self.measured.push_str(&format!(
                        "; hardware counters agree within {:.0}%: {}",
                        100.0 * COUNTER_TOLERANCE,
                        texts.join("; ")
                    ));
                } else {
                    let texts: Vec<String> = disagree.iter().map(|c| c.describe()).collect();
                    self.measured.push_str(&format!(
                        "; HARDWARE COUNTERS DISAGREE with the model: {}",
                        texts.join("; ")
                    ));
                    self.check = Some(format!(
                        "the hardware counters contradict a modelled figure this row rests on by more than {:.0}% \
                         ({}); the model must be fixed before the claim can be graded",
                        100.0 * COUNTER_TOLERANCE,
                        texts.join("; ")
                    ));
                    self.verdict = Verdict::Failed;
                }
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::{COUNTER_TOLERANCE, CounterCheck, CounterEvidence};
    use crate::report::{Claim, LedgerRow, Rule, Spread, Verdict};

    fn row() -> LedgerRow {
        let claim = Claim {
            id: "id",
            source: "source",
            claim: "claim".into(),
            rule: Rule::Factor { claimed: 2.0 },
            reads: "reads".into(),
            experiment: "stride",
        };
        claim.grade(Spread::exact(2.0), "measured".into(), Some(0))
    }

    #[test]
    fn the_tolerance_is_ten_percent_either_way() {
        assert_eq!(COUNTER_TOLERANCE, 0.10);
        assert!(CounterCheck::new("x", 100.0, 110.0).agrees());
        assert!(CounterCheck::new("x", 100.0, 90.0).agrees());
        assert!(!CounterCheck::new("x", 100.0, 110.5).agrees());
        assert!(!CounterCheck::new("x", 100.0, 89.0).agrees());
        assert!(CounterCheck::new("x", 0.0, 0.0).agrees());
        assert!(
            !CounterCheck::new("x", 0.0, 1.0).agrees(),
            "a model of nothing against something"
        );
        assert!(!CounterCheck::new("x", 1.0, f64::NAN).agrees());
    }

    #[test]
    fn agreement_keeps_the_grade_and_says_so() {
        let checked = row().with_counters(CounterEvidence::Checks(vec![CounterCheck::new(
            "DRAM bytes at stride 2",
            1.0e9,
            1.047e9,
        )]));
        assert_eq!(checked.verdict, Verdict::Holds);
        assert!(
            checked.measured.ends_with(
                "hardware counters agree within 10%: DRAM bytes at stride 2: modelled 1.000e9, counted 1.047e9 (+4.7%)"
            ),
            "{}",
            checked.measured
        );
    }

    #[test]
    fn a_disagreement_withholds_the_grade_loudly_with_both_figures() {
        let checked = row().with_counters(CounterEvidence::Checks(vec![
            CounterCheck::new("passes at stride 1", 1.0, 1.0),
            CounterCheck::new("passes at stride 32", 32.0, 16.0),
        ]));
        assert_eq!(checked.verdict, Verdict::Failed);
        assert!(
            checked
                .verdict_text()
                .starts_with("failed: the hardware counters contradict")
        );
        assert!(
            checked.measured.contains(
                "HARDWARE COUNTERS DISAGREE with the model: passes at stride 32: modelled 32, counted 16 (-50.0%)"
            ),
            "{}",
            checked.measured
        );
        assert!(
            !checked.measured.contains("stride 1:"),
            "only the failed check is named"
        );
        assert!(
            checked
                .check
                .as_deref()
                .unwrap()
                .contains("must be fixed before the claim can be graded"),
            "{:?}",
            checked.check
        );
    }

    #[test]
    fn missing_counters_are_stated() {
        let checked = row().with_counters(CounterEvidence::Missing("not collected: run with --counters".into()));
        assert_eq!(checked.verdict, Verdict::Holds);
        assert!(
            checked
                .measured
                .ends_with("; hardware counters: none (not collected: run with --counters)")
        );
    }
}

//! SASS instructions per counted operation, and the most operations per
//! clock per SM a loop allows: for each issue limit (the schedulers' issue
//! slots, a pipe's rate), its rate divided by the instructions per
//! operation it must take; the smallest is the ceiling. A measured rate
//! above it means the experiment counts something other than it says.

use super::instruction_counts::SassCounts;
use super::opcode_class::SassClass;

/// A loop's SASS instructions per counted operation (per source-level
/// operation, e.g. one add of one chain in one round).
#[derive(Clone, Debug, PartialEq)]
pub struct PerOperation {
    /// Counted operations one pass of the loop performs.
    pub operations_per_pass: f64,
    /// All the loop's instructions per operation.
    pub total: f64,
    /// Per class, nonzero only, in [`SassClass::ALL`]'s order.
    pub by_class: Vec<(SassClass, f64)>,
}

/// The names under which [`PerOperation::figures`] stores a loop's figures
/// (e.g. as a report point's extra figures), read back by [`PerOperation::from_figures`].
pub const PER_OPERATION_FIGURE: &str = "SASS instructions per operation";
pub const OPERATIONS_PER_PASS_FIGURE: &str = "operations per pass of the SASS loop";

impl PerOperation {
    /// The name of `class`'s figure, `SASS integer-alu per operation`.
    pub fn class_figure(class: SassClass) -> String {
        format!("SASS {} per operation", class.key())
    }

    /// `(name, value)` of every figure: the total, the operations per pass and each class.
    pub fn figures(&self) -> Vec<(String, f64)> {
        let mut out = vec![
            (PER_OPERATION_FIGURE.to_string(), self.total),
            (OPERATIONS_PER_PASS_FIGURE.to_string(), self.operations_per_pass),
        ];
        out.extend(self.by_class.iter().map(|&(c, n)| (Self::class_figure(c), n)));
        out
    }

    /// The figures [`PerOperation::figures`] stored, looked up by name; `None` without the total.
    pub fn from_figures(figure: impl Fn(&str) -> Option<f64>) -> Option<Self> {
        Some(Self {
            total: figure(PER_OPERATION_FIGURE)?,
            operations_per_pass: figure(OPERATIONS_PER_PASS_FIGURE)?,
            by_class: SassClass::ALL
                .into_iter()
                .filter_map(|class| Some((class, figure(&Self::class_figure(class))?)))
                .collect(),
        })
    }

    /// Instructions of `class` per operation.
    pub fn of_class(&self, class: SassClass) -> f64 {
        self.by_class.iter().find(|(c, _)| *c == class).map_or(0.0, |(_, n)| *n)
    }

    /// Instructions of any of `classes` per operation (all of them when empty).
    pub fn of_classes(&self, classes: &[SassClass]) -> f64 {
        if classes.is_empty() {
            return self.total;
        }
        classes.iter().map(|&c| self.of_class(c)).sum()
    }
}

/// `counts` (one pass of a loop) per operation, for a pass performing
/// `operations_per_pass` operations; `None` when that is not positive.
pub fn per_operation(counts: &SassCounts, operations_per_pass: f64) -> Option<PerOperation> {
    (operations_per_pass > 0.0 && operations_per_pass.is_finite()).then(|| PerOperation {
        operations_per_pass,
        total: counts.instructions as f64 / operations_per_pass,
        by_class: counts
            .by_class
            .iter()
            .map(|&(class, n)| (class, n as f64 / operations_per_pass))
            .collect(),
    })
}

/// One limit on how many instructions an SM issues per clock: the classes
/// that share it (every instruction when empty) and its rate, in
/// thread-instructions (lanes) per clock per SM.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IssueLimit {
    pub name: &'static str,
    pub classes: &'static [SassClass],
    pub per_clock_per_sm: f64,
}

/// The ceiling a loop's instructions put on its operations per clock per SM.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ceiling {
    pub operations_per_clock_per_sm: f64,
    /// The limit that sets it.
    pub limit: &'static str,
    /// That limit's instructions per operation.
    pub instructions_per_operation: f64,
    pub limit_per_clock_per_sm: f64,
}

/// The lowest of `limits`' ceilings for a loop with `per_operation`
/// instructions per operation; `None` when no limit applies to any of its
/// instructions. Meaningful for a straight-line loop only
/// ([`SassCounts::is_straight_line`]): a loop with branches executes fewer
/// instructions per pass than it holds, so its ceiling would be too low.
pub fn operation_ceiling(per_operation: &PerOperation, limits: &[IssueLimit]) -> Option<Ceiling> {
    limits
        .iter()
        .filter_map(|limit| {
            let per_op = per_operation.of_classes(limit.classes);
            (per_op > 0.0).then(|| Ceiling {
                operations_per_clock_per_sm: limit.per_clock_per_sm / per_op,
                limit: limit.name,
                instructions_per_operation: per_op,
                limit_per_clock_per_sm: limit.per_clock_per_sm,
            })
        })
        .min_by(|a, b| a.operations_per_clock_per_sm.total_cmp(&b.operations_per_clock_per_sm))
}

#[cfg(test)]
mod tests {
    use super::{IssueLimit, PerOperation, operation_ceiling, per_operation};
    use crate::sass::instruction_counts::SassCounts;
    use crate::sass::opcode_class::SassClass::*;

    #[test]
    fn the_tightest_limit_sets_the_ceiling() {
        // One pass: 64 adds, 34 IADD3 and 30 IMAD.IADD, plus a counter IADD3, ISETP and BRA.
        let counts = SassCounts {
            instructions: 67,
            by_class: vec![(IntegerMultiplyAdd, 30), (IntegerAlu, 36), (Control, 1)],
            ..SassCounts::default()
        };
        let per_op = per_operation(&counts, 64.0).unwrap();
        assert!((per_op.total - 67.0 / 64.0).abs() < 1e-12);
        assert!((per_op.of_class(IntegerAlu) - 36.0 / 64.0).abs() < 1e-12);
        assert_eq!(per_op.of_class(Fp64), 0.0);
        let limits = [
            IssueLimit {
                name: "issue",
                classes: &[],
                per_clock_per_sm: 128.0,
            },
            IssueLimit {
                name: "ALU",
                classes: &[IntegerAlu],
                per_clock_per_sm: 64.0,
            },
            IssueLimit {
                name: "FMA-heavy",
                classes: &[IntegerMultiplyAdd],
                per_clock_per_sm: 64.0,
            },
            IssueLimit {
                name: "FP64",
                classes: &[Fp64],
                per_clock_per_sm: 64.0,
            },
        ];
        let ceiling = operation_ceiling(&per_op, &limits).unwrap();
        assert_eq!(ceiling.limit, "ALU");
        assert!((ceiling.operations_per_clock_per_sm - 64.0 * 64.0 / 36.0).abs() < 1e-9);
        // Without the ALU limit, issue (128 / 1.047) is next.
        let ceiling = operation_ceiling(&per_op, &[limits[0], limits[2]]).unwrap();
        assert_eq!(ceiling.limit, "issue");
        assert!(
            operation_ceiling(&per_op, &[limits[3]]).is_none(),
            "no FP64 instruction"
        );
        let stored: std::collections::HashMap<String, f64> = per_op.figures().into_iter().collect();
        assert_eq!(stored.len(), 5);
        assert_eq!(stored["SASS integer-alu per operation"], 36.0 / 64.0);
        assert_eq!(
            PerOperation::from_figures(|name| stored.get(name).copied()),
            Some(per_op.clone())
        );
        assert_eq!(PerOperation::from_figures(|_| None), None);
        assert!(per_operation(&counts, 0.0).is_none());
    }
}

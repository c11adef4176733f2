//! What the GPU runs for a throughput kernel: the SASS of its steady loop
//! (the loop holding the most of the opcodes that carry its operation), the
//! counted operations one pass performs (the loop counter's step in rounds
//! × the operations of a round), and so the SASS instructions per counted
//! operation, by class. A rate above the published one is explained here:
//! e.g. an i32 add chain issued half as `IADD3` (integer ALU) and half as
//! `IMAD.IADD` (FMA pipe), or a shift's add issued as `VIADD` off the ALU.

use kernels_gpu::instruction_throughput::ThroughputKernel;

use crate::launchers::measured_sass_opcodes;
use crate::report::Point;
use crate::sass::{Ceiling, PerOperation, SassCounts, SassFunction, issue_limits, operation_ceiling, per_operation};

/// Extra figures of a throughput point, by name (besides [`PerOperation::figures`]).
pub const SASS_PER_CLOCK: &str = "SASS inst/clk/SM";
pub const SASS_CEILING: &str = "op/clk/SM ceiling from the SASS loop";
pub const SASS_SIDE_BRANCHES: &str = "SASS branches in the loop besides its back edge";

/// A throughput kernel's steady SASS loop, counted.
#[derive(Clone, Debug, PartialEq)]
pub struct ThroughputSass {
    pub counts: SassCounts,
    /// Rounds one pass of the loop performs (its counter's step).
    pub rounds_per_pass: u32,
    pub per_operation: PerOperation,
}

/// The steady loop of `kernel`'s SASS `function`; `None` if no loop holds
/// its operation or the loop's counter is not recognized.
pub fn throughput_sass(function: &SassFunction, kernel: ThroughputKernel) -> Option<ThroughputSass> {
    let opcodes = measured_sass_opcodes(kernel);
    let steady = function.steady_loop(|i| opcodes.iter().any(|o| i.is(o)))?;
    let rounds_per_pass = steady.counter_step()?;
    let counts = SassCounts::of(steady.instructions.iter().copied());
    let operations = rounds_per_pass as f64 * kernel.operations_per_round() as f64;
    let per_operation = per_operation(&counts, operations)?;
    Some(ThroughputSass {
        counts,
        rounds_per_pass,
        per_operation,
    })
}

/// The ceiling `sass` puts on a GPU of `compute_capability`, where its issue limits are known and
/// the loop is straight-line (every instruction runs on every pass).
pub fn ceiling(sass: &ThroughputSass, compute_capability: (u32, u32)) -> Option<Ceiling> {
    if !sass.counts.is_straight_line() {
        return None;
    }
    operation_ceiling(&sass.per_operation, issue_limits(compute_capability)?)
}

/// [`ceiling`] from the figures a point stores ([`record`]).
pub fn stored_ceiling(point: &Point, compute_capability: (u32, u32)) -> Option<Ceiling> {
    if *point.extra.get(SASS_SIDE_BRANCHES)? != 0.0 {
        return None;
    }
    operation_ceiling(&stored_per_operation(point)?, issue_limits(compute_capability)?)
}

/// Stores `sass` in `point`: instructions per operation (all and by class),
/// operations per pass, branches besides the back edge, and for a
/// straight-line loop SASS instructions per clock per SM beside the
/// operations (`per_sm_per_clock`) and the ceiling on a GPU whose limits are
/// known (a loop that branches holds paths a pass does not take).
pub fn record(point: &mut Point, sass: &ThroughputSass, per_sm_per_clock: Option<f64>, compute_capability: (u32, u32)) {
    let per_op = &sass.per_operation;
    for (name, value) in per_op.figures() {
        point.set_extra(&name, value);
    }
    point.set_extra(SASS_SIDE_BRANCHES, sass.counts.side_branches() as f64);
    if let Some(rate) = per_sm_per_clock.filter(|_| sass.counts.is_straight_line()) {
        point.set_extra(SASS_PER_CLOCK, rate * per_op.total);
    }
    if let Some(c) = ceiling(sass, compute_capability) {
        point.set_extra(SASS_CEILING, c.operations_per_clock_per_sm);
    }
}

/// The instructions per operation a point stores ([`record`]), if it has them.
pub fn stored_per_operation(point: &Point) -> Option<PerOperation> {
    PerOperation::from_figures(|name| point.extra.get(name).copied())
}

/// "integer ALU (…) 0.56, integer IMAD/IMUL (…) 0.47, control 0.02": the classes of `per_op`.
pub fn class_text(per_op: &PerOperation) -> String {
    per_op
        .by_class
        .iter()
        .map(|(class, n)| format!("{} {n:.2}", class.label()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The note naming a kernel's SASS: operations per pass, the opcodes, per operation by class, the ceiling.
pub fn note(entry: &str, implementation: &str, sass: &ThroughputSass, compute_capability: (u32, u32)) -> String {
    let per_op = &sass.per_operation;
    let branches = sass.counts.side_branches();
    let ceiling = if sass.counts.is_straight_line() {
        ceiling(sass, compute_capability)
    } else {
        None
    };
    let ceiling = ceiling
        .map(|c| {
            format!(
                "; at most {:.1} op/clk/SM ({}: {:.0} per clock, {:.2} per operation)",
                c.operations_per_clock_per_sm, c.limit, c.limit_per_clock_per_sm, c.instructions_per_operation
            )
        })
        .unwrap_or_else(|| {
            if sass.counts.is_straight_line() {
                String::new()
            } else {
                format!(
                    "; the loop branches ({branches} branches besides the back edge): it holds paths a pass does not \
                     take, so these counts are an upper bound and no ceiling is derived"
                )
            }
        });
    format!(
        "{entry} · {implementation}, SASS: {} operations ({} rounds) per pass of {} instructions: {}; {:.2} per \
         operation: {}{ceiling}",
        per_op.operations_per_pass,
        sass.rounds_per_pass,
        sass.counts.instructions,
        sass.counts.listing(),
        per_op.total,
        class_text(per_op),
    )
}

#[cfg(test)]
mod tests {
    use kernels_gpu::instruction_throughput::ThroughputKernel;

    use super::{SASS_CEILING, SASS_PER_CLOCK, note, record, stored_per_operation, throughput_sass};
    use crate::report::{Point, PointKey};
    use crate::sass::{SassClass, parse_listing};

    const LISTING: &str = include_str!("../../tests/fixtures/sass/sm90_nvdisasm.txt");

    #[test]
    fn the_i32_add_figures_are_stored_and_read_back() {
        let functions = parse_listing(LISTING);
        let add = functions.iter().find(|f| f.name == "i32_add_throughput").unwrap();
        let sass = throughput_sass(add, ThroughputKernel::I32Add).unwrap();
        assert_eq!(sass.rounds_per_pass, 8);
        assert_eq!(sass.per_operation.operations_per_pass, 64.0);
        let mut point = Point::measured(PointKey::Value(0), &[1.0], Default::default(), None).unwrap();
        record(&mut point, &sass, Some(114.0), (9, 0));
        assert!((point.extra[SASS_PER_CLOCK] - 114.0 * 67.0 / 64.0).abs() < 1e-9);
        assert!((point.extra[SASS_CEILING] - 64.0 * 64.0 / 36.0).abs() < 1e-9);
        let back = stored_per_operation(&point).unwrap();
        assert_eq!(back, sass.per_operation);
        assert!((back.of_class(SassClass::IntegerMultiplyAdd) - 30.0 / 64.0).abs() < 1e-12);
        let text = note("i32_add_throughput", "Rust", &sass, (9, 0));
        assert!(
            text.contains("64 operations (8 rounds) per pass of 67 instructions"),
            "{text}"
        );
        assert!(text.contains("IADD3 ×35, IMAD.IADD ×30"), "{text}");
        assert!(text.contains("at most 113.8 op/clk/SM (integer ALU"), "{text}");
        let mut elsewhere = Point::measured(PointKey::Value(0), &[1.0], Default::default(), None).unwrap();
        record(&mut elsewhere, &sass, None, (8, 0));
        assert!(!elsewhere.extra.contains_key(SASS_CEILING), "no limits for cc 8.0");
        assert!(!elsewhere.extra.contains_key(SASS_PER_CLOCK));
        // A loop that branches (read as if it were the f32 FMA kernel): counted, but no ceiling or SASS rate.
        let branching = functions.iter().find(|f| f.name == "long_branch_divergent").unwrap();
        let sass = throughput_sass(branching, ThroughputKernel::F32Fma).unwrap();
        let mut point = Point::measured(PointKey::Value(0), &[1.0], Default::default(), None).unwrap();
        record(&mut point, &sass, Some(10.0), (9, 0));
        assert!(!point.extra.contains_key(SASS_CEILING) && !point.extra.contains_key(SASS_PER_CLOCK));
        assert_eq!(point.extra[super::SASS_SIDE_BRANCHES], 8.0);
        assert!(super::stored_ceiling(&point, (9, 0)).is_none());
        let text = note("long_branch_divergent", "Rust", &sass, (9, 0));
        assert!(
            text.contains("the loop branches (8 branches besides the back edge)"),
            "{text}"
        );
        let shift = functions.iter().find(|f| f.name == "u32_shift_throughput").unwrap();
        assert!(
            throughput_sass(shift, ThroughputKernel::I32Mul).is_none(),
            "no IMAD loop in the shift kernel"
        );
    }
}

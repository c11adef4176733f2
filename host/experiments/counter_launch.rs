//! The counters pass as the experiments run it (`run --counters`): after a
//! point's timed samples and its check, one more launch of the same kernel
//! under CUPTI; the counters are stored on the point, and what has none
//! (not a kernel of the CUDA context, no CUPTI, a failed collection) is said
//! once in the result.

use super::RunContext;
use crate::counters::{Counted, CounterOutcome, count};
use crate::error::Result;
use crate::report::{ExperimentResult, Point, Waiver};
use crate::testbed::Implementation;

/// The waiver's name when a device has no counters for the run.
pub const COUNTERS_WAIVER: &str = "hardware counters (CUPTI)";
/// How the notes about the counters begin.
const NOTE: &str = "hardware counters";

/// Adds `note` to `result` unless it is there already.
fn note_once(result: &mut ExperimentResult, note: String) {
    if !result.notes.contains(&note) {
        result.notes.push(note);
    }
}

/// The counters of one more launch of `point`'s kernel by `implementation`
/// (`launch` enqueues it), stored on `point`; `None` where the run collects
/// none, the point failed its check, or the implementation runs no kernel on
/// the device's CUDA context (said once in `result`). Call it only after the
/// point's timed samples.
pub fn count_point(
    ctx: &RunContext<'_>,
    result: &mut ExperimentResult,
    implementation: Implementation,
    point: &mut Point,
    launch: &mut dyn FnMut() -> Result<()>,
) -> Result<Option<Counted>> {
    if !ctx.settings.counters || !point.status.is_ok() {
        return Ok(None);
    }
    if !matches!(implementation, Implementation::Rust | Implementation::CudaC) {
        note_once(
            result,
            format!(
                "{NOTE}: the {} series have none (not a kernel on the device's CUDA context)",
                implementation.label()
            ),
        );
        return Ok(None);
    }
    if result.waived.iter().any(|w| w.what == COUNTERS_WAIVER) {
        return Ok(None);
    }
    match count(ctx.testbed, ctx.device, launch)? {
        CounterOutcome::Counted(counted) => {
            point.counters = counted.values.clone();
            if let Ok(collector) = ctx.testbed.counters() {
                for (metric, why) in collector.refused(ctx.ordinal()) {
                    note_once(result, format!("{NOTE}: {metric} not collected: {why}"));
                }
            }
            Ok(Some(counted))
        }
        CounterOutcome::Off(reason) => {
            result.waived.push(Waiver {
                what: COUNTERS_WAIVER.into(),
                reason,
            });
            Ok(None)
        }
        CounterOutcome::Failed(error) => {
            note_once(result, format!("{NOTE} FAILED (points without counters): {error}"));
            Ok(None)
        }
    }
}

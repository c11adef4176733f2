//! The loop every sweep shares: its points in order, a Ctrl-C check before
//! each ([`RunContext::stop_before`]: the points measured so far are kept),
//! the progress bar advanced after each.

use super::RunContext;
use crate::error::Result;

/// Measures `points` in order, they being points `first..` of the
/// experiment's `planned`: stops before a point once Ctrl-C was pressed, and
/// advances the progress bar by one after each point measured. Returns the
/// points measured.
pub fn each_point<P>(
    ctx: &RunContext<'_>,
    points: impl IntoIterator<Item = P>,
    (first, planned): (usize, usize),
    mut measure: impl FnMut(P) -> Result<()>,
) -> Result<usize> {
    let mut measured = 0;
    for point in points {
        if ctx.stop_before(first + measured, planned) {
            break;
        }
        measure(point)?;
        ctx.progress.inc(1);
        measured += 1;
    }
    Ok(measured)
}

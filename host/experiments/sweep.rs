//! The loop every sweep shares: its points in order, a Ctrl-C check before
//! each ([`RunContext::stop_before`]: the points measured so far are kept),
//! the progress bar advanced after each.

use super::RunContext;
use crate::error::Result;

/// Measures `points` in order, they being points `first..` of the
/// experiment's `planned`: stops before a point once Ctrl-C was pressed, and
/// advances the progress bar by one after each point measured.
pub fn each_point<P>(
    ctx: &RunContext<'_>,
    points: impl IntoIterator<Item = P>,
    (first, planned): (usize, usize),
    mut measure: impl FnMut(P) -> Result<()>,
) -> Result<()> {
    for (done, point) in points.into_iter().enumerate() {
        if ctx.stop_before(first + done, planned) {
            break;
        }
        measure(point)?;
        ctx.progress.inc(1);
    }
    Ok(())
}

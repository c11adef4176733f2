use super::{Bound, Claim, ExperimentResult, LedgerRow, PlotSpec, Report, Series};

/// What an experiment adds to the generic section of `report.md`: a
/// narrative ("then vs now") and tables shaped like its source's, and extra
/// plots. Every hook reads typed results (series and point keys), never
/// display labels; an experiment without hooks gets the generic table and plot.
pub trait SectionHooks: Sync {
    /// Paragraphs placed after the plot.
    fn narrative(&self, _result: &ExperimentResult, _report: &Report) -> Vec<String> {
        Vec::new()
    }

    /// Markdown tables in place of the generic one (`None` keeps the generic table).
    fn tables(&self, _result: &ExperimentResult, _report: &Report) -> Option<String> {
        None
    }

    /// The experiment's main plot (`<name>.svg`), or `None`; by default every series against
    /// the swept value, or a heat map per series of GPU pairs ([`PlotSpec::of`]).
    fn plot(&self, result: &ExperimentResult, _report: &Report) -> Option<PlotSpec> {
        PlotSpec::of(result)
    }

    /// The figure a reader came for, as one sentence for the report's headline findings
    /// ("the copy ceiling: 3000 GB/s, 89.5% of the theoretical 3352 GB/s"); `None` leaves
    /// the generic one (the best figure of the experiment).
    fn headline(&self, _result: &ExperimentResult, _report: &Report) -> Option<String> {
        None
    }

    /// Plots beside the main one (each written as `<name>-<suffix>.svg`).
    fn extra_plots(&self, _result: &ExperimentResult, _report: &Report) -> Vec<PlotSpec> {
        Vec::new()
    }

    /// The physical units that bound the figures of `series` (see
    /// [`ceilings`](super::ceilings)): every point is checked against them
    /// before it is shown or graded.
    fn bounds(&self, _result: &ExperimentResult, _series: &Series) -> Vec<Bound> {
        Vec::new()
    }

    /// The documents' claims this experiment grades, declared without a GPU
    /// (what `ptxsuite claims` lists); every row [`ledger`](Self::ledger)
    /// gives is one of them.
    fn claims(&self) -> Vec<Claim> {
        Vec::new()
    }

    /// The documents' claims this result measures, each with a verdict
    /// (the report's ledger, "the guides' claims, then and now").
    fn ledger(&self, _result: &ExperimentResult, _report: &Report) -> Vec<LedgerRow> {
        Vec::new()
    }
}

/// Finds an experiment's hooks by its name; reports from other versions may
/// name experiments this build does not have (they get the generic section).
pub type HooksLookup<'a> = &'a dyn Fn(&str) -> Option<&'static dyn SectionHooks>;

/// A lookup that knows no experiment: every section is generic.
pub fn no_hooks(_: &str) -> Option<&'static dyn SectionHooks> {
    None
}

/// The main plot of `result`: its hooks' or the generic one.
pub fn main_plot(result: &ExperimentResult, report: &Report, hooks: HooksLookup<'_>) -> Option<PlotSpec> {
    match hooks(&result.name) {
        Some(h) => h.plot(result, report),
        None => PlotSpec::of(result),
    }
}

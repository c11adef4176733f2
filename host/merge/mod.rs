//! `ptxsuite merge`: the reports of a cluster's nodes (one `ptxsuite run` per
//! node, e.g. under Slurm) combined into one: each point's min / median / max
//! across nodes, a table per node, and the nodes slower than the others named.

mod merge_reports;
mod merged_markdown;
mod merged_report;
mod slow_nodes;

pub use merge_reports::merge;
pub use merged_markdown::{markdown, summary};
pub use merged_report::{
    MERGED_SCHEMA, MERGED_SCHEMA_VERSION, MergedPoint, MergedReport, NodeFigure, NodeSummary, SlowSeries,
};
pub use slow_nodes::{below_threshold, geometric_mean, relative_figure, rule};

//! The hardware counters of the `instructions` experiment (`--counters`):
//! SASS instructions executed per operation, beside the instructions per
//! operation the published rates assume on their pipe.

use std::fmt::Write;

use kernels_gpu::instruction_throughput::ThroughputKernel;

use super::instructions::{pipe_instructions_per_operation, range_at};
use crate::counters::SASS_PER_ELEMENT;
use crate::report::ExperimentResult;

/// The counters' table, where the run collected them: SASS instructions
/// executed per operation (each thread's), beside the instructions per
/// operation the published rates assume on their pipe.
pub fn table(result: &ExperimentResult, out: &mut String) {
    let rows: Vec<String> = result
        .series
        .iter()
        .filter(|s| s.key.variant.is_empty())
        .filter_map(|s| {
            Some((
                s,
                ThroughputKernel::ALL.into_iter().find(|k| k.entry() == s.key.kernel)?,
            ))
        })
        .flat_map(|(series, kernel)| {
            series.points.iter().filter_map(move |p| {
                let per = p.extra.get(SASS_PER_ELEMENT)?;
                Some(format!(
                    "| {} | {} | {} | {per:.2} | {:.0} |",
                    kernel.operation(),
                    range_at(p.at)?.label(),
                    series.key.implementation.label(),
                    pipe_instructions_per_operation(kernel)
                ))
            })
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n**Hardware counters**: SASS instructions executed per operation (each thread's, loop overhead \
         included; CUPTI, one more launch of each point)\n\n| operation | arguments | implementation | SASS \
         instructions per operation (counters) | pipe instructions per operation (published rates) |\n\
         |---|---|---|---:|---:|\n{}",
        rows.join("\n")
    );
}

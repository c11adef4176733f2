//! Sentences for `report.md` on Rust kernels whose speed differs from their
//! CUDA C twins', with what the report knows of the two builds.

use super::KernelRecord;
use crate::experiments::SweepResult;
use crate::gpu::Implementation;

/// A sentence per kernel of `names` whose Rust and CUDA C medians at `value`
/// differ by more than 3%, with the two builds' registers and occupancy from
/// the report's kernel table: the usual cause is a build that fits fewer blocks
/// on an SM. Where both are the same, the sentence says so: the difference is
/// then in the instruction schedule, which the report cannot see.
pub(super) fn twin_gaps<'a>(
    sweep: &SweepResult,
    kernels: &[KernelRecord],
    value: i64,
    names: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    let record = |name: &str, imp| kernels.iter().find(|k| k.name == name && k.implementation == imp);
    names
        .into_iter()
        .filter_map(|name| {
            let rust = sweep.series_for(name, Implementation::Rust)?.median_gbps(value)?;
            let cuda = sweep.series_for(name, Implementation::CudaC)?.median_gbps(value)?;
            let ratio = rust / cuda;
            if (0.97..=1.03).contains(&ratio) {
                return None;
            }
            let (r, c) = (
                record(name, Implementation::Rust)?,
                record(name, Implementation::CudaC)?,
            );
            let same_fit =
                r.active_blocks_per_sm == c.active_blocks_per_sm && r.theoretical_occupancy == c.theoretical_occupancy;
            Some(format!(
                "`{name}`: Rust / CUDA C = {ratio:.3}; Rust uses {} registers per thread ({:.0}% occupancy at \
                 {}-thread blocks), CUDA C {} ({:.0}%).{}",
                r.resources.registers_per_thread,
                100.0 * r.theoretical_occupancy,
                r.block_threads,
                c.resources.registers_per_thread,
                100.0 * c.theoretical_occupancy,
                if same_fit {
                    " Both fit the SM alike, so the builds differ in their instruction schedules (see the kernel's \
                     documentation)."
                } else {
                    ""
                }
            ))
        })
        .collect()
}

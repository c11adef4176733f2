//! Sentences for `report.md` on Rust kernels whose speed differs from a
//! twin's by more than 3%, with what the report knows of the two builds.

use super::{ExperimentResult, KernelRecord, PointKey, Series};

/// A sentence when the Rust series and its twin differ by more than 3% at
/// `at`, with the two builds' registers and occupancy from the kernel table
/// (the usual cause is a build that fits fewer blocks on an SM). Where both
/// fit alike, the sentence says the difference is in the instruction schedule.
pub fn twin_gap(
    result: &ExperimentResult,
    kernels: &[KernelRecord],
    (rust, twin): (&Series, &Series),
    at: PointKey,
) -> Option<String> {
    let ratio = result.rust_over(rust, twin, at)?;
    if (0.97..=1.03).contains(&ratio) {
        return None;
    }
    let device = result.device.unwrap_or(0);
    let record = |series: &Series| {
        kernels.iter().find(|k| {
            k.name == series.key.kernel && k.implementation == series.key.implementation && k.device == device
        })
    };
    let other = twin.key.implementation.label();
    let mut text = format!(
        "`{}` at {} {at}: Rust / {other} = {ratio:.3}",
        rust.key.kernel, result.axis.parameter
    );
    if let (Some(r), Some(c)) = (record(rust), record(twin).filter(|c| c.opencl.is_none())) {
        let same_fit =
            r.active_blocks_per_sm == c.active_blocks_per_sm && r.theoretical_occupancy == c.theoretical_occupancy;
        text.push_str(&format!(
            "; Rust uses {} registers per thread ({:.0}% occupancy at {}-thread blocks), {other} {} ({:.0}%).",
            r.resources.registers_per_thread,
            100.0 * r.theoretical_occupancy,
            r.block_threads,
            c.resources.registers_per_thread,
            100.0 * c.theoretical_occupancy,
        ));
        if same_fit {
            text.push_str(
                " Both fit the SM alike, so the builds differ in their instruction schedules (see the kernel's \
                 documentation).",
            );
        }
    } else if let (Some(r), Some(opencl)) = (record(rust), record(twin).and_then(|c| c.opencl.as_ref())) {
        text.push_str(&format!(
            "; Rust uses {} registers per thread ({:.0}% occupancy at {}-thread blocks); the OpenCL C build uses {} \
             bytes of private and {} of __local memory per work-group (OpenCL reports no registers).",
            r.resources.registers_per_thread,
            100.0 * r.theoretical_occupancy,
            r.block_threads,
            opencl.private_memory_bytes,
            opencl.local_memory_bytes
        ));
    } else {
        text.push('.');
    }
    Some(text)
}

//! What the GPU integration tests share.

use std::io::Write;

use ptxsuite::Error;
use ptxsuite::gpu::Gpu;

/// GPU 0; without a CUDA driver or device, `None` after printing (uncaptured)
/// that `test` was skipped. Any other failure to open the GPU fails the test.
pub fn gpu_or_skip(test: &str) -> Option<Gpu> {
    match Gpu::open(0) {
        Ok(gpu) => Some(gpu),
        Err(e @ (Error::NoDriver | Error::NoDevice)) => {
            note_skipped(&format!("SKIPPED {test}: {e}"));
            None
        }
        Err(e) => panic!("opening the GPU failed: {e}"),
    }
}

/// Prints `line` to stderr past the test harness's capture (which hides
/// `eprintln!` of passing tests), so that what a run skipped shows in every
/// `cargo test` output.
pub fn note_skipped(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

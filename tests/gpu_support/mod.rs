//! What the GPU integration tests share.

use std::io::Write;

use ptxsuite::Error;
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::testbed::{DeviceUnderTest, Implementation, ImplementationSet};

/// GPU 0 with every implementation loaded; without a CUDA driver or device,
/// `None` after printing (uncaptured) that `test` was skipped. Any other
/// failure to open the GPU fails the test.
pub fn gpu_or_skip(test: &str) -> Option<DeviceUnderTest> {
    match DeviceUnderTest::open(CudaOrdinal(0), &ImplementationSet::default()) {
        Ok(dut) => Some(dut),
        Err(e @ (Error::NoDriver | Error::NoDevice)) => {
            note_skipped(&format!("SKIPPED {test}: {e}"));
            None
        }
        Err(e) => panic!("opening the GPU failed: {e}"),
    }
}

/// Rust, and the CUDA C twins when NVRTC is there (a GPU machine without it says so).
#[allow(dead_code)]
pub fn implementations(dut: &DeviceUnderTest) -> Vec<Implementation> {
    let (implementations, waived) = dut.ptx_implementations();
    for why in waived {
        note_skipped(&format!("CUDA C twins skipped: {why}"));
    }
    implementations
}

/// Prints `line` to stderr past the test harness's capture (which hides
/// `eprintln!` of passing tests), so that what a run skipped shows in every
/// `cargo test` output.
pub fn note_skipped(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

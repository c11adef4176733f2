//! What the GPU integration tests share.

use std::io::Write;

use ptxsuite::Error;
use ptxsuite::facts::CudaOrdinal;
use ptxsuite::launchers::KernelSet;
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

/// [`gpu_or_skip`], and `None` (after SKIPPED) where the device cannot map host memory.
#[allow(dead_code)]
pub fn mapped_gpu_or_skip(test: &str) -> Option<DeviceUnderTest> {
    let dut = gpu_or_skip(test)?;
    if !dut.info().can_map_host_memory {
        note_skipped(&format!("SKIPPED {test}: the device cannot map host memory"));
        return None;
    }
    Some(dut)
}

/// Asserts what a family's runners for `kernels`, on a device opened with
/// `--impl list`, run and waive: Rust alone never waives the twins; with the
/// twins, CUDA C runs where it was selected and NVRTC built it on this
/// machine (`has_cuda_c`), and is waived only where it was selected but missing.
#[allow(dead_code)]
pub fn assert_runners_follow(
    list: &str,
    has_cuda_c: bool,
    kernels: KernelSet,
    implementations: &[Implementation],
    waived: &[(Implementation, String)],
) {
    let set = ImplementationSet::parse(list).unwrap();
    let cuda_c = kernels == KernelSet::WithTwins && set.contains(Implementation::CudaC);
    let mut expected = vec![Implementation::Rust];
    if cuda_c && has_cuda_c {
        expected.push(Implementation::CudaC);
    }
    assert_eq!(implementations, expected, "--impl {list}, {kernels:?}");
    let waived: Vec<Implementation> = waived.iter().map(|(i, _)| *i).collect();
    let expected_waived = if cuda_c && !has_cuda_c {
        vec![Implementation::CudaC]
    } else {
        vec![]
    };
    assert_eq!(waived, expected_waived, "--impl {list}, {kernels:?}");
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

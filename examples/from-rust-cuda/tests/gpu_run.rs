//! The binary on this machine: with a GPU it must print OK; without a driver
//! or no GPU it must say so and exit with status 1 (an error, not a panic).

use std::io::Write;
use std::process::Command;

#[test]
fn main_checks_the_gpu_or_explains_why_it_cannot() {
    let output = Command::new(env!("CARGO_BIN_EXE_from-rust-cuda")).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.success() {
        assert!(stdout.lines().any(|line| line == "OK"), "{stdout}");
        return;
    }
    assert_eq!(output.status.code(), Some(1), "stdout: {stdout}\nstderr: {stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    if stderr.contains("no NVIDIA driver") || stderr.contains("found no CUDA GPU") {
        // Written to stderr directly, past the test harness's capture, so that `cargo test` shows it.
        let note = format!(
            "SKIPPED main_checks_the_gpu_or_explains_why_it_cannot: {}",
            stderr.trim()
        );
        let _ = writeln!(std::io::stderr(), "{note}");
    } else {
        panic!("the GPU run failed: {stderr}");
    }
}

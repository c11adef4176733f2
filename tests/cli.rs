//! The binary's handling of bad input: a clear message and a non-zero exit,
//! never a panic trace. GPU-free: every case fails before a GPU is touched,
//! or is the no-driver case itself.

use std::io::Write;
use std::process::{Command, Output};

fn ptxsuite(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxsuite"))
        .args(args)
        .output()
        .expect("running ptxsuite")
}

fn assert_clean_failure(args: &[&str], expected: &str) {
    let out = ptxsuite(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(
        stderr.contains(expected),
        "{args:?}: expected {expected:?} in:\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?} panicked:\n{stderr}");
}

#[test]
fn unknown_experiment_is_refused() {
    assert_clean_failure(
        &["run", "--only", "offset,warp-speed"],
        "unknown experiment \"warp-speed\"",
    );
}

#[test]
fn out_of_range_settings_are_refused() {
    assert_clean_failure(&["run", "--reps", "0"], "--reps 0 is out of range");
    assert_clean_failure(&["run", "--samples", "0"], "--samples 0 is out of range");
    assert_clean_failure(&["run", "--size-mib", "0"], "--size-mib 0 is out of range");
    assert_clean_failure(&["run", "--size-mib", "99999999"], "out of range");
}

#[test]
fn malformed_numbers_are_usage_errors() {
    assert_clean_failure(&["run", "--size-mib", "-5"], "error:");
    assert_clean_failure(&["run", "--reps", "many"], "invalid value");
    assert_clean_failure(&["frobnicate"], "unrecognized subcommand");
}

#[test]
fn unwritable_output_directory_is_refused_before_running() {
    let file = std::env::temp_dir().join(format!("ptxsuite-not-a-dir-{}", std::process::id()));
    std::fs::write(&file, b"x").unwrap();
    let out_dir = file.join("report");
    assert_clean_failure(
        &["run", "--out", out_dir.to_str().unwrap()],
        "cannot create output directory",
    );
    let _ = std::fs::remove_file(file);
}

#[test]
fn list_names_every_experiment() {
    let out = ptxsuite(&["list"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("offset") && text.contains("stride"), "{text}");
}

#[test]
fn gpu_commands_without_a_driver_say_so() {
    if ptxsuite::gpu::Gpu::driver_present() {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: a CUDA driver is present, so the no-driver message cannot be observed"
        );
        return;
    }
    assert_clean_failure(&["info"], "no NVIDIA driver found");
    assert_clean_failure(&["run", "--only", "offset"], "no NVIDIA driver found");
    assert_clean_failure(&["selftest"], "no NVIDIA driver found");
}

#[test]
fn bad_kernel_timeouts_are_refused() {
    for value in ["0", "-1", "nan", "inf", "1e9"] {
        let flag = format!("--kernel-timeout={value}");
        assert_clean_failure(&["run", &flag], "--kernel-timeout");
        assert_clean_failure(&["run", &flag], "out of range");
        assert_clean_failure(&["selftest", &flag], "out of range");
    }
    assert_clean_failure(&["run", "--kernel-timeout", "soon"], "invalid value 'soon'");
    assert_clean_failure(&["selftest", "--kernel-timeout", ""], "invalid value");
}

#[test]
fn help_documents_the_kernel_timeout_and_selftest() {
    let run_help = String::from_utf8_lossy(&ptxsuite(&["run", "--help"]).stdout).into_owned();
    assert!(run_help.contains("--kernel-timeout <SECONDS>"), "{run_help}");
    assert!(run_help.contains("[default: 60]"), "{run_help}");
    let help = String::from_utf8_lossy(&ptxsuite(&["--help"]).stdout).into_owned();
    assert!(help.contains("selftest"), "{help}");
}

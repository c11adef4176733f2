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
fn every_numeric_flag_states_its_real_range() {
    for (flag, value, range) in [
        ("--reps", "0", "1..=10000"),
        ("--reps", "-3", "1..=10000"),
        ("--reps", "4294967296", "1..=10000"),
        ("--samples", "0", "1..=1000"),
        ("--samples", "-1", "1..=1000"),
        ("--size-mib", "0", "1..=8191"),
        ("--size-mib", "-5", "1..=8191"),
        ("--size-mib", "99999999", "1..=8191"),
        ("--kernel-timeout", "1e-300", "0.001..=86400"),
        ("--kernel-timeout", "-1", "0.001..=86400"),
    ] {
        let out = ptxsuite(&["run", flag, value]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: a usage error\n{stderr}");
        assert!(
            stderr.contains(range) && stderr.contains(flag),
            "{flag} {value}:\n{stderr}"
        );
        assert!(!stderr.contains("unexpected argument"), "{flag} {value}:\n{stderr}");
    }
    assert_clean_failure(&["compare", "a", "b", "--threshold", "-5"], "[0, 100)");
}

#[test]
fn malformed_values_are_usage_errors() {
    assert_clean_failure(&["run", "--reps", "many"], "invalid value");
    assert_clean_failure(&["run", "--device", "0,0"], "names device 0 twice");
    assert_clean_failure(&["run", "--device", "gpu1"], "is not a device index");
    assert_clean_failure(&["run", "--impl", "rust,fortran"], "unknown implementation \"fortran\"");
    assert_clean_failure(&["frobnicate"], "unrecognized subcommand");
}

#[test]
fn run_without_a_gpu_leaves_no_output_folder() {
    if ptxsuite::gpu::Gpu::driver_present() {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED run_without_a_gpu_leaves_no_output_folder: a CUDA driver is present"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("ptxsuite-no-gpu-{}", std::process::id()));
    assert_clean_failure(
        &["run", "--only", "offset", "--out", dir.to_str().unwrap()],
        "no NVIDIA driver found",
    );
    assert!(!dir.exists(), "{} was created", dir.display());
}

#[test]
fn output_errors_are_one_line_and_a_closed_pipe_ends_quietly() {
    use std::process::Stdio;
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let out = Command::new(env!("CARGO_BIN_EXE_ptxsuite"))
            .arg("list")
            .stdout(Stdio::from(full))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("cannot write to standard output") && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/report_v1_h100.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxsuite"))
        .args(["compare", fixture, fixture])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away, as `| head` does
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

#[test]
fn list_aligns_every_name() {
    let out = ptxsuite(&["list"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let columns: Vec<usize> = text
        .lines()
        .map(|l| l.find("  ").unwrap() + l[l.find("  ").unwrap()..].find(|c: char| c != ' ').unwrap())
        .collect();
    assert!(
        columns.windows(2).all(|w| w[0] == w[1]),
        "titles start in one column:\n{text}"
    );
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
            "SKIPPED gpu_commands_without_a_driver_say_so: a CUDA driver is present, so the no-driver message cannot be observed"
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
        assert_clean_failure(&["run", &flag], "is not in 0.001..=86400 seconds");
        assert_clean_failure(&["selftest", &flag], "is not in 0.001..=86400 seconds");
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

#[test]
fn every_skip_message_names_its_test() {
    // `SKIPPED <test>: why`, never a bare `SKIPPED:` a reader cannot place.
    let bare = format!("\"SKIPPED{}", ":");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.extend(["support/mod.rs", "gpu_support/mod.rs"].map(|f| std::path::Path::new(dir).join(f)));
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            !text.contains(&bare),
            "{} prints a skip without its test's name",
            file.display()
        );
    }
}

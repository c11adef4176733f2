//! The memory-claims experiments end to end on a real GPU, at small sizes
//! and few samples: each runs through the registry's `run_one`, every point
//! passes its check, the report renders, and the ledger gets its rows.
//! Prints each row's measurement and verdict for the lead. Without a CUDA
//! driver or device each test prints `SKIPPED ...` and passes.

mod gpu_support;

use gpu_support::{gpu_or_skip, note_skipped};
use indicatif::ProgressBar;
use ptxsuite::experiments::{self, RunContext};
use ptxsuite::report::{Report, Status};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::{ImplementationSet, Testbed};

/// Runs `name` with `buffer_mib` and few samples; checks it and its ledger rows (`ids`).
fn run_experiment(test: &str, name: &str, buffer_mib: u64, ids: &[&str]) {
    let Some(dut) = gpu_or_skip(test) else {
        return;
    };
    let info = dut.info().clone();
    let testbed = Testbed::of(vec![dut], ImplementationSet::default()).unwrap();
    let settings = RunSettings {
        buffer_mib: Some(buffer_mib),
        reps: 2,
        samples: 3,
        ..RunSettings::default()
    };
    let progress = ProgressBar::hidden();
    let ctx = RunContext {
        testbed: &testbed,
        device: &testbed.devices()[0],
        settings: &settings,
        progress: &progress,
        out_dir: None,
    };
    let experiment = experiments::find(name).expect("a registered experiment");
    let started = std::time::Instant::now();
    let result = experiments::run_one(experiment, &ctx).unwrap();
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(result.status, Status::Ok, "{name}: {}", result.status);
    assert!(!result.series.is_empty(), "{name}: no series");
    for series in &result.series {
        assert!(!series.points.is_empty(), "{name}: {} has no points", series.label);
        for point in &series.points {
            assert!(
                point.status.is_ok(),
                "{name}: {} at {}: {}",
                series.label,
                point.at,
                point.status
            );
            assert!(
                point.median().is_some_and(|m| m > 0.0),
                "{name}: {} at {}",
                series.label,
                point.at
            );
        }
    }
    let report = Report::new(vec![info], &settings, Vec::new(), Vec::new(), vec![result]);
    let rendered = report.render(&experiments::hooks).unwrap();
    assert!(rendered.files.iter().any(|(file, _)| file == "report.md"));
    let rows = report.compute_ledger(&experiments::hooks);
    for id in ids {
        assert!(rows.iter().any(|r| r.id == *id), "{name}: no ledger row {id}: {rows:?}");
    }
    note_skipped(&format!("memexp: {name} ran in {seconds:.1} s (small settings)"));
    for row in rows {
        note_skipped(&format!(
            "memexp: {} [{}] {} — {}",
            row.id,
            row.verdict.label(),
            row.measured,
            row.rule
        ));
    }
}

#[test]
fn gpu_bank_conflicts_experiment() {
    run_experiment(
        "gpu_bank_conflicts_experiment",
        "bank-conflicts",
        64,
        &["bpg-3.2.2.1-bank-conflicts", "bpg-3.2.2.1-broadcast"],
    );
}

#[test]
fn gpu_constant_memory_experiment() {
    run_experiment(
        "gpu_constant_memory_experiment",
        "constant-memory",
        64,
        &["bpg-3.2.5-constant-addresses"],
    );
}

#[test]
fn gpu_local_memory_experiment() {
    run_experiment(
        "gpu_local_memory_experiment",
        "local-memory",
        64,
        &["bpg-3.2.3-local-memory"],
    );
}

#[test]
fn gpu_latency_experiment() {
    // Up to 512 MiB: past 4 × L2 on every GPU the suite targets, so device memory has its points.
    run_experiment(
        "gpu_latency_experiment",
        "latency",
        512,
        &["bpg-5.2-memory-latency", "bpg-3.2.6-fma-latency"],
    );
}

#[test]
fn gpu_occupancy_experiment() {
    run_experiment(
        "gpu_occupancy_experiment",
        "occupancy",
        64,
        &["bpg-4.1-occupancy-half", "bpg-4.4-block-size"],
    );
}

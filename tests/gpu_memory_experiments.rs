//! The memory-claims experiments end to end on a real GPU, at small sizes
//! and few samples: each runs through the registry's `run_one`, every point
//! passes its check, the report renders, and the ledger gets its rows.
//! Prints each row's measurement and verdict for the lead. Without a CUDA
//! driver or device each test prints `SKIPPED ...` and passes.

mod gpu_support;

use gpu_support::{gpu_or_skip, note_skipped};
use indicatif::ProgressBar;
use ptxsuite::experiments::{self, RunContext};
use ptxsuite::report::{ExperimentResult, LedgerRow, Report, Status};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::{Implementation, ImplementationSet, Testbed};

/// Runs `name` with `buffer_mib` and few samples; checks it and its ledger
/// rows (`ids`); returns its result and rows (`None` without a GPU).
fn run_experiment(test: &str, name: &str, buffer_mib: u64, ids: &[&str]) -> Option<(ExperimentResult, Vec<LedgerRow>)> {
    let dut = gpu_or_skip(test)?;
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
    let report = Report::new(vec![info], &settings, Vec::new(), Vec::new(), vec![result.clone()]);
    let rendered = report.render(&experiments::hooks).unwrap();
    assert!(rendered.files.iter().any(|(file, _)| file == "report.md"));
    let rows = report.compute_ledger(&experiments::hooks);
    for id in ids {
        assert!(rows.iter().any(|r| r.id == *id), "{name}: no ledger row {id}: {rows:?}");
    }
    note_skipped(&format!("memexp: {name} ran in {seconds:.1} s (small settings)"));
    for row in &rows {
        note_skipped(&format!(
            "memexp: {} [{}] {} — {}",
            row.id,
            row.verdict.label(),
            row.measured,
            row.rule
        ));
    }
    Some((result, rows))
}

/// Where the GPU's OpenCL driver is here, `name` measured its OpenCL C twins
/// (a series of each, every point checked above) and its rows (`ids`) show
/// them; else it waived them with the reason.
fn check_opencl_twins(test: &str, name: &str, ids: &[&str]) {
    let Some((result, rows)) = run_experiment(test, name, 64, ids) else {
        return;
    };
    let twins = result
        .series
        .iter()
        .filter(|s| s.key.implementation == Implementation::OpenClC)
        .count();
    if twins == 0 {
        let waiver = result.waived.iter().find(|w| w.what == "OpenCL C twins");
        assert!(waiver.is_some(), "{name}: neither OpenCL C series nor their waiver");
        note_skipped(&format!("SKIPPED {test}'s OpenCL C twins: {}", waiver.unwrap().reason));
        return;
    }
    for id in ids {
        let row = rows.iter().find(|r| r.id == *id).unwrap();
        assert!(row.measured.contains("OpenCL C: "), "{name}: {id}: {}", row.measured);
    }
    note_skipped(&format!("memexp: {name}: {twins} OpenCL C series"));
}

#[test]
fn gpu_bank_conflicts_experiment() {
    check_opencl_twins(
        "gpu_bank_conflicts_experiment",
        "bank-conflicts",
        &["bpg-3.2.2.1-bank-conflicts", "bpg-3.2.2.1-broadcast"],
    );
}

#[test]
fn gpu_constant_memory_experiment() {
    check_opencl_twins(
        "gpu_constant_memory_experiment",
        "constant-memory",
        &["bpg-3.2.5-constant-addresses"],
    );
}

#[test]
fn gpu_local_memory_experiment() {
    check_opencl_twins(
        "gpu_local_memory_experiment",
        "local-memory",
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

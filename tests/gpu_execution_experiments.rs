//! The execution-claims experiments (`instructions`, `accuracy`,
//! `divergence`, `loop-counters`) end to end on a real GPU, with few
//! samples: each runs through the registry's `run_one`, every point passes
//! its check, the report renders, and the ledger gets its rows. Prints each
//! row's measurement and verdict (`execexp: ...` lines) for the lead.
//! Without a CUDA driver or device each test prints `SKIPPED ...` and passes.

mod gpu_support;

use gpu_support::{gpu_or_skip, note_skipped};
use indicatif::ProgressBar;
use ptxsuite::experiments::{self, RunContext};
use ptxsuite::report::{ExperimentResult, Report, Status};
use ptxsuite::run_settings::RunSettings;
use ptxsuite::testbed::{ImplementationSet, Testbed};

/// Runs the experiments `names` in one report with few samples; checks each
/// and the report's ledger for the rows `ids`.
fn run_experiments(test: &str, names: &[&str], ids: &[&str]) {
    let Some(dut) = gpu_or_skip(test) else {
        return;
    };
    let info = dut.info().clone();
    let testbed = Testbed::of(vec![dut], ImplementationSet::default()).unwrap();
    let settings = RunSettings {
        buffer_mib: Some(64),
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
    let mut results: Vec<ExperimentResult> = Vec::new();
    for name in names {
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
                    point.median().is_some_and(|m| m >= 0.0),
                    "{name}: {} at {}",
                    series.label,
                    point.at
                );
            }
        }
        note_skipped(&format!(
            "execexp: {name} ran in {seconds:.1} s (3 samples of 2 launches)"
        ));
        for note in &result.notes {
            note_skipped(&format!("execexp: {name} note: {note}"));
        }
        results.push(result);
    }
    let report = Report::new(vec![info], &settings, Vec::new(), Vec::new(), results);
    let rendered = report.render(&experiments::hooks).unwrap();
    let markdown = &rendered.files.iter().find(|(file, _)| file == "report.md").unwrap().1;
    for result in &report.experiments {
        assert!(
            markdown.contains(&format!("## {}", result.title)),
            "{} not rendered",
            result.name
        );
    }
    let rows = report.compute_ledger(&experiments::hooks);
    for id in ids {
        assert!(rows.iter().any(|r| r.id == *id), "no ledger row {id}: {rows:?}");
    }
    for row in rows {
        note_skipped(&format!(
            "execexp: {} [{}] {} — {}",
            row.id,
            row.verdict.label(),
            row.measured,
            row.rule
        ));
    }
}

#[test]
fn gpu_instructions_and_accuracy_experiments() {
    run_experiments(
        "gpu_instructions_and_accuracy_experiments",
        &["instructions", "accuracy"],
        &[
            "bpg-5.1.1-integer-division",
            "bpg-5.1.4-fast-math",
            "bpg-5.1.4-argument-reduction",
            "bpg-5.1.3-double-constant",
        ],
    );
}

#[test]
fn gpu_divergence_experiment() {
    run_experiments(
        "gpu_divergence_experiment",
        &["divergence"],
        &["bpg-6.1-divergent-paths", "bpg-6.1-warp-aligned", "bpg-6.2-predication"],
    );
}

#[test]
fn gpu_loop_counters_experiment() {
    run_experiments(
        "gpu_loop_counters_experiment",
        &["loop-counters"],
        &["bpg-6.3-signed-counters", "bpg-6.3-signed-counter-instructions"],
    );
}

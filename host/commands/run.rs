use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use crate::error::{Error, Result};
use crate::experiments::{self, Experiment, RunContext, Scope, kernel_records};
use crate::interrupt_watch::{Interruption, watch_interrupts};
use crate::nvml::{DEFAULT_SAMPLE_INTERVAL, TelemetrySampler};
use crate::output_files::OutputFiles;
use crate::report::{ExperimentResult, ImplementationRecord, Report, Status, Verdict};
use crate::run_settings::RunSettings;
use crate::stop_signal::StopSignal;
use crate::testbed::{DeviceSelection, Implementation, ImplementationSet, Testbed};

/// What `ptxsuite run` was asked to do.
pub struct RunOptions {
    pub only: Option<String>,
    pub out_dir: PathBuf,
    pub devices: DeviceSelection,
    pub implementations: ImplementationSet,
    pub settings: RunSettings,
    /// What the command did to the machine's setup (e.g. registering NVIDIA's OpenCL driver), for the report.
    pub notes: Vec<String>,
}

/// Creates the output folder and proves it writable, once the GPUs are open
/// (a machine that cannot run gets no empty folder) and before any measurement;
/// a report.json or report.md there that could not be replaced (a link) is refused now,
/// not after the run.
fn prepare_output(dir: &Path) -> Result<()> {
    let outputs = OutputFiles::new();
    outputs.create_dir(dir)?;
    outputs.check_all([dir.join("report.json").as_path(), dir.join("report.md").as_path()])?;
    outputs.probe(dir)
}

/// What the experiment loop ended with.
struct Measured {
    results: Vec<ExperimentResult>,
    /// The error that ended the run early, if one did.
    failure: Option<Error>,
}

/// An experiment that did not run, with why.
fn not_run(experiment: &dyn Experiment, device: Option<usize>, reason: &str) -> ExperimentResult {
    ExperimentResult {
        name: experiment.name().into(),
        title: experiment.title().into(),
        source: experiment.source().into(),
        device,
        status: Status::NotRun(reason.into()),
        axis: crate::report::Axis::lines("", crate::report::Metric::Bandwidth),
        byte_counting: String::new(),
        setup: Vec::new(),
        series: Vec::new(),
        waived: Vec::new(),
        notes: Vec::new(),
        artifacts: Vec::new(),
    }
}

/// Runs the selected experiments, each on every device (or once on the
/// node), until all are done, a stop is requested (the experiment in
/// progress ends after its current point and keeps what it measured) or one
/// fails (recorded as failed; the rest are recorded as not run). `telemetry`
/// marks each experiment's start and end.
fn measure_all(
    testbed: &Testbed,
    selected: &[&dyn Experiment],
    settings: &RunSettings,
    out_dir: &Path,
    telemetry: &mut TelemetrySampler,
) -> Measured {
    let devices = testbed.devices();
    let total: u64 = selected
        .iter()
        .map(|e| match e.scope() {
            Scope::EachDevice => e.points() * devices.len() as u64,
            Scope::Node => e.points(),
        })
        .sum();
    let progress = ProgressBar::new(total);
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} points  {elapsed_precise}  {msg}").expect("valid template"),
    );
    let stop = &settings.stop;
    let mut measured = Measured {
        results: Vec::new(),
        failure: None,
    };
    for &experiment in selected {
        let targets: Vec<(usize, Option<usize>)> = match experiment.scope() {
            Scope::EachDevice => devices
                .iter()
                .enumerate()
                .map(|(i, d)| (i, Some(d.info().ordinal.0)))
                .collect(),
            Scope::Node => vec![(0, None)],
        };
        for (index, device) in targets {
            if measured.failure.is_some() {
                measured
                    .results
                    .push(not_run(experiment, device, "an earlier experiment failed"));
                continue;
            }
            if stop.is_requested() {
                measured.results.push(not_run(experiment, device, "stopped by Ctrl-C"));
                continue;
            }
            let ctx = RunContext {
                testbed,
                device: &devices[index],
                settings,
                progress: &progress,
                out_dir: Some(out_dir),
            };
            let window = telemetry.begin();
            let outcome = experiments::run_one(experiment, &ctx);
            telemetry.end(window, experiment.name(), device);
            match outcome {
                Ok(result) => measured.results.push(result),
                Err(error) => {
                    let mut failed = not_run(experiment, device, "");
                    failed.status = Status::Failed(error.to_string());
                    measured.results.push(failed);
                    measured.failure = Some(error);
                }
            }
        }
    }
    progress.finish_and_clear();
    measured
}

/// What each implementation is on this testbed, for the report's header.
fn implementation_records(testbed: &Testbed) -> Vec<ImplementationRecord> {
    let Some(first) = testbed.devices().first() else {
        return Vec::new();
    };
    let record = |implementation, status, detail: String| ImplementationRecord {
        implementation,
        status,
        detail,
    };
    let mut records = vec![record(
        Implementation::Rust,
        Status::Ok,
        format!("rustc nvptx64-nvidia-cuda, PTX {}", crate::ptx::PTX_ARCH),
    )];
    for implementation in testbed.selected().iter().filter(|i| *i != Implementation::Rust) {
        let status = match implementation {
            Implementation::CudaC => match first.module(Implementation::CudaC) {
                Ok(_) => Status::Ok,
                Err(why) => Status::Waived(why),
            },
            Implementation::Cublas => match first.cublas() {
                Ok(_) => Status::Ok,
                Err(why) => Status::Waived(why),
            },
            Implementation::OpenClC => match first.opencl() {
                Ok(_) => Status::Ok,
                Err(why) => Status::Waived(why),
            },
            Implementation::CopyEngine => Status::Ok,
            _ => Status::Waived("not measured by this build".into()),
        };
        let detail = match implementation {
            Implementation::CudaC => "NVRTC, same virtual architecture as the Rust PTX".to_string(),
            Implementation::OpenClC => first.opencl().map(|side| side.detail()).unwrap_or_default(),
            Implementation::Cublas => "FP32 default math mode".to_string(),
            Implementation::CopyEngine => "cuMemcpy*Async".to_string(),
            _ => String::new(),
        };
        records.push(record(implementation, status, detail));
    }
    records
}

/// `ptxsuite run`: runs the selected experiments and writes the report.
/// Returns the human summary to print, and how the run ended.
///
/// Stopped by [`RunSettings::stop`] (Ctrl-C) or by an error (a kernel past
/// `--kernel-timeout`, a driver failure), it still writes the report of what
/// was measured, marked partial, and returns the summary with
/// [`Error::Interrupted`] or the error. A failed check returns
/// [`Error::Verification`]; waived experiments are not failures.
pub fn run(options: &RunOptions) -> (String, Result<()>) {
    let mut summary = String::new();
    let result = run_into(options, &mut summary);
    (summary, result)
}

fn run_into(options: &RunOptions, printed: &mut String) -> Result<()> {
    options.settings.validate()?;
    let selected = experiments::select(options.only.as_deref())?;
    let testbed = Testbed::open(&options.devices, &options.implementations)?;
    for dut in testbed.devices() {
        dut.gpu().set_kernel_timeout(options.settings.kernel_timeout());
    }
    prepare_output(&options.out_dir)?;

    // NVML telemetry from before the first experiment to after the last; without NVML, a note.
    let mut sampler = TelemetrySampler::start(testbed.nvml(), DEFAULT_SAMPLE_INTERVAL);
    let Measured { results, failure } =
        measure_all(&testbed, &selected, &options.settings, &options.out_dir, &mut sampler);
    let telemetry = sampler.finish();
    let stopped = options.settings.stop.is_requested() && results.iter().any(|r| matches!(r.status, Status::NotRun(_)));
    let kernels = match kernel_records(&testbed) {
        Ok(records) => records,
        Err(e) if failure.is_some() => {
            eprintln!("note: kernel resources not recorded: {e}");
            Vec::new()
        }
        Err(e) => return Err(e),
    };
    let devices = testbed.devices().iter().map(|d| d.info().clone()).collect();
    let mut report = Report::new(
        devices,
        &options.settings,
        implementation_records(&testbed),
        kernels,
        results,
    );
    report.telemetry = Some(telemetry);
    report.notes = options.notes.clone();
    // Every figure against the ceiling of its unit, then the ledger graded from what passed.
    report.check_and_grade(&experiments::hooks);
    if let Some(error) = &failure {
        report.mark_partial(format!("stopped by an error: {error}"));
    } else if stopped {
        report.mark_partial("stopped by Ctrl-C");
    }
    if matches!(failure, Some(Error::KernelTimeout { .. })) {
        // A kernel may still be running: unloading modules and releasing the
        // context would wait for it. The driver cleans up at process exit.
        std::mem::forget(testbed);
    }
    let written = report.write(&options.out_dir, &experiments::hooks, &OutputFiles::new());
    if let Some(error) = failure {
        match written {
            Ok(_) => printed.push_str(&summary(&report, &options.out_dir)),
            Err(e) => printed.push_str(&format!("the partial report could not be written: {e}\n")),
        }
        return Err(error);
    }
    written?;
    printed.push_str(&summary(&report, &options.out_dir));
    if stopped {
        return Err(Error::Interrupted {
            report: options.out_dir.join("report.md").display().to_string(),
            incomplete: report.incomplete().join("; "),
        });
    }
    let failed: Vec<String> = report
        .experiments
        .iter()
        .flat_map(|result| {
            result.failures().map(move |(series, point)| {
                format!(
                    "{} {} {}={}",
                    result.name, series.label, result.axis.parameter, point.at
                )
            })
        })
        .collect();
    if !failed.is_empty() {
        return Err(Error::Verification {
            what: failed.join(", "),
            detail: "results differ from the CPU reference; see report.md".into(),
        });
    }
    let disputed = disputed_rows(&report);
    if !disputed.is_empty() {
        return Err(Error::Verification {
            what: format!("the ledger rows {}", disputed.join(", ")),
            detail: "the hardware counters contradict the model these rows rest on by more than 10%; the rows are \
                     not graded (see report.md's ledger)"
                .into(),
        });
    }
    Ok(())
}

/// The ledger rows the hardware counters failed (their ids).
fn disputed_rows(report: &Report) -> Vec<String> {
    report
        .ledger
        .iter()
        .filter(|row| {
            row.verdict == Verdict::Failed && row.check.as_deref().is_some_and(|c| c.contains("hardware counters"))
        })
        .map(|row| row.id.clone())
        .collect()
}

/// The terminal summary: the median of every point of every series, the
/// experiments' statuses and notes, and where the report is.
fn summary(report: &Report, out_dir: &Path) -> String {
    let mut summary = String::new();
    for d in &report.devices {
        summary.push_str(&format!(
            "GPU {}: {} — theoretical {:.1} GB/s; PTX {} (ISA {})\n",
            d.ordinal, d.name, d.theoretical_bandwidth_gbps, report.ptx.target, report.ptx.isa_version
        ));
    }
    for (label, text) in crate::report::telemetry_rows(report) {
        summary.push_str(&format!("{label}: {text}\n"));
    }
    if report.partial {
        summary.push_str(&format!(
            "PARTIAL RUN ({}); incomplete: {}\n",
            report.stop_reason.as_deref().unwrap_or("stopped early"),
            report.incomplete().join("; ")
        ));
    }
    for result in &report.experiments {
        let name = crate::report::section_name(result);
        if !result.status.is_ok() {
            summary.push_str(&format!("{name}: {}\n", result.status));
            if result.series.is_empty() {
                continue;
            }
        }
        summary.push_str(&format!(
            "{name} ({}; median {}):\n",
            result.axis.parameter,
            result.axis.metric.unit()
        ));
        let with_element = crate::report::element_matters(result);
        for series in &result.series {
            let figures: Vec<String> = series
                .points
                .iter()
                .map(|p| match p.median() {
                    Some(v) if v >= 100.0 => format!("{}={v:.0}", p.at),
                    Some(v) => format!("{}={v:.3}", p.at),
                    None => format!("{}={}", p.at, p.status.label()),
                })
                .collect();
            summary.push_str(&format!(
                "  {}: {}\n",
                crate::report::series_name(series, with_element),
                figures.join(" ")
            ));
        }
        for w in &result.waived {
            summary.push_str(&format!("  waived: {} — {}\n", w.what, w.reason));
        }
        for note in &result.notes {
            summary.push_str(&format!("  note: {note}\n"));
        }
    }
    for row in report.ledger.iter().filter(|row| {
        row.verdict == Verdict::Failed && row.check.as_deref().is_some_and(|c| c.contains("hardware counters"))
    }) {
        summary.push_str(&format!(
            "LEDGER ROW FAILED {} ({}): {}\n",
            row.id, row.experiment, row.rule
        ));
    }
    summary.push_str(&format!(
        "{}report written to {}\n",
        if report.partial { "partial " } else { "" },
        out_dir.join("report.md").display()
    ));
    summary
}

/// Takes Ctrl-C (and SIGTERM) for `run` ([`crate::interrupt_watch`]): the
/// first asks the measurement loops to stop after the point in progress (a
/// partial report is written), a second one exits at once with status 130.
/// Call it before any thread is started.
pub fn stop_on_ctrl_c(stop: &StopSignal) -> Result<()> {
    let stop = stop.clone();
    watch_interrupts(move |interruption| match interruption {
        Interruption::First => {
            stop.request();
            eprintln!(
                "\nCtrl-C: finishing the current point, then writing a partial report (Ctrl-C again to exit at once)"
            );
        }
        Interruption::Repeat => {}
        Interruption::Second => {
            eprintln!("\nCtrl-C again: exiting now, no report written");
            std::process::exit(INTERRUPTED_EXIT);
        }
    })
    .map_err(|why| Error::InvalidInput(format!("cannot take Ctrl-C: {why}")))
}

/// Exit status of an interrupted run (128 + SIGINT, as shells report it).
pub const INTERRUPTED_EXIT: i32 = 130;

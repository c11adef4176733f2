use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use crate::error::{Error, Result};
use crate::experiments::{self, RunSettings, StopSignal, SweepResult};
use crate::gpu::Gpu;
use crate::report::{Report, kernel_records};

/// What `ptxsuite run` was asked to do.
pub struct RunOptions {
    pub only: Option<String>,
    pub out_dir: PathBuf,
    pub device: usize,
    pub settings: RunSettings,
}

/// Fails early, before any GPU time is spent, if the report cannot be written.
fn check_writable(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::io(format!("cannot create output directory {}", dir.display()), e))?;
    let probe = dir.join(".ptxsuite-write-test");
    std::fs::write(&probe, b"")
        .map_err(|e| Error::io(format!("output directory {} is not writable", dir.display()), e))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

/// What the experiment loop ended with.
struct Measured {
    results: Vec<SweepResult>,
    /// "name (what happened)" for each selected experiment cut short or not run.
    incomplete: Vec<String>,
    /// The error that ended the run early, if one did.
    failure: Option<Error>,
}

/// Runs the selected experiments in order until all are done, a stop is
/// requested (the experiment in progress ends after its current point and
/// keeps what it measured) or one fails (it is dropped; the others are kept).
fn measure_all(gpu: &Gpu, selected: &[&experiments::Experiment], settings: &RunSettings) -> Measured {
    let total: u64 = selected.iter().map(|e| e.points).sum();
    let progress = ProgressBar::new(total);
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} points  {elapsed_precise}  {msg}").expect("valid template"),
    );
    let stop = &settings.stop;
    let mut measured = Measured {
        results: Vec::new(),
        incomplete: Vec::new(),
        failure: None,
    };
    for experiment in selected {
        if measured.failure.is_some() || stop.is_requested() {
            measured.incomplete.push(format!("{} (not run)", experiment.name));
            continue;
        }
        match (experiment.run)(gpu, settings, &progress) {
            Ok(mut sweep) => {
                if let Some(note) = stop.take_note() {
                    measured.incomplete.push(format!("{} ({note})", experiment.name));
                    sweep.notes.push(note);
                }
                if sweep.series.iter().any(|s| !s.points.is_empty()) {
                    measured.results.push(sweep);
                }
            }
            Err(error) => {
                measured
                    .incomplete
                    .push(format!("{} (failed: {error})", experiment.name));
                measured.failure = Some(error);
            }
        }
    }
    progress.finish_and_clear();
    measured
}

/// `ptxsuite run`: runs the selected experiments and writes the report.
/// Returns the human summary printed at the end.
///
/// Stopped by [`RunSettings::stop`] (Ctrl-C) or by an error (a kernel past
/// `--kernel-timeout`, a driver failure), it still writes the report of what
/// was measured, marked partial, prints the summary and returns
/// [`Error::Interrupted`] or the error.
pub fn run(options: &RunOptions) -> Result<String> {
    options.settings.validate()?;
    let selected = experiments::select(options.only.as_deref())?;
    check_writable(&options.out_dir)?;
    let gpu = Gpu::open(options.device)?;
    gpu.set_kernel_timeout(options.settings.kernel_timeout());

    let Measured {
        results,
        incomplete,
        failure,
    } = measure_all(&gpu, &selected, &options.settings);
    let stopped = options.settings.stop.is_requested() && !incomplete.is_empty();
    let kernels = match kernel_records(&gpu) {
        Ok(records) => records,
        Err(e) if failure.is_some() => {
            eprintln!("note: kernel resources not recorded: {e}");
            Vec::new()
        }
        Err(e) => return Err(e),
    };
    let mut report = Report::new(&gpu, &options.settings, kernels, results);
    if let Some(error) = &failure {
        report.mark_partial(format!("stopped by an error: {error}"), incomplete.clone());
    } else if stopped {
        report.mark_partial("stopped by Ctrl-C", incomplete.clone());
    }
    if matches!(failure, Some(Error::KernelTimeout { .. })) {
        // A kernel may still be running: unloading modules and releasing the
        // context would wait for it. The driver cleans up at process exit.
        std::mem::forget(gpu);
    }
    let written = report.write(&options.out_dir);
    if let Some(error) = failure {
        match written {
            Ok(()) => print!("{}", summary(&report, &options.out_dir)),
            Err(e) => eprintln!("error: the partial report could not be written: {e}"),
        }
        return Err(error);
    }
    written?;
    let summary = summary(&report, &options.out_dir);
    if stopped {
        print!("{summary}");
        return Err(Error::Interrupted {
            report: options.out_dir.join("report.md").display().to_string(),
            incomplete: incomplete.join("; "),
        });
    }
    let failed: Vec<String> = report
        .experiments
        .iter()
        .flat_map(|sweep| {
            sweep.series.iter().flat_map(move |series| {
                series
                    .points
                    .iter()
                    .filter(|p| !p.verified)
                    .map(move |p| format!("{} {} {}={}", sweep.experiment, series.name, sweep.parameter, p.value))
            })
        })
        .collect();
    if !failed.is_empty() {
        print!("{summary}");
        return Err(Error::Verification {
            what: failed.join(", "),
            detail: "results differ from the CPU reference; see report.md".into(),
        });
    }
    Ok(summary)
}

/// The terminal summary: median GB/s per point of every series, notes, where the report is.
fn summary(report: &Report, out_dir: &Path) -> String {
    let mut summary = format!(
        "{} — theoretical {:.1} GB/s; PTX {} (ISA {})\n",
        report.device.name, report.device.theoretical_bandwidth_gbps, report.ptx.target, report.ptx.isa_version
    );
    if report.partial {
        summary.push_str(&format!(
            "PARTIAL RUN ({}); incomplete: {}\n",
            report.stop_reason.as_deref().unwrap_or("stopped early"),
            report.incomplete.join("; ")
        ));
    }
    for sweep in &report.experiments {
        summary.push_str(&format!("{} ({}; median GB/s):\n", sweep.experiment, sweep.parameter));
        for series in &sweep.series {
            let figures: Vec<String> = series
                .points
                .iter()
                .map(|p| match p.effective_gbps {
                    Some(g) => format!("{}={:.0}", p.value, g.median),
                    None => format!("{}=FAILED", p.value),
                })
                .collect();
            summary.push_str(&format!(
                "  {} [{}]: {}\n",
                series.name,
                series.element,
                figures.join(" ")
            ));
        }
        for note in &sweep.notes {
            summary.push_str(&format!("  note: {note}\n"));
        }
    }
    summary.push_str(&format!(
        "{}report written to {}\n",
        if report.partial { "partial " } else { "" },
        out_dir.join("report.md").display()
    ));
    summary
}

/// Installs the Ctrl-C handler of `run`: the first Ctrl-C asks the
/// measurement loops to stop after the point in progress (a partial report
/// is written), a second one exits at once with status 130.
pub fn stop_on_ctrl_c(stop: &StopSignal) -> Result<()> {
    let stop = stop.clone();
    ctrlc::set_handler(move || {
        if stop.request() {
            eprintln!(
                "\nCtrl-C: finishing the current point, then writing a partial report (Ctrl-C again to exit at once)"
            );
        } else {
            eprintln!("\nCtrl-C again: exiting now, no report written");
            std::process::exit(INTERRUPTED_EXIT);
        }
    })
    .map_err(|e| Error::InvalidInput(format!("cannot install the Ctrl-C handler: {e}")))
}

/// Exit status of an interrupted run (128 + SIGINT, as shells report it).
pub const INTERRUPTED_EXIT: i32 = 130;

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use kernels_gpu::global_memory::COPY_BLOCK_THREADS;

use crate::error::{Error, Result};
use crate::experiments::{self, RunSettings};
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

/// `ptxsuite run`: runs the selected experiments and writes the report.
/// Returns the human summary printed at the end.
pub fn run(options: &RunOptions) -> Result<String> {
    options.settings.validate()?;
    let selected = experiments::select(options.only.as_deref())?;
    check_writable(&options.out_dir)?;
    let gpu = Gpu::open(options.device)?;
    gpu.set_kernel_timeout(options.settings.kernel_timeout());

    let total: u64 = selected.iter().map(|e| e.points).sum();
    let progress = ProgressBar::new(total);
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} points  {elapsed_precise}  {msg}").expect("valid template"),
    );
    let mut results = Vec::new();
    for experiment in &selected {
        results.push((experiment.run)(&gpu, &options.settings, &progress)?);
    }
    progress.finish_and_clear();

    let report = Report::new(
        &gpu,
        &options.settings,
        kernel_records(&gpu, COPY_BLOCK_THREADS)?,
        results,
    );
    report.write(&options.out_dir)?;

    let mut summary = format!(
        "{} — theoretical {:.1} GB/s; PTX {} (ISA {})\n",
        report.device.name, report.device.theoretical_bandwidth_gbps, report.ptx.target, report.ptx.isa_version
    );
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
        "report written to {}\n",
        options.out_dir.join("report.md").display()
    ));
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

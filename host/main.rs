//! The `ptxsuite` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ptxsuite::Error;
use ptxsuite::commands::{self, RunOptions};
use ptxsuite::experiments::{EXPERIMENTS, RunSettings};

/// CUDA kernels written in Rust, measured on your GPU against the CUDA C Best Practices Guide.
#[derive(Parser)]
#[command(name = "ptxsuite", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show the GPU, its theoretical bandwidth, the PTX target and each kernel's resource use.
    Info {
        /// CUDA device index.
        #[arg(long, default_value_t = 0)]
        device: usize,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run experiments and write report.json, report.md and SVG plots.
    Run {
        /// Comma-separated experiment names (see `ptxsuite list`); all if omitted.
        #[arg(long)]
        only: Option<String>,
        /// Output directory.
        #[arg(long, default_value = "report")]
        out: PathBuf,
        /// CUDA device index.
        #[arg(long, default_value_t = 0)]
        device: usize,
        /// Size of each buffer in MiB (default: 8 × the GPU's L2, at least 64).
        #[arg(long)]
        size_mib: Option<u64>,
        /// Launches between the two timing events of a sample.
        #[arg(long, default_value_t = RunSettings::default().reps)]
        reps: u32,
        /// Samples per point (min / median / max are reported).
        #[arg(long, default_value_t = RunSettings::default().samples)]
        samples: u32,
        /// Longest wait for the GPU, in seconds: a kernel still running then is reported and the run stops
        /// (a partial report is written).
        #[arg(long, default_value_t = RunSettings::default().kernel_timeout_s, value_name = "SECONDS")]
        kernel_timeout: f64,
    },
    /// Run every kernel and host path once at small sizes and check each against the CPU reference
    /// (quick; meant for compute-sanitizer too).
    Selftest {
        /// CUDA device index.
        #[arg(long, default_value_t = 0)]
        device: usize,
        /// Longest wait for the GPU, in seconds.
        #[arg(long, default_value_t = RunSettings::default().kernel_timeout_s, value_name = "SECONDS")]
        kernel_timeout: f64,
    },
    /// Re-render report.md and the SVG plots from a report.json.
    Render {
        /// A report.json written by `ptxsuite run`.
        report: PathBuf,
        /// Output directory (default: the report's own directory).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Compare two report.json files point by point; exit code 3 if any point regressed.
    Compare {
        /// The baseline report.
        old: PathBuf,
        /// The report to check.
        new: PathBuf,
        /// Percent slowdown counted as a regression.
        #[arg(long, default_value_t = 5.0)]
        threshold: f64,
        /// Also write the full per-point table as Markdown here.
        #[arg(long)]
        markdown: Option<PathBuf>,
    },
    /// List the experiments.
    List,
}

/// Exit code of `compare` when a point regressed (1 is for errors, 2 for usage).
const REGRESSION_EXIT: u8 = 3;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Info { device, json } => commands::info(device, json),
        Command::Run {
            only,
            out,
            device,
            size_mib,
            reps,
            samples,
            kernel_timeout,
        } => {
            let settings = RunSettings {
                buffer_mib: size_mib,
                reps,
                samples,
                kernel_timeout_s: kernel_timeout,
                ..RunSettings::default()
            };
            if let Err(error) = commands::stop_on_ctrl_c(&settings.stop) {
                eprintln!("warning: {error}; Ctrl-C will end the run without a report");
            }
            commands::run(&RunOptions {
                only,
                out_dir: out,
                device,
                settings,
            })
        }
        Command::Selftest { device, kernel_timeout } => commands::selftest(device, kernel_timeout),
        Command::Render { report, out } => commands::render(&report, out.as_deref()),
        Command::Compare {
            old,
            new,
            threshold,
            markdown,
        } => {
            return match commands::compare(&old, &new, threshold, markdown.as_deref()) {
                Ok(comparison) => {
                    print!("{}", comparison.text);
                    if comparison.regressions > 0 {
                        ExitCode::from(REGRESSION_EXIT)
                    } else {
                        ExitCode::SUCCESS
                    }
                }
                Err(error) => {
                    eprintln!("error: {error}");
                    ExitCode::FAILURE
                }
            };
        }
        Command::List => Ok(EXPERIMENTS
            .iter()
            .map(|e| format!("{:<10} {} — {}\n", e.name, e.title, e.guide_section))
            .collect()),
    };
    match outcome {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(error @ Error::Interrupted { .. }) => {
            eprintln!("{error}");
            ExitCode::from(commands::INTERRUPTED_EXIT as u8)
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

//! The `ptxsuite` command line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ptxsuite::Error;
use ptxsuite::commands::{self, RunOptions};
use ptxsuite::experiments::EXPERIMENTS;
use ptxsuite::run_settings::{
    BUFFER_MIB_RANGE, MAX_KERNEL_TIMEOUT_S, MIN_KERNEL_TIMEOUT_S, REPS_RANGE, RunSettings, SAMPLES_RANGE,
};
use ptxsuite::testbed::{DeviceSelection, ImplementationSet};

/// CUDA kernels written in Rust, measured on your GPU against the CUDA C Best Practices Guide.
#[derive(Parser)]
#[command(name = "ptxsuite", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

fn kernel_timeout(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if seconds.is_finite() && (MIN_KERNEL_TIMEOUT_S..=MAX_KERNEL_TIMEOUT_S).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!(
            "{text} is not in {MIN_KERNEL_TIMEOUT_S}..={MAX_KERNEL_TIMEOUT_S} seconds"
        ))
    }
}

fn size_mib(text: &str) -> Result<u64, String> {
    let (low, high) = (*BUFFER_MIB_RANGE.start(), *BUFFER_MIB_RANGE.end());
    match text.trim().parse::<i128>() {
        Ok(v) if (low as i128..=high as i128).contains(&v) => Ok(v as u64),
        Ok(_) => Err(format!("{text} is not in {low}..={high}")),
        Err(_) => Err(format!("{text:?} is not a whole number of MiB ({low}..={high})")),
    }
}

fn devices(text: &str) -> Result<DeviceSelection, String> {
    DeviceSelection::parse(text).map_err(|e| e.to_string())
}

fn implementations(text: &str) -> Result<ImplementationSet, String> {
    ImplementationSet::parse(text).map_err(|e| e.to_string())
}

fn threshold(text: &str) -> Result<f64, String> {
    let percent: f64 = text.parse().map_err(|_| format!("{text:?} is not a number"))?;
    if percent.is_finite() && (0.0..100.0).contains(&percent) {
        Ok(percent)
    } else {
        Err(format!("{text} is not a percentage in [0, 100)"))
    }
}

#[derive(Subcommand)]
enum Command {
    /// Show each GPU, its theoretical bandwidth, the PTX target and each kernel's resource use.
    Info {
        /// CUDA device index, a list (0,2) or all.
        #[arg(long, default_value = "0", value_parser = devices, allow_hyphen_values = true)]
        device: DeviceSelection,
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
        /// CUDA device index, a list (0,2) or all: single-GPU experiments run on each in turn.
        #[arg(long, default_value = "0", value_parser = devices, allow_hyphen_values = true)]
        device: DeviceSelection,
        /// Implementations to measure: rust, cuda-c, opencl, cublas, copy-engine (comma-separated) or all.
        #[arg(long = "impl", default_value = "all", value_parser = implementations)]
        implementations: ImplementationSet,
        /// Size of each buffer in MiB, 1..=8191 (default: 8 × the GPU's L2, at least 64).
        #[arg(long, value_parser = size_mib, allow_negative_numbers = true)]
        size_mib: Option<u64>,
        /// Launches between the two timing events of a sample, 1..=10000.
        #[arg(long, default_value_t = RunSettings::default().reps, value_parser = clap::value_parser!(u32).range(*REPS_RANGE.start() as i64..=*REPS_RANGE.end() as i64), allow_negative_numbers = true)]
        reps: u32,
        /// Samples per point (min / median / max are reported), 1..=1000.
        #[arg(long, default_value_t = RunSettings::default().samples, value_parser = clap::value_parser!(u32).range(*SAMPLES_RANGE.start() as i64..=*SAMPLES_RANGE.end() as i64), allow_negative_numbers = true)]
        samples: u32,
        /// Longest wait for the GPU, 0.001..=86400 seconds: a kernel still running then is reported and the run
        /// stops (a partial report is written).
        #[arg(long, default_value_t = RunSettings::default().kernel_timeout_s, value_name = "SECONDS", value_parser = kernel_timeout, allow_negative_numbers = true)]
        kernel_timeout: f64,
        /// Also read the GPU's hardware counters (CUPTI: libcupti.so on the loader path or in $PTXSUITE_CUPTI) for
        /// every kernel point, in one more, untimed launch after its timed samples; the ledger checks the models
        /// against them.
        #[arg(long)]
        counters: bool,
    },
    /// Print each step of CUPTI's setup and a few collections on one GPU (diagnoses `--counters`).
    #[command(hide = true)]
    CountersProbe {
        /// CUDA device index.
        #[arg(long, default_value_t = 0)]
        device: usize,
    },
    /// Run every kernel and host path once at small sizes and check each against the CPU reference
    /// (quick; meant for compute-sanitizer too).
    Selftest {
        /// CUDA device index, a list or all (peer checks need two).
        #[arg(long, default_value = "0", value_parser = devices, allow_hyphen_values = true)]
        device: DeviceSelection,
        /// Implementations to check (as for `run`).
        #[arg(long = "impl", default_value = "all", value_parser = implementations)]
        implementations: ImplementationSet,
        /// Longest wait for the GPU, 0.001..=86400 seconds.
        #[arg(long, default_value_t = RunSettings::default().kernel_timeout_s, value_name = "SECONDS", value_parser = kernel_timeout, allow_negative_numbers = true)]
        kernel_timeout: f64,
    },
    /// Write report.md and the SVG plots of a report.json (never the report.json itself).
    Render {
        /// A report.json written by `ptxsuite run`.
        report: PathBuf,
        /// Output directory (default: the report's own directory).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Compare two report.json files point by point; exit code 3 if any point regressed, 4 if the new report
    /// lost coverage (experiments, series or points the old one had, or a partial run).
    Compare {
        /// The baseline report.
        old: PathBuf,
        /// The report to check.
        new: PathBuf,
        /// Percent slowdown counted as a regression, in [0, 100).
        #[arg(long, default_value_t = 5.0, value_parser = threshold, allow_negative_numbers = true)]
        threshold: f64,
        /// Also write the full per-point table as Markdown here.
        #[arg(long)]
        markdown: Option<PathBuf>,
    },
    /// Merge the report.json of several nodes (one `run` per node): each point's min / median / max across
    /// nodes and the nodes more than the threshold below the median; writes merged.json and merged.md into
    /// --out. Exit code 3 if a node is slow.
    Merge {
        /// The nodes' report.json files (schema 2; schema 1 is converted), one per host.
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Output directory (only merged.json and merged.md are written, there).
        #[arg(long)]
        out: PathBuf,
        /// Percent below the nodes' median that names a node slow, in [0, 100).
        #[arg(long, default_value_t = 5.0, value_parser = threshold, allow_negative_numbers = true)]
        threshold: f64,
    },
    /// List the experiments.
    List,
    /// List every claim of the source documents the ledger grades (no GPU needed): its id, document and
    /// section, the claim, the rule, the experiment and the series it reads.
    Claims {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Exit code of `compare` when a point regressed, and of `merge` when a node is slow (1 is for errors, 2 for usage).
const REGRESSION_EXIT: u8 = 3;
/// Exit code of `compare` when the new report covers less than the old one (and nothing regressed).
const LOST_COVERAGE_EXIT: u8 = 4;

/// Writes `text` to standard output. A closed pipe ends quietly with `code`
/// (as Unix tools do); any other failure (a full disk) is a one-line error.
fn emit(text: &str, code: ExitCode) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: cannot write to standard output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Exit code of a usage error, as clap gives for the options it refuses.
const USAGE_EXIT: u8 = 2;

/// The exit code and message of an error.
fn failure(error: &Error) -> ExitCode {
    match error {
        Error::Interrupted { .. } => {
            let _ = writeln!(std::io::stderr(), "{error}");
            ExitCode::from(commands::INTERRUPTED_EXIT as u8)
        }
        Error::Usage(_) => {
            let _ = writeln!(std::io::stderr(), "error: {error}");
            ExitCode::from(USAGE_EXIT)
        }
        _ => {
            let _ = writeln!(std::io::stderr(), "error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn list() -> String {
    let width = EXPERIMENTS.iter().map(|e| e.name().len()).max().unwrap_or(0);
    EXPERIMENTS
        .iter()
        .map(|e| format!("{:<width$}  {} — {}\n", e.name(), e.title(), e.source()))
        .collect()
}

fn main() -> ExitCode {
    // SAFETY: the first thing main does, before any thread exists and before any OpenCL call.
    let opencl_note = unsafe { ptxsuite::opencl::register_vendor_libraries() };
    // SAFETY: as above: no thread yet, no CUDA context yet.
    let queues_note = unsafe { ptxsuite::gpu::request_hardware_queues() };
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version go to standard output like any other text (a full disk is an error);
        // everything else the parser refuses is a usage error on standard error.
        Err(error) if !error.use_stderr() => return emit(&error.render().to_string(), ExitCode::SUCCESS),
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(USAGE_EXIT);
        }
    };
    let (text, outcome) = match cli.command {
        Command::Info { device, json } => match commands::info(&device, json) {
            Ok(text) => (text, Ok(())),
            Err(e) => (String::new(), Err(e)),
        },
        Command::Run {
            only,
            out,
            device,
            implementations,
            size_mib,
            reps,
            samples,
            kernel_timeout,
            counters,
        } => {
            let settings = RunSettings {
                buffer_mib: size_mib,
                reps,
                samples,
                kernel_timeout_s: kernel_timeout,
                counters,
                ..RunSettings::default()
            };
            if let Err(error) = commands::stop_on_ctrl_c(&settings.stop) {
                let _ = writeln!(
                    std::io::stderr(),
                    "warning: {error}; Ctrl-C will end the run without a report"
                );
            }
            commands::run(&RunOptions {
                only,
                out_dir: out,
                devices: device,
                implementations,
                settings,
                notes: opencl_note.into_iter().chain([queues_note]).collect(),
            })
        }
        Command::Selftest {
            device,
            implementations,
            kernel_timeout,
        } => commands::selftest(&device, &implementations, kernel_timeout),
        Command::Render { report, out } => match commands::render(&report, out.as_deref()) {
            Ok(text) => (text, Ok(())),
            Err(e) => (String::new(), Err(e)),
        },
        Command::Compare {
            old,
            new,
            threshold,
            markdown,
        } => {
            return match commands::compare(&old, &new, threshold, markdown.as_deref()) {
                Ok(comparison) => {
                    let code = if comparison.regressions > 0 {
                        ExitCode::from(REGRESSION_EXIT)
                    } else if comparison.lost_coverage {
                        ExitCode::from(LOST_COVERAGE_EXIT)
                    } else {
                        ExitCode::SUCCESS
                    };
                    emit(&comparison.text, code)
                }
                Err(error) => failure(&error),
            };
        }
        Command::Merge {
            reports,
            out,
            threshold,
        } => {
            return match commands::merge(&reports, &out, threshold) {
                Ok(merged) => {
                    let code = if merged.slow_nodes > 0 {
                        ExitCode::from(REGRESSION_EXIT)
                    } else {
                        ExitCode::SUCCESS
                    };
                    emit(&merged.text, code)
                }
                Err(error) => failure(&error),
            };
        }
        Command::List => (list(), Ok(())),
        Command::Claims { json } => (commands::claims(json), Ok(())),
        Command::CountersProbe { device } => commands::counters_probe(device),
    };
    let code = emit(&text, ExitCode::SUCCESS);
    match outcome {
        Ok(()) => code,
        Err(error) => failure(&error),
    }
}

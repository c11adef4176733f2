//! The registry of experiments (nvbandwidth-style): each has a name for
//! `--only`, a title, the guide section it reproduces, and a runner that
//! times and verifies every sweep point of every series.

mod copy_ceiling;
mod copy_sweep;
mod guide_multiply;
mod input_values;
mod launch_timing;
mod matrix_vector;
mod offset_stride;
pub mod overlap_model;
mod run_settings;
pub mod sector_model;
mod sgemm;
mod shift_sweep;
mod stop_signal;
mod streams;
mod sweep_result;
mod transfers;
mod zero_copy;

use indicatif::ProgressBar;

use crate::error::{Error, Result};
use crate::gpu::Gpu;

pub use input_values::matrix_value;
pub use run_settings::{MAX_KERNEL_TIMEOUT_S, RunSettings, validate_kernel_timeout};
pub use stop_signal::{STOPPED_NOTE_PREFIX, StopSignal, stopped_note};
pub(crate) use streams::staged_once;
pub use sweep_result::{SeriesResult, SweepPoint, SweepResult};
pub use transfers::transfer_sizes;

/// One experiment of the suite.
pub struct Experiment {
    /// The name `--only` takes.
    pub name: &'static str,
    pub title: &'static str,
    /// Where in the source documents the experiment comes from.
    pub guide_section: &'static str,
    /// How many parameter values it sweeps (for the progress bar).
    pub points: u64,
    pub run: fn(&Gpu, &RunSettings, &ProgressBar) -> Result<SweepResult>,
}

/// Every experiment, in report order.
pub const EXPERIMENTS: &[Experiment] = &[
    offset_stride::OFFSET,
    offset_stride::STRIDE,
    shift_sweep::SHIFT,
    offset_stride::OFFSET_WIDTH,
    offset_stride::STRIDE_WIDTH,
    copy_ceiling::CEILING,
    matrix_vector::MATVEC,
    guide_multiply::MATMUL,
    sgemm::SGEMM,
    transfers::TRANSFERS,
    zero_copy::ZERO_COPY,
    streams::STREAMS,
];

/// The experiments named in a comma-separated `--only` list, or all of them.
pub fn select(only: Option<&str>) -> Result<Vec<&'static Experiment>> {
    let Some(list) = only else {
        return Ok(EXPERIMENTS.iter().collect());
    };
    let mut chosen: Vec<&'static Experiment> = Vec::new();
    for name in list.split(',').map(str::trim) {
        if name.is_empty() {
            continue;
        }
        let experiment = EXPERIMENTS.iter().find(|e| e.name == name).ok_or_else(|| {
            let known: Vec<&str> = EXPERIMENTS.iter().map(|e| e.name).collect();
            Error::InvalidInput(format!("unknown experiment {name:?}; known: {}", known.join(", ")))
        })?;
        if !chosen.iter().any(|c| c.name == experiment.name) {
            chosen.push(experiment);
        }
    }
    if chosen.is_empty() {
        return Err(Error::InvalidInput("--only names no experiment".into()));
    }
    Ok(chosen)
}

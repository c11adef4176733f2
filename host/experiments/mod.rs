//! The experiments: each is one file implementing [`Experiment`] plus one
//! line in [`EXPERIMENTS`] (nvbandwidth's test registry). An experiment
//! declares what it needs ([`Experiment::requires`]: it is *waived* with the
//! reason when the testbed lacks it), runs on the testbed's devices and
//! implementations, and returns a typed [`ExperimentResult`] that the report
//! renders without knowing its name; its [`SectionHooks`] add the narrative
//! and tables shaped like its source document's.

mod accuracy;
mod allocation;
mod bank_conflicts;
mod bank_counters;
mod batched_copies;
mod calibrated_launches;
mod ceiling;
mod chain_check;
mod concurrent_kernels;
mod constant_memory;
mod copy_sweep;
mod counter_evidence;
mod counter_launch;
mod cuda_std_layer;
mod default_stream;
mod divergence;
#[cfg(test)]
mod execution_fixtures;
mod grid_shape;
mod host_links;
mod implementation_ptx;
mod implementation_sass;
mod instruction_counters;
mod instructions;
mod jit_spill_report;
mod kernel_records;
mod latency;
mod latency_ring_plan;
mod launch_outputs;
#[cfg(test)]
mod ledger_fixtures;
mod link_latency;
mod local_memory;
mod loop_counters;
mod mapped_reuse;
mod mapped_stride;
mod math_functions;
mod matmul;
mod matvec;
mod occupancy;
mod offset;
mod offset_width;
mod opencl_arithmetic;
mod overlap_model;
mod particles;
mod peer;
mod peer_copy_limits;
mod permuted;
mod reduction;
mod sector_model;
mod sgemm;
mod shift;
mod sm_spans;
mod stream_fan_out;
mod streams;
mod stride;
mod stride_width;
mod sweep;
mod texture_2d;
mod throughput_code;
mod throughput_sass;
mod transfer_intensity;
mod transfers;
mod twin_ratios;
mod work_group_size;
mod zero_copy;

use indicatif::ProgressBar;

use crate::error::{Error, Result};
use crate::report::{Axis, Devices, ExperimentResult, SectionHooks, SeriesKey, Status, Waiver};
use crate::run_settings::RunSettings;
use crate::testbed::{DeviceUnderTest, Implementation, Testbed};

pub use bank_conflicts::expected_read_checksum;
pub use chain_check::chain_mismatch;
pub use kernel_records::kernel_records;
pub use peer::{PeerBuffers, PeerTest, peer_sizes, source_value};
pub use sector_model::stride_copy_bytes;
pub use texture_2d::check_tile_kernels;
pub use transfers::transfer_sizes;

/// Where an experiment runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// On each device of the run in turn; one result per device.
    EachDevice,
    /// Once, on the whole testbed (pairs of GPUs, all GPUs at once).
    Node,
}

/// One experiment of the suite.
pub trait Experiment: SectionHooks {
    /// The name `--only` takes.
    fn name(&self) -> &'static str;
    fn title(&self) -> &'static str;
    /// Where in the source documents it comes from.
    fn source(&self) -> &'static str;
    fn scope(&self) -> Scope {
        Scope::EachDevice
    }
    /// Sweep points it measures (for the progress bar).
    fn points(&self) -> u64;
    /// `Err(reason)` when the testbed lacks what it needs: the experiment is waived, not failed.
    fn requires(&self, _ctx: &RunContext<'_>) -> std::result::Result<(), String> {
        Ok(())
    }
    fn run(&self, ctx: &RunContext<'_>) -> Result<ExperimentResult>;
}

/// Every experiment, in report order.
pub static EXPERIMENTS: &[&dyn Experiment] = &[
    &offset::Offset,
    &stride::Stride,
    &shift::Shift,
    &texture_2d::Texture2dFetches,
    &permuted::Permuted,
    &offset_width::OffsetWidth,
    &stride_width::StrideWidth,
    &ceiling::Ceiling,
    &reduction::Reduction,
    &cuda_std_layer::CudaStdLayer,
    &matvec::Matvec,
    &matmul::Matmul,
    &sgemm::Sgemm,
    &transfers::Transfers,
    &transfer_intensity::TransferIntensity,
    &batched_copies::BatchedCopies,
    &allocation::Allocation,
    &zero_copy::ZeroCopy,
    &mapped_reuse::MappedReuse,
    &mapped_stride::MappedStride,
    &streams::Streams,
    &default_stream::DefaultStream,
    &concurrent_kernels::ConcurrentKernels,
    &bank_conflicts::BankConflicts,
    &constant_memory::ConstantMemory,
    &local_memory::LocalMemory,
    &latency::Latency,
    &occupancy::Occupancy,
    &grid_shape::GridShape,
    &work_group_size::WorkGroupSize,
    &instructions::Instructions,
    &math_functions::MathFunctions,
    &opencl_arithmetic::OpenClArithmetic,
    &accuracy::Accuracy,
    &divergence::Divergence,
    &loop_counters::LoopCounters,
    &particles::Particles,
    &particles::ParticleTuning,
    &peer::Peer,
    &peer_copy_limits::PeerCopyLimits,
    &host_links::HostLinks,
    &link_latency::LinkLatency,
];

/// An experiment by name.
pub fn find(name: &str) -> Option<&'static dyn Experiment> {
    EXPERIMENTS.iter().copied().find(|e| e.name() == name)
}

/// An experiment's report hooks by name (for rendering reports).
pub fn hooks(name: &str) -> Option<&'static dyn SectionHooks> {
    find(name).map(|e| e as &dyn SectionHooks)
}

/// The experiments named in a comma-separated `--only` list, or all of them.
pub fn select(only: Option<&str>) -> Result<Vec<&'static dyn Experiment>> {
    let Some(list) = only else {
        return Ok(EXPERIMENTS.to_vec());
    };
    let mut chosen: Vec<&'static dyn Experiment> = Vec::new();
    for name in list.split(',').map(str::trim) {
        if name.is_empty() {
            continue;
        }
        let experiment = find(name).ok_or_else(|| {
            let known: Vec<&str> = EXPERIMENTS.iter().map(|e| e.name()).collect();
            Error::Usage(format!("unknown experiment {name:?}; known: {}", known.join(", ")))
        })?;
        if !chosen.iter().any(|c| c.name() == experiment.name()) {
            chosen.push(experiment);
        }
    }
    if chosen.is_empty() {
        return Err(Error::Usage("--only names no experiment".into()));
    }
    Ok(chosen)
}

/// What an experiment runs with: the testbed, the device under test (each in
/// turn for [`Scope::EachDevice`]; the first for [`Scope::Node`]), the settings.
pub struct RunContext<'a> {
    pub testbed: &'a Testbed,
    pub device: &'a DeviceUnderTest,
    pub settings: &'a RunSettings,
    pub progress: &'a ProgressBar,
    /// The report's folder, where an experiment may write pictures
    /// ([`RunContext::write_artifact`]); `None` where nothing may be written (selftest, tests).
    pub out_dir: Option<&'a std::path::Path>,
}

impl RunContext<'_> {
    /// The CUDA ordinal of the device under test, as the report keys its series and results.
    pub fn ordinal(&self) -> usize {
        self.device.info().ordinal.0
    }

    /// A key of `kernel` by `implementation` on the device under test.
    pub fn key(&self, kernel: &str, implementation: Implementation, element: &str) -> SeriesKey {
        SeriesKey::new(kernel, implementation, element).on(Devices::One(self.ordinal()))
    }

    /// An empty, ok result of `experiment` on this device (or the node).
    pub fn result(&self, experiment: &dyn Experiment, axis: Axis, byte_counting: &str) -> ExperimentResult {
        ExperimentResult {
            name: experiment.name().into(),
            title: experiment.title().into(),
            source: experiment.source().into(),
            device: match experiment.scope() {
                Scope::EachDevice => Some(self.ordinal()),
                Scope::Node => None,
            },
            status: Status::Ok,
            axis,
            byte_counting: byte_counting.into(),
            setup: Vec::new(),
            series: Vec::new(),
            waived: Vec::new(),
            notes: Vec::new(),
            artifacts: Vec::new(),
        }
    }

    /// The kernel-twin implementations on this device (Rust first), recording
    /// the ones waived in `result`.
    pub fn ptx_implementations(&self, result: &mut ExperimentResult) -> Vec<Implementation> {
        let (running, waived) = self.device.ptx_implementations();
        result.waived.extend(
            waived
                .into_iter()
                .map(|reason| Waiver::of_twins(Implementation::CudaC, reason)),
        );
        running
    }

    /// Writes `bytes` as `file` in the report's folder and records it in
    /// `result`; the name must be a plain file name. Without a folder
    /// (selftest, tests) nothing is written and the artifact is not recorded.
    pub fn write_artifact(
        &self,
        result: &mut ExperimentResult,
        file: &str,
        caption: &str,
        inline: bool,
        bytes: &[u8],
    ) -> Result<()> {
        let Some(dir) = self.out_dir else {
            return Ok(());
        };
        let plain = !file.is_empty()
            && !file.starts_with('.')
            && file
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !plain {
            return Err(Error::InvalidInput(format!("{file:?} is not a plain file name")));
        }
        crate::output_files::OutputFiles::new().write(&dir.join(file), bytes)?;
        result.artifacts.push(crate::report::Artifact {
            file: file.into(),
            caption: caption.into(),
            inline,
        });
        Ok(())
    }

    /// Before point `done` of `planned`: `true` means stop (Ctrl-C), keeping what was measured.
    pub fn stop_before(&self, done: usize, planned: usize) -> bool {
        self.settings.stop.stop_before(done, planned)
    }
}

/// Runs one experiment on one device: waived when it `requires` what the
/// testbed lacks, its status set from its points, a stop recorded as not run.
pub fn run_one(experiment: &dyn Experiment, ctx: &RunContext<'_>) -> Result<ExperimentResult> {
    if let Err(reason) = experiment.requires(ctx) {
        let mut result = ctx.result(experiment, Axis::lines("", crate::report::Metric::Bandwidth), "");
        result.status = Status::Waived(reason);
        return Ok(result);
    }
    let mut result = experiment.run(ctx)?;
    let failed = result.failures().next().map(|(series, point)| {
        format!(
            "{} at {} {} failed its check",
            series.label, result.axis.parameter, point.at
        )
    });
    if let Some(note) = ctx.settings.stop.take_note() {
        result.status = Status::NotRun(note);
    } else if let Some(failed) = failed {
        result.status = Status::Failed(failed);
    }
    Ok(result)
}

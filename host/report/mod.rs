//! The report: `report.json` (versioned schema with device metadata),
//! `report.md` (tables, the guide's figures beside, an SVG plot per sweep).

pub mod comparison;
mod guide_figures;
mod markdown;
mod matmul_tables;
mod svg_plot;
mod twin_gaps;

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::experiments::{RunSettings, SweepResult};
use crate::gpu::{DeviceInfo, Gpu, Implementation, KernelResources};
use crate::launchers::nominal_shape;
use crate::ptx;

pub use guide_figures::{GuideFigure, guide_figures};

/// Identifies the file format.
pub const SCHEMA: &str = "ptxsuite-report";
/// Bumped whenever a field changes meaning or is removed (added fields carry
/// `#[serde(default)]`, so older reports still load).
pub const SCHEMA_VERSION: u32 = 1;

/// The PTX the kernels ran from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PtxRecord {
    /// `.target` of the embedded PTX (`PTXSUITE_PTX_ARCH` at build time).
    pub target: String,
    /// `.version` (PTX ISA) of the embedded PTX.
    pub isa_version: String,
}

/// A kernel's resource use and occupancy at the block its launcher uses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelRecord {
    pub name: String,
    /// Rust, or the CUDA C twin (reports before 0.2 list only Rust kernels).
    #[serde(default = "rust_implementation")]
    pub implementation: Implementation,
    pub resources: KernelResources,
    pub block_threads: u32,
    /// Dynamic shared memory per block at that launch.
    #[serde(default)]
    pub dynamic_shared_bytes: u32,
    pub active_blocks_per_sm: i32,
    /// Resident threads / maximum resident threads per SM.
    pub theoretical_occupancy: f64,
}

/// Everything one `ptxsuite run` measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema: String,
    pub schema_version: u32,
    pub tool_version: String,
    pub generated_unix_s: u64,
    pub ptx: PtxRecord,
    pub device: DeviceInfo,
    pub settings: RunSettings,
    pub kernels: Vec<KernelRecord>,
    pub experiments: Vec<SweepResult>,
    /// The run stopped early (Ctrl-C, a kernel past its time limit, an error):
    /// some experiments are missing or have only some of their points.
    #[serde(default)]
    pub partial: bool,
    /// Why a partial run stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// The selected experiments that were cut short or not run, each with what happened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub incomplete: Vec<String>,
}

impl PtxRecord {
    pub fn embedded() -> Self {
        Self {
            target: ptx::PTX_ARCH.to_string(),
            isa_version: ptx::isa_version(ptx::KERNELS_PTX).unwrap_or("unknown").to_string(),
        }
    }
}

/// Resource use and occupancy of every kernel in the module at `block_threads`.
fn rust_implementation() -> Implementation {
    Implementation::Rust
}

/// Every kernel of the Rust module and of the CUDA C twins (when compiled),
/// with its occupancy at the block shape its launcher uses.
pub fn kernel_records(gpu: &Gpu) -> Result<Vec<KernelRecord>> {
    let per_sm = gpu.info().max_threads_per_multiprocessor.max(1) as f64;
    let modules = std::iter::once((Implementation::Rust, gpu.module()))
        .chain(gpu.twins().ok().map(|twins| (Implementation::CudaC, twins)));
    let mut records = Vec::new();
    for (implementation, module) in modules {
        for k in module.kernels() {
            let shape = nominal_shape(k.name());
            let block_threads = shape.block.count() as u32;
            let active = k.max_active_blocks_per_sm(block_threads, shape.shared_bytes as usize)?;
            records.push(KernelRecord {
                name: k.name().to_string(),
                implementation,
                resources: k.resources().clone(),
                block_threads,
                dynamic_shared_bytes: shape.shared_bytes,
                active_blocks_per_sm: active,
                theoretical_occupancy: (active as f64 * block_threads as f64 / per_sm).min(1.0),
            });
        }
    }
    Ok(records)
}

impl Report {
    pub fn new(gpu: &Gpu, settings: &RunSettings, kernels: Vec<KernelRecord>, experiments: Vec<SweepResult>) -> Self {
        Self {
            schema: SCHEMA.to_string(),
            schema_version: SCHEMA_VERSION,
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
            generated_unix_s: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            ptx: PtxRecord::embedded(),
            device: gpu.info().clone(),
            settings: settings.clone(),
            kernels,
            experiments,
            partial: false,
            stop_reason: None,
            incomplete: Vec::new(),
        }
    }

    /// Marks the report as partial: why the run stopped, and which
    /// experiments are incomplete ("name (what happened)").
    pub fn mark_partial(&mut self, reason: impl Into<String>, incomplete: Vec<String>) {
        self.partial = true;
        self.stop_reason = Some(reason.into());
        self.incomplete = incomplete;
    }

    /// Reads a report, refusing other schemas and versions.
    pub fn from_json(text: &str) -> Result<Self> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|source| Error::Json {
            context: "report.json is not valid JSON".into(),
            source,
        })?;
        if value["schema"] != SCHEMA {
            return Err(Error::InvalidInput(
                "not a ptxsuite report (schema field missing or different)".into(),
            ));
        }
        if value["schema_version"] != SCHEMA_VERSION {
            return Err(Error::InvalidInput(format!(
                "report schema version {} is not the supported version {SCHEMA_VERSION}",
                value["schema_version"]
            )));
        }
        serde_json::from_value(value).map_err(|source| Error::Json {
            context: "report.json does not match the schema".into(),
            source,
        })
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }

    /// The text of `report.md`.
    pub fn markdown(&self) -> String {
        markdown::render(self)
    }

    /// Writes `report.json`, `report.md` and one SVG per sweep into `dir`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).map_err(|e| Error::io(format!("cannot write {}", path.display()), e))
        };
        write("report.json", &self.to_json())?;
        for sweep in &self.experiments {
            let svg = svg_plot::sweep_svg(sweep, self.device.theoretical_bandwidth_gbps)?;
            write(&format!("{}.svg", sweep.experiment), &svg)?;
        }
        write("report.md", &self.markdown())
    }
}

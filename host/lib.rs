//! ptxsuite: CUDA kernels written in Rust, compiled to PTX, measured on the GPU.
//!
//! Layers, bottom up (imports run downwards only, kept so by `tests/layers.rs`;
//! modelled on cudarc's `sys → result → safe`):
//! * [`facts`]: the report's data model that the runtime layers fill in
//!   (device facts, CUDA ordinals, kernel resources, implementation names,
//!   NVML's link facts and telemetry summaries); it imports nothing but
//!   [`stats`], and [`error`] imports nothing of the crate.
//! * [`gpu`]: RAII wrappers over the CUDA driver API (context, module with JIT
//!   logs, kernels with their resource use, buffers, events, cuBLAS handle):
//!   a pure driver layer.
//! * [`opencl`]: the same for OpenCL (loaded at run time): a sibling runtime
//!   layer, never imported by `gpu`.
//! * [`nvml`]: NVIDIA's management library (loaded at run time): reads the
//!   device facts, links and the telemetry sampled during a run; a sibling too.
//! * [`testbed`]: the devices under test and the implementations loaded on
//!   them (the Rust PTX, the CUDA C twins, cuBLAS).
//! * [`launchers`]: one typed, bounds-checked launcher per kernel, and per
//!   kernel family its description and its runners, one per programming model.
//! * [`reference`]: CPU references and the tolerance rule.
//! * [`sass`]: `ptxas` and `nvdisasm` (found at run time) turn the PTX into
//!   the GPU's own instructions, read into loops and counted: a pure tool layer.
//! * [`report`]: the typed results (schema v2), JSON, Markdown and SVG.
//! * [`experiments`]: the registry; each experiment one file.
//! * [`merge`]: the reports of a cluster's nodes combined, slow nodes named.
//! * [`selftest`] and [`commands`]: the command line.
//!
//! The kernels themselves live in the `kernels-gpu` crate; [`emulator`] runs
//! them on the CPU.

pub mod bandwidth;
pub mod commands;
pub mod concurrent_timing;
pub mod control_flow;
pub mod copy_element;
pub mod counters;
pub mod cupti;
pub mod error;
pub mod experiments;
pub mod facts;
pub mod gl;
pub mod gpu;
pub mod input_values;
pub mod interrupt_watch;
pub mod launchers;
pub mod merge;
pub mod numa;
pub mod nvml;
pub mod opencl;
pub mod output_files;
pub mod particle_scene;
pub mod picture;
pub mod ptx;
pub mod published_figures;
pub mod reference;
pub mod report;
pub mod run_settings;
pub mod sass;
pub mod selftest;
pub mod stats;
pub mod stop_signal;
pub mod testbed;
pub mod timing;

pub use error::{Error, Result};
pub use kernels_gpu::{device, emulator};

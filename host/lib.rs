//! ptxsuite: CUDA kernels written in Rust, compiled to PTX, measured on the GPU.
//!
//! Layers, bottom up (modelled on cudarc's `sys → result → safe`):
//! * [`gpu`]: RAII wrappers over the CUDA driver API (context, module with JIT
//!   logs, kernels with their resource use, device buffers, event timers).
//! * [`launchers`]: one typed, bounds-checked launcher per kernel.
//! * [`experiments`]: the registry of sweeps the guide describes, timed and verified.
//! * [`report`]: JSON, Markdown and SVG output.
//! * [`selftest`]: every kernel and host path once, small, against the references.
//!
//! The kernels themselves live in the `kernels-gpu` crate; [`emulator`] runs
//! them on the CPU.

pub mod bandwidth;
pub mod commands;
pub mod copy_element;
pub mod error;
pub mod experiments;
pub mod gl;
pub mod gpu;
pub mod interop;
pub mod launchers;
pub mod particle_scene;
pub mod picture;
pub mod ptx;
pub mod reference;
pub mod report;
pub mod selftest;
pub mod stats;

pub use error::{Error, Result};
pub use kernels_gpu::{device, emulator};

//! The host side of the example: the embedded PTX, the launch shapes (checked
//! before every launch), CPU references, and the GPU runner.

pub mod gpu;
pub mod reference;
pub mod shape;

/// The kernels' PTX, built by `build.rs` with `ptx-builder`.
pub const KERNELS_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/saxpy_kernels.ptx"));

/// The architecture it was built for (`SAXPY_PTX_ARCH` at build time).
pub const PTX_ARCH: &str = env!("SAXPY_PTX_ARCH");

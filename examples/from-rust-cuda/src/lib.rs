//! The host side: the embedded PTX, launch shapes checked before every
//! launch, CPU references, and GPU 0 through cudarc with the arguments in
//! `cust::launch!`'s order (a slice is its pointer, then its length).

pub mod gpu;
pub mod reference;
pub mod shape;

/// The kernels' PTX, built by `build.rs` with ptx-builder.
pub const KERNELS_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/from_rust_cuda_kernels.ptx"));

/// The architecture it was built for (`FROM_RUST_CUDA_PTX_ARCH` at build time).
pub const PTX_ARCH: &str = env!("FROM_RUST_CUDA_PTX_ARCH");

/// The kernels' names in the PTX.
pub const KERNELS: [&str; 4] = ["vecadd", "block_sum", "warp_sum", "transpose"];

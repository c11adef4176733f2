//! Builds `kernels` (written in Rust-CUDA's `cuda_std` style) to PTX
//! (`$OUT_DIR/from_rust_cuda_kernels.ptx`) with ptx-builder, where a
//! Rust-CUDA project's build.rs called `cuda_builder::CudaBuilder`.
//! `FROM_RUST_CUDA_PTX_ARCH` picks the architecture (default sm_75).

fn main() {
    let ptx = ptx_builder::PtxBuilder::new("kernels")
        .arch_from_env("FROM_RUST_CUDA_PTX_ARCH", "sm_75")
        .build()
        .unwrap_or_else(|error| error.exit());
    println!("cargo:rustc-env=FROM_RUST_CUDA_PTX_ARCH={}", ptx.arch);
}

//! Builds the `kernels-gpu` crate to PTX and embeds it in the host crate.
//!
//! The work is the `ptx-builder` crate's (crates/ptx-builder): a child `cargo
//! rustc` for `nvptx64-nvidia-cuda` with its own target dir, a clean
//! environment, `-Ctarget-cpu` for every crate and the PTX found from cargo's
//! JSON messages; a missing toolchain component or a bad architecture stops
//! the build with the fix.
//!
//! `PTXSUITE_PTX_ARCH` picks the target (default `sm_75`, the oldest
//! architecture CUDA 13 still supports); it is recorded in the binary.

use std::path::PathBuf;

use ptx_builder::PtxBuilder;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let ptx = PtxBuilder::new("kernels-gpu")
        .arch_from_env("PTXSUITE_PTX_ARCH", "sm_75")
        .output(out_dir.join("kernels.ptx"))
        .build()
        .unwrap_or_else(|error| error.exit());
    println!("cargo:rustc-env=PTXSUITE_PTX_ARCH={}", ptx.arch);
}

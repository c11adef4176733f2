//! Builds `saxpy-kernels` to PTX (`$OUT_DIR/saxpy_kernels.ptx`); `SAXPY_PTX_ARCH`
//! picks the architecture (default sm_75, which every newer GPU runs).

fn main() {
    let ptx = ptx_builder::PtxBuilder::new("saxpy-kernels")
        .arch_from_env("SAXPY_PTX_ARCH", "sm_75")
        .build()
        .unwrap_or_else(|error| error.exit());
    println!("cargo:rustc-env=SAXPY_PTX_ARCH={}", ptx.arch);
}

//! Runs the four kernels on GPU 0 and checks them against the CPU
//! references; prints OK. Without an NVIDIA driver or GPU it says so and
//! exits with status 1.

use std::process::ExitCode;

use from_rust_cuda::gpu::{Gpu, WARP_SUM_THREADS};
use from_rust_cuda::{PTX_ARCH, reference};

const ELEMENTS: usize = 1 << 22;
const WIDTH: usize = 1000;
const HEIGHT: usize = 700;

fn check_sums(what: &str, got: &[f32], x: &[f32], block: usize) -> Result<(), String> {
    let want = reference::block_sums(x, block);
    if got.len() != want.len() {
        return Err(format!("{what}: {} sums, expected {}", got.len(), want.len()));
    }
    for (b, (g, w)) in got.iter().zip(&want).enumerate() {
        let chunk = &x[b * block..((b + 1) * block).min(x.len())];
        if (*g as f64 - w).abs() > reference::sum_tolerance(chunk) {
            return Err(format!("{what}: block {b} sums to {g}, expected {w}"));
        }
    }
    Ok(())
}

fn run() -> Result<(), String> {
    let gpu = Gpu::open().map_err(|e| e.to_string())?;
    println!("GPU 0: {} (PTX built for {PTX_ARCH})", gpu.name());
    let (a, b) = (reference::input(ELEMENTS, 1), reference::input(ELEMENTS, 2));

    let c = gpu.vecadd(&a, &b).map_err(|e| e.to_string())?;
    if c != reference::vecadd(&a, &b) {
        return Err("vecadd: the sums differ from the CPU's".into());
    }
    println!("vecadd: {ELEMENTS} elements match the CPU reference");

    let sums = gpu.block_sums(&a, false).map_err(|e| e.to_string())?;
    check_sums("block_sum", &sums, &a, 256)?;
    println!("block_sum: {} block sums (shared_array!) match", sums.len());

    let sums = gpu.block_sums(&a, true).map_err(|e| e.to_string())?;
    check_sums("warp_sum", &sums, &a, WARP_SUM_THREADS as usize)?;
    println!("warp_sum: {} block sums (warp shuffles) match", sums.len());

    let matrix = reference::input(WIDTH * HEIGHT, 3);
    let transposed = gpu.transpose(&matrix, WIDTH, HEIGHT).map_err(|e| e.to_string())?;
    if transposed != reference::transpose(&matrix, WIDTH, HEIGHT) {
        return Err("transpose: differs from the CPU's".into());
    }
    println!("transpose: {HEIGHT} x {WIDTH} (index_2d) matches");
    println!("OK");
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

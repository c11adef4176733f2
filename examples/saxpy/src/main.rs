//! Runs the example's kernels on GPU 0 and checks them against the CPU
//! references. Without an NVIDIA driver or GPU it says so and exits with status 1.

use std::process::ExitCode;

use saxpy_host::gpu::{BLOCK, Gpu};
use saxpy_host::{PTX_ARCH, reference};

/// 4 Mi elements: 16 MiB per vector, 16384 blocks.
const ELEMENTS: usize = 1 << 22;
const A: f32 = 2.5;

/// `Err` with the first element where `got` and `want` differ.
fn compare(what: &str, got: &[f32], want: &[f32]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{what}: {} results, expected {}", got.len(), want.len()));
    }
    match got.iter().zip(want).position(|(g, w)| g.to_bits() != w.to_bits()) {
        None => Ok(()),
        Some(i) => Err(format!("{what}: element {i} is {}, expected {}", got[i], want[i])),
    }
}

fn run() -> Result<(), String> {
    let gpu = Gpu::open().map_err(|e| e.to_string())?;
    println!("GPU 0: {} (PTX built for {PTX_ARCH})", gpu.name());
    let (x, y) = reference::input(ELEMENTS);

    let y = {
        let got = gpu.saxpy(A, &x, &y).map_err(|e| e.to_string())?;
        compare("saxpy", &got, &reference::saxpy(A, &x, &y))?;
        println!("saxpy: {ELEMENTS} elements match the CPU reference");
        got
    };

    let partial = gpu.block_sums(&y).map_err(|e| e.to_string())?;
    compare("block_sum", &partial, &reference::block_sums(&y, BLOCK as usize))?;
    let total: f64 = partial.iter().map(|&p| p as f64).sum();
    println!(
        "block_sum: {} block sums match the CPU reference (total {total})",
        partial.len()
    );
    println!("OK");
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

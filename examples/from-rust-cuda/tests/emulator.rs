//! The kernels, as written for Rust-CUDA, in cuda_std's CPU emulator against
//! the CPU references: the same code that runs on the GPU.

use cuda_std::emulator::{Dim3, FaultKind, HostPointer, LaunchConfig, launch};
use from_rust_cuda::reference;
use from_rust_cuda_kernels::{BLOCK_SUM_THREADS, TILE, block_sum, transpose, vecadd, warp_sum};

fn one_d(blocks: usize, threads: usize) -> LaunchConfig {
    LaunchConfig::new(Dim3::x(blocks as u32), Dim3::x(threads as u32), 0)
}

#[test]
fn vecadd_matches_the_reference_with_a_partial_last_block() {
    let (a, b) = (reference::input(1000, 1), reference::input(1000, 2));
    let mut c = vec![f32::NAN; 1000];
    let out = HostPointer::new(c.as_mut_ptr());
    // SAFETY: c holds a.len() elements; the kernel writes below a.len().
    launch(one_d(4, 256), || unsafe { vecadd(&a, &b, out.get()) }).unwrap();
    assert_eq!(c, reference::vecadd(&a, &b));
}

fn sums(kernel: unsafe fn(&[f32], *mut f32), x: &[f32], block: usize) -> Vec<f32> {
    let blocks = x.len().div_ceil(block);
    let mut partial = vec![f32::NAN; blocks];
    let out = HostPointer::new(partial.as_mut_ptr());
    // SAFETY: partial holds one sum per block.
    launch(one_d(blocks, block), || unsafe { kernel(x, out.get()) }).unwrap();
    partial
}

fn assert_sums(got: &[f32], x: &[f32], block: usize) {
    let want = reference::block_sums(x, block);
    assert_eq!(got.len(), want.len());
    for (b, (g, w)) in got.iter().zip(&want).enumerate() {
        let chunk = &x[b * block..((b + 1) * block).min(x.len())];
        assert!(
            (*g as f64 - w).abs() <= reference::sum_tolerance(chunk),
            "block {b}: {g} vs {w}"
        );
    }
}

#[test]
fn block_sum_reduces_each_block_through_its_shared_array() {
    let x = reference::input(1500, 7);
    assert_sums(&sums(block_sum, &x, BLOCK_SUM_THREADS), &x, BLOCK_SUM_THREADS);
}

#[test]
fn warp_sum_reduces_each_block_by_shuffles_for_several_block_sizes() {
    let x = reference::input(2000, 9);
    for block in [32, 96, 256, 1024] {
        assert_sums(&sums(warp_sum, &x, block), &x, block);
    }
}

#[test]
fn transpose_indexes_a_2d_launch() {
    let (width, height) = (37, 21);
    let input = reference::input(width * height, 4);
    let mut output = vec![f32::NAN; input.len()];
    let out = HostPointer::new(output.as_mut_ptr());
    let grid = Dim3::new((width as u32).div_ceil(TILE), (height as u32).div_ceil(TILE), 1);
    let config = LaunchConfig::new(grid, Dim3::new(TILE, TILE, 1), 0);
    // SAFETY: output holds width · height elements, the kernel guards x < width and y < height.
    launch(config, || unsafe { transpose(&input, out.get(), width, height) }).unwrap();
    assert_eq!(output, reference::transpose(&input, width, height));
}

#[test]
fn a_slice_shorter_than_the_launch_claims_is_caught() {
    // The transpose told the matrix is 37 × 21 but given 20 rows: the slice index past the end
    // is a fault here (a stray read on the GPU).
    let input = reference::input(37 * 20, 4);
    let mut output = vec![0.0f32; 37 * 21];
    let out = HostPointer::new(output.as_mut_ptr());
    let config = LaunchConfig::new(Dim3::new(3, 2, 1), Dim3::new(TILE, TILE, 1), 0);
    // SAFETY: deliberately wrong height; output is large enough for it.
    let error = launch(config, || unsafe { transpose(&input, out.get(), 37, 21) }).unwrap_err();
    assert!(
        error.has_fault(|kind| matches!(kind, FaultKind::KernelPanic { message } if message.contains("out of bounds"))),
        "{error}"
    );
}

#[test]
fn the_embedded_ptx_has_every_entry_real_shared_memory_and_nothing_for_libdevice() {
    let ptx = from_rust_cuda::KERNELS_PTX;
    for entry in from_rust_cuda::KERNELS {
        assert!(ptx.contains(&format!(".visible .entry {entry}(")), "no .entry {entry}");
    }
    assert!(ptx.contains(&format!(".target {}", from_rust_cuda::PTX_ARCH)));
    let shared: Vec<&str> = ptx.lines().filter(|l| l.starts_with(".shared ")).collect();
    assert_eq!(shared.len(), 2, "block_sum's tile and warp_sum's 32 slots: {shared:?}");
    assert!(
        shared.iter().any(|l| l.ends_with("[1024];")) && shared.iter().any(|l| l.ends_with("[128];")),
        "{shared:?}"
    );
    assert!(
        !ptx.contains("__nv") && !ptx.contains(".extern .func"),
        "something left unresolved"
    );
    // vecadd: (a pointer, a length, b pointer, b length, c pointer).
    let vecadd = &ptx[ptx.find(".visible .entry vecadd(").unwrap()..];
    assert_eq!(vecadd[..vecadd.find(')').unwrap()].matches(".param").count(), 5);
}

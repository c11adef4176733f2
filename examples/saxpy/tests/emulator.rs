//! The kernels in the CPU emulator, against the CPU references: the same
//! code that runs on the GPU, with real barriers and every access checked.

use ptx_device::Dim3;
use ptx_device::emulator::{Emulator, EmulatorError, FaultKind, LaunchConfig};
use saxpy_host::reference;
use saxpy_host::shape::{LaunchShape, block_sum_shape, saxpy_shape};
use saxpy_kernels::{block_sum, saxpy};

fn config(shape: LaunchShape) -> LaunchConfig {
    LaunchConfig::new(Dim3::x(shape.grid), Dim3::x(shape.block), shape.shared_bytes as usize)
}

fn emulate_saxpy(a: f32, x: &[f32], y: &[f32], shape: LaunchShape) -> Result<Vec<f32>, EmulatorError> {
    let mut out = y.to_vec();
    let mut emulator = Emulator::new();
    let x_ptr = emulator.global(x);
    let y_ptr = emulator.global_mut(&mut out);
    let n = x.len() as u32;
    // SAFETY: none needed for memory: the emulator checks every access.
    emulator.launch(config(shape), || unsafe { saxpy(y_ptr, x_ptr, a, n) })?;
    drop(emulator);
    Ok(out)
}

fn emulate_block_sums(x: &[f32], shape: LaunchShape) -> Result<Vec<f32>, EmulatorError> {
    let mut partial = vec![f32::NAN; shape.grid as usize];
    let mut emulator = Emulator::new();
    let x_ptr = emulator.global(x);
    let partial_ptr = emulator.global_mut(&mut partial);
    let n = x.len() as u32;
    // SAFETY: as above.
    emulator.launch(config(shape), || unsafe { block_sum(partial_ptr, x_ptr, n) })?;
    drop(emulator);
    Ok(partial)
}

#[test]
fn saxpy_matches_the_reference_with_a_partial_last_block() {
    let (x, y) = reference::input(1000);
    let got = emulate_saxpy(2.5, &x, &y, saxpy_shape(1000, 128).unwrap()).unwrap();
    assert_eq!(got, reference::saxpy(2.5, &x, &y));
}

#[test]
fn block_sums_match_the_reference_for_several_block_sizes() {
    let (x, _) = reference::input(1500);
    for block in [32, 64, 256] {
        let got = emulate_block_sums(&x, block_sum_shape(x.len(), block).unwrap()).unwrap();
        assert_eq!(got, reference::block_sums(&x, block as usize), "block {block}");
    }
}

#[test]
fn a_grid_one_block_too_large_is_caught_by_the_emulator() {
    // What the shape check exists for: 1024 threads over 1000 elements, without the
    // kernel's `i < n` guard, would run past the buffers; with n = 1024 it does.
    let (x, y) = reference::input(1000);
    let mut out = y.clone();
    let mut emulator = Emulator::new();
    let (x_ptr, y_ptr) = (emulator.global(&x), emulator.global_mut(&mut out));
    let config = LaunchConfig::new(Dim3::x(8), Dim3::x(128), 0);
    // SAFETY: deliberately wrong n; the emulator checks every access.
    let error = emulator
        .launch(config, || unsafe { saxpy(y_ptr, x_ptr, 2.5, 1024) })
        .unwrap_err();
    assert!(
        error.has_fault(|kind| matches!(kind, FaultKind::GlobalOutOfBounds { index, .. } if *index >= 1000)),
        "{error}"
    );
}

#[test]
fn block_sum_without_its_shared_memory_is_caught() {
    let (x, _) = reference::input(256);
    let mut shape = block_sum_shape(x.len(), 64).unwrap();
    shape.shared_bytes = 4 * 32; // half the tile
    let error = emulate_block_sums(&x, shape).unwrap_err();
    assert!(
        error.has_fault(|kind| matches!(kind, FaultKind::SharedOutOfBounds { .. })),
        "{error}"
    );
}

#[test]
fn the_embedded_ptx_has_both_entries_for_its_architecture() {
    for entry in ["saxpy", "block_sum"] {
        assert!(
            saxpy_host::KERNELS_PTX.contains(&format!(".visible .entry {entry}(")),
            "no .entry {entry} in the PTX"
        );
    }
    assert!(saxpy_host::KERNELS_PTX.contains(&format!(".target {}", saxpy_host::PTX_ARCH)));
}

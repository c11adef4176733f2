//! The copy kernels run in the CPU emulator and compared with the CPU
//! reference over offsets, strides and sizes that are not multiples of the block.

use kernels_gpu::global_memory::{offset_copy, stride_copy};
use ptxsuite::device::Dim3;
use ptxsuite::emulator::{Emulator, FaultKind, LaunchConfig};
use ptxsuite::reference;

const SENTINEL: f32 = -1.0;

fn pattern(len: usize) -> Vec<f32> {
    (0..len).map(|i| i as f32 * 0.5 + 3.0).collect()
}

/// Runs `offset_copy` with `blocks × block` threads in the emulator.
fn emulate_offset(
    len: usize,
    blocks: u32,
    block: u32,
    offset: i32,
) -> Result<Vec<f32>, ptxsuite::emulator::EmulatorError> {
    let input = pattern(len);
    let mut output = vec![SENTINEL; len];
    {
        let mut emu = Emulator::new();
        let inp = emu.global(&input);
        let out = emu.global_mut(&mut output);
        // SAFETY: the emulator checks every access; out-of-range ones become faults.
        emu.launch(LaunchConfig::new(Dim3::x(blocks), Dim3::x(block), 0), || unsafe {
            offset_copy(out, inp, offset)
        })?;
    }
    Ok(output)
}

fn emulate_stride(
    len: usize,
    blocks: u32,
    block: u32,
    stride: i32,
) -> Result<Vec<f32>, ptxsuite::emulator::EmulatorError> {
    let input = pattern(len);
    let mut output = vec![SENTINEL; len];
    {
        let mut emu = Emulator::new();
        let inp = emu.global(&input);
        let out = emu.global_mut(&mut output);
        // SAFETY: as above.
        emu.launch(LaunchConfig::new(Dim3::x(blocks), Dim3::x(block), 0), || unsafe {
            stride_copy(out, inp, stride)
        })?;
    }
    Ok(output)
}

#[test]
fn offset_copy_matches_reference_for_every_offset() {
    // 3 blocks of 64 threads over a buffer that is not a multiple of the block (192 + 33 + 7 elements).
    let (blocks, block) = (3, 64);
    let threads = (blocks * block) as usize;
    let len = threads + 33 + 7;
    for offset in 0..=32 {
        let got = emulate_offset(len, blocks, block, offset).unwrap();
        let mut expected = vec![SENTINEL; len];
        reference::offset_copy(&mut expected, &pattern(len), threads, offset as usize);
        assert_eq!(got, expected, "offset {offset}");
    }
}

#[test]
fn stride_copy_matches_reference_for_every_stride() {
    let (blocks, block) = (2, 32);
    let threads = (blocks * block) as usize;
    for stride in 1..=32usize {
        let len = (threads - 1) * stride + 1 + 5; // last element touched, plus a tail
        let got = emulate_stride(len, blocks, block, stride as i32).unwrap();
        let mut expected = vec![SENTINEL; len];
        reference::stride_copy(&mut expected, &pattern(len), threads, stride);
        assert_eq!(got, expected, "stride {stride}");
    }
}

#[test]
fn offset_copy_that_runs_past_the_buffer_is_reported() {
    // 64 threads at offset 1 over 64 elements: thread 63 reads element 64.
    let err = emulate_offset(64, 2, 32, 1).unwrap_err();
    let fault = &err.faults()[0];
    assert_eq!(fault.thread, Dim3::new(31, 0, 0));
    assert_eq!(fault.block, Dim3::new(1, 0, 0));
    match &fault.kind {
        FaultKind::GlobalOutOfBounds { write, index, .. } => {
            assert!(!write, "the read comes first");
            assert_eq!(*index, 64);
        }
        other => panic!("unexpected fault {other:?}"),
    }
}

#[test]
fn stride_copy_past_the_buffer_is_reported() {
    // Threads 25..=31 read elements 100, 104, ..., 124: each one is a fault, in any order.
    let err = emulate_stride(100, 1, 32, 4).unwrap_err();
    assert!(!err.faults().is_empty());
    for fault in err.faults() {
        assert!(fault.thread.x >= 25, "{fault}");
        match fault.kind {
            FaultKind::GlobalOutOfBounds { index, .. } => assert_eq!(index, 4 * fault.thread.x as isize, "{fault}"),
            ref other => panic!("unexpected fault {other:?}"),
        }
    }
}

//! The copy kernels run in the CPU emulator and compared with the CPU
//! reference over offsets, strides and sizes that are not multiples of the block.

mod support;

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

mod shifted_and_wide {
    use kernels_gpu::device::F32x4;
    use kernels_gpu::global_memory::{
        offset_copy_f16, offset_copy_f32x4, offset_copy_f64, permuted_copy, shift_copy, stride_copy_f16,
        stride_copy_f32x4, stride_copy_f64, texture_shift_copy, vector_copy,
    };
    use ptxsuite::device::{Dim3, GlobalMutPtr, GlobalPtr};
    use ptxsuite::emulator::{Emulator, FaultKind, LaunchConfig};
    use ptxsuite::reference;

    fn config(blocks: u32, block: u32) -> LaunchConfig {
        LaunchConfig::new(Dim3::x(blocks), Dim3::x(block), 0)
    }

    #[test]
    fn shift_copy_matches_reference_up_to_the_last_input_element() {
        let (blocks, block) = (3, 64);
        let threads = (blocks * block) as usize;
        let input: Vec<f32> = (0..threads + 32).map(|i| i as f32 + 0.5).collect(); // shift 32 reads the last one
        for shift in 0..=32 {
            let mut output = vec![-1.0f32; threads + 7]; // a tail the kernel must not touch
            {
                let mut emu = Emulator::new();
                let inp = emu.global(&input);
                let out = emu.global_mut(&mut output);
                emu.launch(config(blocks, block), || unsafe { shift_copy(out, inp, shift) })
                    .unwrap();
            }
            let mut expected = vec![-1.0f32; threads + 7];
            reference::shift_copy(&mut expected, &input, threads, shift as usize);
            assert_eq!(output, expected, "shift {shift}");
        }
    }

    #[test]
    fn permuted_copy_scrambles_each_segment_and_matches_the_reference_at_every_key() {
        let (blocks, block) = (3, 64);
        let threads = (blocks * block) as usize;
        let input: Vec<f32> = (0..threads).map(|i| i as f32 + 0.25).collect();
        for key in 0..32 {
            let mut output = vec![-1.0f32; threads + 7]; // a tail the kernel must not touch
            {
                let mut emu = Emulator::new();
                let inp = emu.global(&input);
                let out = emu.global_mut(&mut output);
                emu.launch(config(blocks, block), || unsafe { permuted_copy(out, inp, key) })
                    .unwrap();
            }
            let mut expected = vec![-1.0f32; threads + 7];
            reference::permuted_copy(&mut expected, &input, threads, key as usize);
            assert_eq!(output, expected, "key {key}");
            // Each 32-word segment holds exactly its own input words, in order only at key 0.
            for (segment, words) in output[..threads].chunks(32).enumerate() {
                let mut sorted = words.to_vec();
                sorted.sort_by(f32::total_cmp);
                assert_eq!(
                    sorted,
                    input[segment * 32..segment * 32 + 32],
                    "key {key}, segment {segment}"
                );
                assert_eq!(words == &input[segment * 32..segment * 32 + 32], key == 0, "key {key}");
            }
        }
        // The example of the task: key 6 multiplies lanes by 13 and XORs 6; lane 1 reads word 13 ^ 6 = 11.
        assert_eq!(kernels_gpu::global_memory::segment_permutation(1, 6), 11);
    }

    #[test]
    fn permuted_copy_past_the_buffers_is_reported() {
        let input = vec![0.0f32; 32];
        let mut output = vec![0.0f32; 64];
        let mut emu = Emulator::new();
        let inp = emu.global(&input);
        let out = emu.global_mut(&mut output);
        let err = emu
            .launch(config(2, 32), || unsafe { permuted_copy(out, inp, 0) })
            .unwrap_err();
        assert!(matches!(
            err.faults()[0].kind,
            FaultKind::GlobalOutOfBounds { write: false, .. }
        ));
    }

    #[test]
    fn shift_copy_reading_past_the_input_is_reported() {
        let input = vec![0.0f32; 64];
        let mut output = vec![0.0f32; 64];
        let mut emu = Emulator::new();
        let inp = emu.global(&input);
        let out = emu.global_mut(&mut output);
        let err = emu
            .launch(config(2, 32), || unsafe { shift_copy(out, inp, 1) })
            .unwrap_err();
        assert!(matches!(
            err.faults()[0].kind,
            FaultKind::GlobalOutOfBounds {
                write: false,
                index: 64,
                ..
            }
        ));
    }

    #[test]
    fn texture_shift_copy_reads_zero_past_the_texture() {
        let (blocks, block) = (2, 96);
        let threads = (blocks * block) as usize;
        let input: Vec<f32> = (0..threads + 5).map(|i| i as f32 * 3.0 + 1.0).collect();
        for shift in [0, 1, 5, 6, 17, 32] {
            let mut output = vec![-1.0f32; threads + 3];
            {
                let mut emu = Emulator::new();
                let texture = emu.texture_f32(&input);
                let out = emu.global_mut(&mut output);
                emu.launch(config(blocks, block), || unsafe {
                    texture_shift_copy(out, texture, shift)
                })
                .unwrap();
            }
            let mut expected = vec![-1.0f32; threads + 3];
            reference::texture_shift_copy(&mut expected, &input, threads, shift as usize);
            assert_eq!(output, expected, "shift {shift}");
        }
    }

    /// Runs an offset or stride kernel for element type `T` and compares with the reference.
    fn check_width<T: Copy + PartialEq + std::fmt::Debug>(
        make: impl Fn(usize) -> T,
        sentinel: T,
        kernel: unsafe fn(GlobalMutPtr<T>, GlobalPtr<T>, i32),
        reference: fn(&mut [T], &[T], usize, usize),
        params: &[i32],
        len_for: impl Fn(usize, i32) -> usize,
    ) {
        let (blocks, block) = (2, 32);
        let threads = (blocks * block) as usize;
        for &param in params {
            let len = len_for(threads, param);
            let input: Vec<T> = (0..len).map(&make).collect();
            let mut output = vec![sentinel; len];
            {
                let mut emu = Emulator::new();
                let inp = emu.global(&input);
                let out = emu.global_mut(&mut output);
                emu.launch(config(blocks, block), || unsafe { kernel(out, inp, param) })
                    .unwrap();
            }
            let mut expected = vec![sentinel; len];
            reference(&mut expected, &input, threads, param as usize);
            assert_eq!(output, expected, "parameter {param}");
        }
    }

    fn f32x4(i: usize) -> F32x4 {
        F32x4::from_array([i as f32, i as f32 + 0.25, i as f32 + 0.5, i as f32 + 0.75])
    }

    #[test]
    fn offset_copies_of_every_width_match_reference() {
        let offset_len = |threads: usize, offset: i32| threads + offset as usize + 3;
        let offsets = [0, 1, 3, 16, 31, 32];
        check_width(
            |i| i as u16,
            u16::MAX,
            offset_copy_f16,
            reference::offset_copy,
            &offsets,
            offset_len,
        );
        check_width(
            |i| i as f64,
            -1.0,
            offset_copy_f64,
            reference::offset_copy,
            &offsets,
            offset_len,
        );
        let sentinel = F32x4::from_array([-1.0; 4]);
        check_width(
            f32x4,
            sentinel,
            offset_copy_f32x4,
            reference::offset_copy,
            &offsets,
            offset_len,
        );
    }

    #[test]
    fn stride_copies_of_every_width_match_reference() {
        let stride_len = |threads: usize, stride: i32| (threads - 1) * stride as usize + 1 + 2;
        let strides = [1, 2, 5, 8, 32];
        check_width(
            |i| i as u16,
            u16::MAX,
            stride_copy_f16,
            reference::stride_copy,
            &strides,
            stride_len,
        );
        check_width(
            |i| i as f64,
            -1.0,
            stride_copy_f64,
            reference::stride_copy,
            &strides,
            stride_len,
        );
        let sentinel = F32x4::from_array([-1.0; 4]);
        check_width(
            f32x4,
            sentinel,
            stride_copy_f32x4,
            reference::stride_copy,
            &strides,
            stride_len,
        );
    }

    use super::support::aligned_floats as aligned;

    fn as_floats(vectors: &mut [F32x4]) -> &mut [f32] {
        F32x4::as_floats_mut(vectors)
    }

    #[test]
    fn vector_copy_handles_any_length_and_grid() {
        for n in [1u64, 3, 4, 5, 63, 64, 1023, 4099] {
            for (blocks, block) in [(1, 32), (3, 64), (2, 256)] {
                let len = n as usize + 9;
                let mut input_store = aligned(len, |i| i as f32 + 1.0);
                let mut output_store = aligned(len, |_| -1.0);
                let input = as_floats(&mut input_store)[..len].to_vec();
                {
                    let output = &mut as_floats(&mut output_store)[..len];
                    let mut emu = Emulator::new();
                    let inp_floats = as_floats(&mut input_store);
                    let inp = emu.global(&inp_floats[..len]);
                    let out = emu.global_mut(output);
                    emu.launch(config(blocks, block), || unsafe { vector_copy(out, inp, n) })
                        .unwrap_or_else(|e| panic!("n {n}, grid {blocks}x{block}: {e}"));
                }
                let mut expected = vec![-1.0f32; len];
                reference::copy_prefix(&mut expected, &input, n as usize, 0);
                assert_eq!(
                    &as_floats(&mut output_store)[..len],
                    &expected[..],
                    "n {n}, grid {blocks}x{block}"
                );
            }
        }
    }

    #[test]
    fn vector_copy_on_misaligned_buffers_is_reported() {
        let mut store = aligned(64, |i| i as f32);
        let floats = as_floats(&mut store);
        let (head, tail) = floats.split_at_mut(1); // tail starts 4 bytes past a 16-byte boundary
        let mut emu = Emulator::new();
        let inp = emu.global(&head[..]);
        let _ = inp;
        let out = emu.global_mut(tail);
        let inp_ptr = GlobalPtr::from_raw(out.as_raw() as *const f32);
        let err = emu
            .launch(config(1, 32), || unsafe { vector_copy(out, inp_ptr, 32) })
            .unwrap_err();
        assert!(
            matches!(err.faults()[0].kind, FaultKind::Misaligned { align: 16, .. }),
            "{err}"
        );
    }
}

#[test]
fn fma_chain_matches_the_reference_bit_for_bit() {
    use kernels_gpu::streams::fma_chain;
    let input: Vec<f32> = (0..1000).map(|i| i as f32 / 1000.0).collect();
    let mut data = input.clone();
    {
        let mut emu = Emulator::new();
        let ptr = emu.global_mut(&mut data);
        // 2 blocks of 64 threads over 1000 elements: the grid-stride loop covers the rest.
        emu.launch(LaunchConfig::new(Dim3::x(2), Dim3::x(64), 0), || unsafe {
            fma_chain(ptr, 1000, 37)
        })
        .unwrap();
    }
    for (got, x) in data.iter().zip(&input) {
        assert_eq!(got.to_bits(), reference::fma_chain(*x, 37).to_bits());
    }
}

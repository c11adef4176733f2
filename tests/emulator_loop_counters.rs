//! The §6.3 loop-counter kernels in the CPU emulator: all four counter types
//! copy the same elements as the CPU reference, and a launch that runs past
//! the input is reported.

use kernels_gpu::loop_counters::{loop_counter_i32, loop_counter_i32_unchecked, loop_counter_u32, loop_counter_usize};
use ptxsuite::device::Dim3;
use ptxsuite::emulator::{Emulator, EmulatorError, FaultKind, LaunchConfig};
use ptxsuite::launchers::LoopCounter;
use ptxsuite::reference::strided_loop;

const SENTINEL: f32 = -1.0;
const BLOCKS: u32 = 2;
const BLOCK: u32 = 32;
const THREADS: u64 = (BLOCKS * BLOCK) as u64;

fn input(len: usize) -> Vec<f32> {
    (0..len).map(|i| i as f32 * 0.25 + 1.0).collect()
}

/// Runs `counter`'s kernel; its output, or the emulator's faults.
fn emulate(
    counter: LoopCounter,
    len: (usize, usize),
    (n, offset, stride): (u64, u64, u64),
) -> Result<Vec<f32>, EmulatorError> {
    let inp = input(len.1);
    let mut out = vec![SENTINEL; len.0];
    {
        let mut emu = Emulator::new();
        let i = emu.global(&inp);
        let o = emu.global_mut(&mut out);
        let config = LaunchConfig::new(Dim3::x(BLOCKS), Dim3::x(BLOCK), 0);
        // SAFETY: the emulator checks every access; out-of-range ones become faults.
        emu.launch(config, || unsafe {
            match counter {
                LoopCounter::I32 => loop_counter_i32(o, i, n as i32, offset as i32, stride as i32),
                LoopCounter::U32 => loop_counter_u32(o, i, n as u32, offset as u32, stride as u32),
                LoopCounter::Usize => loop_counter_usize(o, i, n as usize, offset as usize, stride as usize),
                LoopCounter::I32Unchecked => loop_counter_i32_unchecked(o, i, n as i32, offset as i32, stride as i32),
            }
        })?;
    }
    Ok(out)
}

#[test]
fn every_counter_type_copies_what_the_reference_copies() {
    for (n, offset, stride) in [
        (1, 0, THREADS),
        (7, 3, THREADS),
        (16, 100, THREADS + 5),
        (5, 0, 3 * THREADS),
    ] {
        let out_len = (stride * (n - 1) + THREADS) as usize + 9;
        let in_len = out_len + offset as usize;
        let mut expected = vec![SENTINEL; out_len];
        strided_loop(&mut expected, &input(in_len), THREADS, n, offset, stride);
        for counter in LoopCounter::ALL {
            let got = emulate(counter, (out_len, in_len), (n, offset, stride)).unwrap();
            assert_eq!(got, expected, "{counter:?}, n {n}, offset {offset}, stride {stride}");
        }
    }
}

#[test]
fn a_loop_past_the_input_is_reported() {
    // The last thread's last read is inp[offset + 63 + 64·3] = inp[259 + offset]: one short.
    let (n, offset, stride) = (4, 4, THREADS);
    for counter in LoopCounter::ALL {
        let err = emulate(counter, (256, 259), (n, offset, stride)).unwrap_err();
        assert!(
            err.has_fault(|f| matches!(f, FaultKind::GlobalOutOfBounds { write: false, .. })),
            "{counter:?}: {err}"
        );
    }
}

//! The local-memory kernels in the CPU emulator: the registers, dynamic-index
//! and spilled versions compute the CPU reference's values (and the same ones
//! when the dynamic version's shift is 0).

use kernels_gpu::local_memory::{local_array_dynamic, local_array_registers, local_array_spilled};
use ptxsuite::device::{Dim3, GlobalMutPtr};
use ptxsuite::emulator::{Emulator, LaunchConfig};
use ptxsuite::reference;

const BLOCKS: u32 = 3;
const BLOCK_THREADS: u32 = 40;
const ROUNDS: u32 = 4;

fn run(kernel: impl Fn(GlobalMutPtr<u32>) + Sync) -> Vec<u32> {
    let mut out = vec![0u32; (BLOCKS * BLOCK_THREADS) as usize];
    {
        let mut emu = Emulator::new();
        let out_ptr = emu.global_mut(&mut out);
        emu.launch(LaunchConfig::new(Dim3::x(BLOCKS), Dim3::x(BLOCK_THREADS), 0), || {
            kernel(out_ptr)
        })
        .unwrap();
    }
    out
}

fn expected(shift: u32) -> Vec<u32> {
    (0..BLOCKS * BLOCK_THREADS)
        .map(|t| reference::local_array(t, shift, ROUNDS))
        .collect()
}

#[test]
fn registers_and_spilled_versions_match_the_reference() {
    // SAFETY: one output word per thread.
    let registers = run(|out| unsafe { local_array_registers(ROUNDS, out) });
    // SAFETY: as above.
    let spilled = run(|out| unsafe { local_array_spilled(ROUNDS, out) });
    assert_eq!(registers, expected(0));
    assert_eq!(spilled, expected(0));
}

#[test]
fn dynamic_index_version_matches_the_reference_for_every_shift() {
    for shift in [0, 1, 5, 63, 64, 1000] {
        // SAFETY: one output word per thread.
        let got = run(|out| unsafe { local_array_dynamic(shift, ROUNDS, out) });
        assert_eq!(got, expected(shift), "shift {shift}");
    }
    assert_ne!(expected(0), expected(1), "the shift must change the result");
}

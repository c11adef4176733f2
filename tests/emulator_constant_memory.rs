//! The constant-memory kernels in the CPU emulator: the constant array, the
//! `ld.global.nc` and the shared-memory walks of the same table give every
//! thread the sum the CPU reference computes, for 1 to 32 distinct addresses.

use kernels_gpu::block_span::BLOCK_SPAN_WORDS;
use kernels_gpu::constant_memory::{constant_chase, constant_chase_global_nc, constant_chase_shared};
use ptxsuite::device::Dim3;
use ptxsuite::emulator::{Emulator, EmulatorError, FaultKind, LaunchConfig};
use ptxsuite::reference;

const BLOCKS: u32 = 2;
const BLOCK_THREADS: u32 = 64;
const STEPS: u32 = 19;

#[derive(Clone, Copy, Debug)]
enum Space {
    Constant,
    GlobalReadOnly,
    Shared,
}

/// Runs the chase of `space` over `links` (the constant array holds `constant`);
/// returns (span words, four per block, and sums per thread).
fn run(space: Space, links: &[u32], constant: &[u32], distinct: u32) -> Result<(Vec<u64>, Vec<u32>), EmulatorError> {
    let mut cycles = vec![0u64; BLOCK_SPAN_WORDS * BLOCKS as usize];
    let mut sums = vec![0u32; (BLOCKS * BLOCK_THREADS) as usize];
    {
        let mut emu = Emulator::new();
        emu.constant_words(constant);
        let links_ptr = emu.global(links);
        let cycles_ptr = emu.global_mut(&mut cycles);
        let sums_ptr = emu.global_mut(&mut sums);
        let words = links.len() as u32;
        let shared = match space {
            Space::Shared => links.len() * 4,
            _ => 0,
        };
        let config = LaunchConfig::new(Dim3::x(BLOCKS), Dim3::x(BLOCK_THREADS), shared);
        // SAFETY: the emulator checks every access, constant reads included.
        emu.launch(config, || unsafe {
            match space {
                Space::Constant => constant_chase(distinct, STEPS, cycles_ptr, sums_ptr),
                Space::GlobalReadOnly => constant_chase_global_nc(links_ptr, distinct, STEPS, cycles_ptr, sums_ptr),
                Space::Shared => constant_chase_shared(links_ptr, words, distinct, STEPS, cycles_ptr, sums_ptr),
            }
        })?;
    }
    Ok((cycles, sums))
}

#[test]
fn every_space_walks_the_table_as_the_reference_does() {
    let links = reference::constant_chase_links(256);
    for space in [Space::Constant, Space::GlobalReadOnly, Space::Shared] {
        for distinct in [1, 2, 4, 8, 16, 32, 3, 31] {
            let (cycles, sums) = run(space, &links, &links, distinct).unwrap();
            for (t, &sum) in sums.iter().enumerate() {
                let expected = reference::constant_chase_sum(&links, distinct, (t % 32) as u32, STEPS);
                assert_eq!(sum, expected, "{space:?}, {distinct} distinct, thread {t}");
            }
            for (b, span) in cycles.as_chunks::<BLOCK_SPAN_WORDS>().0.iter().enumerate() {
                assert!(span[1] > span[0], "block {b}: its span ends after it starts: {span:?}");
                assert_eq!(span[2], 0, "block {b}: the emulator is SM 0");
            }
        }
    }
}

#[test]
fn the_table_keeps_lane_groups_apart() {
    // distinct groups at every step: the claim the series rests on.
    let links = reference::constant_chase_links(256);
    let mut words: Vec<u32> = (0..32).collect();
    for _ in 0..20 {
        words = words.iter().map(|&w| links[w as usize]).collect();
        let mut sorted = words.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 32);
        // One bank each in shared memory: word w sits in bank w % 32.
        let mut banks: Vec<u32> = words.iter().map(|w| w % 32).collect();
        banks.sort_unstable();
        banks.dedup();
        assert_eq!(banks.len(), 32);
    }
}

#[test]
fn a_constant_read_past_the_registered_words_is_a_fault() {
    // The table links word w to w + 32, but only 40 constant words are registered:
    // lane 8 reads word 8, which sends it to word 40.
    let links = reference::constant_chase_links(64);
    let err = run(Space::Constant, &links, &links[..40], 32).unwrap_err();
    assert!(
        err.has_fault(|k| matches!(k, FaultKind::ConstantOutOfBounds { words: 40, .. })),
        "{err}"
    );
}
